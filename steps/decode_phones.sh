#!/usr/bin/env bash
# Phone-loop decoding of a data dir with the pretrained pocketsphinx en-us acoustic model and the wheel's phonetic
# 3-gram (no words), scored as phone error rate (PER) against the CMU-dictionary pronunciation of <data>/text:
# the utility meter that still separates conversions where the word WER of a weak recogniser saturates
# (docs/utility_meters.md).
#
# Usage: steps/decode_phones.sh [options] <data> <decode-dir>
#   --lw 4.0      language weight of the phonetic LM (4: the best of 1-10 on train speakers)
#   --nj 1  --cmd "$decode_cmd"   (whole speakers per job)
# Writes <decode-dir>/text (phones), decode_phones.json (audio and CPU seconds, RTF), log/, and
# scoring_phones/{ref_phones,per_utt.txt,per_utt.json,results.json}. Resumable: a decode dir whose text is newer
# than the data is rescored only; an interrupted job goes on from its last decoded utterance.
set -euo pipefail
lw=4.0
nj=1
cmd=${decode_cmd:-run.pl}
help_message="Usage: $0 [--lw W] [--nj N] [--cmd CMD] <data> <decode-dir>"
. utils/parse_options.sh
if [ $# -ne 2 ]; then echo "$help_message" >&2; exit 1; fi
data=$1; dir=$2
pydeid validate-data-dir "$data" >/dev/null
case $nj in ''|*[!0-9]*|0) echo "$0: --nj must be a positive whole number, not '$nj'" >&2; exit 1 ;; esac
[ -s "$data/text" ] || { echo "$0: $data/text: missing or empty (PER needs the transcripts)" >&2; exit 1; }
if [ -s "$dir/text" ] && [ -f "$dir/decode_phones.json" ] && [ "$dir/text" -nt "$data/wav.scp" ] \
   && awk -v lw="$lw" '/"lw":/ {gsub(/[",]/, "", $2); found = ($2 + 0 == lw + 0)} END {exit !found}' \
        "$dir/decode_phones.json"; then
  echo "$0: $dir is current; rescored"
else
  utils/split_decode.sh --nj "$nj" --cmd "$cmd" --log-name decode_phones --what "$0: phone decoding" \
    decode-phones "$data" "$dir" --lw "$lw"
fi
mkdir -p "$dir/log"
pydeid score-phones "$data" "$dir" | tee "$dir/log/score_phones.log"
