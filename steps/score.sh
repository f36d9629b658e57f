#!/usr/bin/env bash
# Score ASR hypotheses (<decode-dir>/text from steps/decode_asr.sh) against <data>/text: WER and CER overall,
# per gender and per optional subset (jiwer; references normalised like the model's training text).
# Writes <decode-dir>/scoring/{per_utt,results.json,result.md} and a section of RESULTS.md.
#
# Usage: steps/score.sh [options] <data> <decode-dir>
#   --subsets ""    utt2subset or spk2subset file: "<utt-or-speaker> <label> [<label> ...]" (seed 004 A.3 columns)
#   --results ""    RESULTS.md to update (default <decode-dir>/../RESULTS.md, i.e. the exp dir's)
#   --title ""      section title
set -euo pipefail

subsets=
results=
title=
help_message="Usage: $0 [options] <data> <decode-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 2 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
dir=$2
[ -f "$dir/text" ] || { echo "$0: missing $dir/text (run steps/decode_asr.sh first)" >&2; exit 1; }
opts=()
[ -n "$subsets" ] && opts+=(--subsets "$subsets")
[ -n "$results" ] && opts+=(--results "$results")
[ -n "$title" ] && opts+=(--title "$title")
pydeid asr-score "${opts[@]}" "$data" "$dir" | tee "$dir/scoring.log"
