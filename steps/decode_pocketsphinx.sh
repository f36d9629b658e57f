#!/usr/bin/env bash
# Decode a data dir with the pretrained pocketsphinx en-us recogniser (acoustic model, CMU dictionary and, by
# default, the general 3-gram LM of the pocketsphinx wheel; --lm <dir> from steps/train_ngram_lm.sh). The
# utility meter of real speech: no training on the corpus. Score with steps/score.sh <data> <decode-dir>.
#
# Usage: steps/decode_pocketsphinx.sh [options] <data> <decode-dir>
#   --lm general     general | an LM dir of steps/train_ngram_lm.sh | an LM file
#   --lw ""          language weight (pocketsphinx default 6.5)
#   --nj 1  --cmd "$decode_cmd"   (whole speakers per job)
# Writes <decode-dir>/text, textnorm.json, decode_pocketsphinx.json (audio and CPU seconds, RTF), log/.
# A decode dir whose text is newer than the data and the LM is kept.
set -euo pipefail
lm=general
lw=
nj=1
cmd=${decode_cmd:-run.pl}
help_message="Usage: $0 [--lm general|<lm-dir>] [--lw W] [--nj N] [--cmd CMD] <data> <decode-dir>"
. utils/parse_options.sh
if [ $# -ne 2 ]; then echo "$help_message" >&2; exit 1; fi
data=$1; dir=$2
pydeid validate-data-dir "$data" >/dev/null
if [ "$lm" != general ] && [ ! -e "$lm" ]; then echo "$0: no such language model: $lm" >&2; exit 1; fi
lmfile=; [ "$lm" != general ] && lmfile=$lm; [ -d "$lm" ] && lmfile=$lm/lm.arpa
if [ -s "$dir/text" ] && [ -f "$dir/decode_pocketsphinx.json" ] && [ "$dir/text" -nt "$data/wav.scp" ] \
   && [ "$dir/text" -nt "$data/text" ] && { [ -z "$lmfile" ] || [ "$dir/text" -nt "$lmfile" ]; } \
   && grep -q "\"lm\": \"$lm\"" "$dir/decode_pocketsphinx.json"; then
  echo "$0: $dir is current; kept"; exit 0
fi
opts=(--lm "$(printf '%q' "$lm")")
[ -n "$lw" ] && opts+=(--lw "$lw")
utils/split_decode.sh --nj "$nj" --cmd "$cmd" --log-name decode --what "$0: decoding" \
  decode-pocketsphinx "$data" "$dir" "${opts[@]}"
