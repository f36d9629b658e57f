#!/usr/bin/env bash
# Detect sensitive spans in a data dir's text. Default detectors (no trained model needed): spaCy's pretrained NER,
# the number/date/time/e-mail grammars and the case-insensitive name/place gazetteer; the trained flair tagger
# joins when a model dir is given. Combined by union; each span records its detector(s). A detector that is asked
# for and cannot be loaded is an error. Text-only data dirs (text, no wav.scp) are accepted.
#
# Usage: steps/tag_entities.sh [options] <data> <model-dir|-> <out-dir>
#   <model-dir>: from steps/train_ner.sh, or "-" (no flair tagger: the default detectors only)
#   <out-dir>/tags.conll: token, BIO tag, detectors; if <data>/tags.conll exists (gold), exact/partial P/R/F1
#   are written to <out-dir>/metrics.txt
# Options:
#   --detectors ""  (default: spacy,grammar,gazetteer,cues,categories [+flair with a model]; also capitalisation)
#   --detect-config conf/text/detect.yaml   --combine ""  (union | priority)   --amounts false (tag AMOUNT too)
#   --lowercase-input false     tag lower-cased text (simulates ASR output)
#   --uncased-input false       the text has no case (all upper case): detect on it lower-cased, keep its tokens
#   --dialogue-context true     add the spans the dialogue shows (a number read out over several turns, the letters
#                               beside a spelled name, later mentions of a tagged name: detector 'dialogue'), so that
#                               masking silences those words too (dialogues: <data>/utt2dialogue, else the utterance
#                               id minus its speaker prefix and last '-' field)
#   --nj 1  --cmd "$decode_cmd"
set -euo pipefail

detectors=
detect_config=conf/text/detect.yaml
combine=
amounts=false
lowercase_input=false
uncased_input=false
dialogue_context=true
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

if [ -f "$data/wav.scp" ]; then
  pydeid validate-data-dir "$data" >/dev/null
else
  [ -s "$data/text" ] || { echo "$0: $data/text: missing or empty (a text-only data dir needs at least text)" >&2; exit 1; }
fi
if [[ ",$detectors," == *",flair,"* ]] || { [ -z "$detectors" ] && [ "$model" != - ]; }; then
  [ "$model" != - ] && [ -f "$model/tagger.pt" ] || { echo "$0: detector flair needs a model dir with tagger.pt (got '$model')" >&2; exit 1; }
fi
opts=(--config "$detect_config")
[ -n "$detectors" ] && opts+=(--detectors "$detectors")
[ "$amounts" = true ] && opts+=(--amounts)
[ "$model" != - ] && opts+=(--model "$model")
[ -n "$combine" ] && opts+=(--combine "$combine")
[ "$lowercase_input" = true ] && opts+=(--lowercase-input)
[ "$uncased_input" = true ] && opts+=(--uncased-input)
case $dialogue_context in true|false) ;; *) echo "$0: --dialogue-context must be true or false, not '$dialogue_context'" >&2; exit 1 ;; esac

mkdir -p "$dir/log"
tmp=$(mktemp -d "$dir/.tag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "$nj" -gt 1 ]; then
  utils/split_data.sh "$data" "$nj" >/dev/null
  # the jobs split a dialogue's speakers apart: its context is added once, over the merged tags
  $cmd JOB=1:$nj "$dir/log/tag.JOB.log" pydeid tag-entities "${opts[@]}" --dialogue-context false \
    "$data/split$nj/JOB" "$tmp/tags.JOB.conll" \
    || { utils/job_failed.sh "$0: tagging failed" "$dir/log"/tag.*.log; exit 1; }
  for n in $(seq "$nj"); do cat "$tmp/tags.$n.conll"; done > "$tmp/tags.split.conll"
  if [ "$dialogue_context" = true ]; then
    dc_opts=(); [ "$uncased_input" = true ] && dc_opts+=(--uncased-input)
    pydeid dialogue-context "${dc_opts[@]}" "$data" "$tmp/tags.split.conll" "$tmp/tags.conll" >"$dir/log/dialogue_context.log" \
      || { echo "$0: dialogue context failed: $(tail -1 "$dir/log/dialogue_context.log")" >&2; exit 1; }
  else
    mv "$tmp/tags.split.conll" "$tmp/tags.conll"
  fi
else
  $cmd "$dir/log/tag.1.log" pydeid tag-entities "${opts[@]}" --dialogue-context "$dialogue_context" "$data" "$tmp/tags.conll" \
    || { utils/job_failed.sh "$0: tagging failed" "$dir/log/tag.1.log"; exit 1; }
fi
mv "$tmp/tags.conll" "$dir/tags.conll"
if [ -f "$data/tags.conll" ]; then
  pydeid text-metrics --pred "$dir/tags.conll" --data "$data" "$data/tags.conll" > "$dir/metrics.txt"
  grep -E "^\| (ALL|ANY-TYPE) |all-or-nothing" "$dir/metrics.txt" || true
fi
echo "$0: done: $dir/tags.conll"
