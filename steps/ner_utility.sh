#!/usr/bin/env bash
# Utility of the text strategies (seeds 002 and 004 table 7): for each strategy, transform the training and dev
# sets (gold tags), train the tagger on them, test it on the ORIGINAL test set; cased/uncased x punct/nopunct
# (punct = written.conll when the data dirs have it, nopunct = the spoken tags.conll). Writes the Markdown table to
# the section text_ner_utility of --results and to <exp-dir>/utility.json. Resumable per cell.
#
# Usage: steps/ner_utility.sh [options] <train-data> <dev-data> <test-data> <exp-dir>
# Options:
#   --ner-config conf/text/ner_cpu.yaml   (conf/text/ner.yaml for the seed 004 setting)
#   --strategies none,placeholder,placeholder_entity,same_type,single_same_type,full_entity
#   --variants cased-punct,cased-nopunct,uncased-punct,uncased-nopunct
#   --p 1.0  --seed 0  --max-epochs ""  --results RESULTS.md  --cmd "$train_cmd"
#   --seeds ""    comma list of seeds (default: --seed alone); each cell runs once per seed and the tables give
#                 mean +- std with seed 002's protocol (M'(T'), M'(V'), M'(V), delta)
#   --nj 1        strategies split over nj jobs trained side by side (cells are independent); the table is
#                 then written from every cell by one last resumed call
#   --cells-only false   true: train and test the cells of --strategies and stop (no table; log
#                 <exp-dir>/log/cells.<strategies>.log), so a recipe can queue cells beside other jobs; a later
#                 call with every strategy finds them done and writes the table
set -euo pipefail

ner_config=conf/text/ner_cpu.yaml
strategies=none,placeholder,placeholder_entity,same_type,single_same_type,full_entity
variants=cased-punct,cased-nopunct,uncased-punct,uncased-nopunct
p=1.0
seed=0
seeds=
max_epochs=
results=RESULTS.md
nj=1
cells_only=false
cmd=${train_cmd:-run.pl}
help_message="Usage: $0 [options] <train-data> <dev-data> <test-data> <exp-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
train=$1
dev=$2
test=$3
dir=$4
for d in "$train" "$dev" "$test"; do
  [ -f "$d/tags.conll" ] || [ -f "$d" ] || { echo "$0: $d has no tags.conll" >&2; exit 1; }
done
opts=(--config "$ner_config" --variants "$variants" --p "$p" --seed "$seed")
[ -n "$max_epochs" ] && opts+=(--max-epochs "$max_epochs")
[ -n "$seeds" ] && opts+=(--seeds "$seeds")
mkdir -p "$dir/log"
if [ "$cells_only" = true ]; then
  log=$dir/log/cells.${strategies//,/_}.log
  $cmd "$log" pydeid ner-utility "${opts[@]}" --strategies "$strategies" --results "$dir/log/cells.${strategies//,/_}.md" \
    "$train" "$dev" "$test" "$dir" || { utils/job_failed.sh "$0: failed" "$log"; exit 1; }
  echo "$0: cells $strategies done in $dir"
  exit 0
fi
if [ "$nj" -gt 1 ]; then
  IFS=, read -ra all <<<"$strategies"
  pids=()
  for n in $(seq "$nj"); do
    lane=$(printf '%s\n' "${all[@]}" | awk -v n="$n" -v nj="$nj" '(NR - 1) % nj == n - 1' | paste -sd, -)
    [ -n "$lane" ] || continue
    $cmd "$dir/log/ner_utility.$n.log" pydeid ner-utility "${opts[@]}" --strategies "$lane" \
      --results "$dir/log/lane.$n.md" "$train" "$dev" "$test" "$dir" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || { wait; utils/job_failed.sh "$0: failed" "$dir/log"/ner_utility.*.log; exit 1; }
  done
fi
opts+=(--strategies "$strategies" --results "$results")
$cmd "$dir/log/ner_utility.log" pydeid ner-utility "${opts[@]}" "$train" "$dev" "$test" "$dir" \
  || { utils/job_failed.sh "$0: failed" "$dir/log/ner_utility.log"; exit 1; }
echo "$0: done: table in $results (section text_ner_utility) and $dir/utility.json"
