#!/usr/bin/env bash
# A word n-gram language model for pocketsphinx decoding (steps/decode_pocketsphinx.sh --lm <lm-dir>), built
# from the transcripts of training data dirs only (interpolated Kneser-Ney, ARPA), with G2P pronunciations of
# the words the CMU dictionary lacks.
#
# Usage: steps/train_ngram_lm.sh [--order 3] [--not-from <test-data>] <train-data> [<train-data> ...] <lm-dir>
#   --not-from ""   a data dir (the test set) that must share no utterance with the training data (checked)
# Writes <lm-dir>/lm.arpa, lm.dict (pronunciations of its words: CMU + G2P), extra.dict (the G2P ones), lm_info.json. Kept when newer than every input text.
set -euo pipefail
order=3
not_from=
help_message="Usage: $0 [--order 3] [--not-from <test-data>] <train-data> [<train-data> ...] <lm-dir>"
. utils/parse_options.sh
if [ $# -lt 2 ]; then echo "$help_message" >&2; exit 1; fi
dir=${!#}
trains=("${@:1:$#-1}")
if [ -s "$dir/lm.arpa" ] && [ -s "$dir/lm.dict" ] && [ -f "$dir/lm_info.json" ]; then
  fresh=true
  for d in "${trains[@]}"; do [ "$dir/lm.arpa" -nt "$d/text" ] || fresh=false; done
  if $fresh; then echo "$0: $dir/lm.arpa is current; kept"; exit 0; fi
fi
opts=(--order "$order")
[ -n "$not_from" ] && opts+=(--not-from "$not_from")
pydeid build-ngram-lm "${opts[@]}" "${trains[@]}" "$dir"
