#!/usr/bin/env bash
# Detect sensitive spans in a data dir's text: the trained flair tagger, the number/date/time/e-mail grammars,
# the capitalisation heuristic and (when installed) spaCy, combined by union; each span records its detector(s).
#
# Usage: steps/tag_entities.sh [options] <data> <model-dir|-> <out-dir>
#   <model-dir>: from steps/train_ner.sh ("-": no flair detector, e.g. --detectors grammar,capitalisation)
#   <out-dir>/tags.conll: token, BIO tag, detectors; if <data>/tags.conll exists (gold), exact/partial P/R/F1
#   are written to <out-dir>/metrics.txt
# Options:
#   --detectors flair,grammar   --detect-config conf/text/detect.yaml   --combine ""  (union | priority)
#   --lowercase-input false     tag lower-cased text (simulates ASR output)
#   --nj 1  --cmd "$decode_cmd"
set -euo pipefail

detectors=flair,grammar
detect_config=conf/text/detect.yaml
combine=
lowercase_input=false
nj=1
cmd=${decode_cmd:-${train_cmd:-run.pl}}
help_message="Usage: $0 [options] <data> <model-dir|-> <out-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
model=$2
dir=$3

pydeid validate-data-dir "$data" >/dev/null
if [[ ",$detectors," == *",flair,"* ]]; then
  [ "$model" != - ] && [ -f "$model/tagger.pt" ] || { echo "$0: detector flair needs a model dir with tagger.pt (got '$model')" >&2; exit 1; }
fi
opts=(--detectors "$detectors" --config "$detect_config")
[ "$model" != - ] && opts+=(--model "$model")
[ -n "$combine" ] && opts+=(--combine "$combine")
[ "$lowercase_input" = true ] && opts+=(--lowercase-input)

mkdir -p "$dir/log"
tmp=$(mktemp -d "$dir/.tag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "$nj" -gt 1 ]; then
  utils/split_data.sh "$data" "$nj" >/dev/null
  $cmd JOB=1:$nj "$dir/log/tag.JOB.log" pydeid tag-entities "${opts[@]}" "$data/split$nj/JOB" "$tmp/tags.JOB.conll" \
    || { echo "$0: tagging failed, see $dir/log/tag.*.log" >&2; exit 1; }
  for n in $(seq "$nj"); do cat "$tmp/tags.$n.conll"; done > "$tmp/tags.conll"
else
  $cmd "$dir/log/tag.1.log" pydeid tag-entities "${opts[@]}" "$data" "$tmp/tags.conll" \
    || { echo "$0: tagging failed, see $dir/log/tag.1.log" >&2; exit 1; }
fi
mv "$tmp/tags.conll" "$dir/tags.conll"
if [ -f "$data/tags.conll" ]; then
  pydeid text-metrics --pred "$dir/tags.conll" --data "$data" "$data/tags.conll" > "$dir/metrics.txt"
  grep -E "^\| (ALL|ANY-TYPE) |all-or-nothing" "$dir/metrics.txt" || true
fi
echo "$0: done: $dir/tags.conll"
