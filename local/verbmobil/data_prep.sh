#!/usr/bin/env bash
# VerbMobil (BAS edition, English turns of VM1 CDs 6, 8, 13 and VM2 CDs 23, 28, 31, 32, 42, 43, 47, 50, 51, 52,
# 55, 56) -> data/train, data/dev, data/test with the speaker-id fixes, split rules and WER subsets of seed 004
# appendix A.3 (see pydeid/corpora/verbmobil/). Files are found by a recursive walk of the roots.
#   local/verbmobil/data_prep.sh [--markers keep|drop] [--case keep|upper|lower] [--text-source auto|par|trl]
#        [--skip-malformed false] [--dialogue-volumes FILE] [--native-table FILE]
#        [--enroll-trial true --num-enroll 3 --seed 0] <data-dir> <corpus-root>...
# Writes <data-dir>/{train,dev,test} and <data-dir>/local/verbmobil/{report.txt,turns.tsv,...}; with
# --enroll-trial true also <data-dir>/{dev,test}_{enroll,trial} (trials from `pydeid make-trials`).
# Idempotent: skipped when the outputs validate and report.txt exists (delete them to redo).
set -euo pipefail
markers=keep
case=keep
letters=lower
text_source=auto
skip_malformed=false
dialogue_volumes=
native_table=
enroll_trial=false
num_enroll=3
seed=0
help_message="Usage: $0 [options] <data-dir> <corpus-root> [<corpus-root>...]"
. utils/parse_options.sh
if [ $# -lt 2 ]; then echo "$help_message" >&2; exit 1; fi
data=$1; shift

done_all=true
for s in train dev test; do
  utils/validate_data_dir.sh "$data/$s" >/dev/null 2>&1 || done_all=false
done
if $done_all && [ -s "$data/local/verbmobil/report.txt" ]; then
  echo "$0: $data/{train,dev,test} exist and validate; skipping"
else
  opts=(--markers "$markers" --case "$case" --letters "$letters" --text-source "$text_source"
        --skip-malformed "$skip_malformed")
  [ -n "$dialogue_volumes" ] && opts+=(--dialogue-volumes "$dialogue_volumes")
  [ -n "$native_table" ] && opts+=(--native-table "$native_table")
  pydeid prepare-verbmobil "${opts[@]}" "$data" "$@"
  for s in train dev test; do
    if [ -d "$data/$s" ]; then utils/validate_data_dir.sh --check-audio "$data/$s"; fi
  done
  echo "$0: report in $data/local/verbmobil/report.txt"
fi
if $enroll_trial; then
  for s in dev test; do
    [ -d "$data/$s" ] || continue
    if [ -s "$data/${s}_trial/trials" ] && utils/validate_data_dir.sh "$data/${s}_trial" >/dev/null 2>&1 \
        && utils/validate_data_dir.sh "$data/${s}_enroll" >/dev/null 2>&1; then
      echo "$0: $data/${s}_enroll and $data/${s}_trial exist; skipping"
    else
      pydeid make-trials --num-enroll "$num_enroll" --seed "$seed" "$data/$s" "$data/${s}_enroll" "$data/${s}_trial"
    fi
  done
fi
