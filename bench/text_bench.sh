#!/usr/bin/env bash
# Text stage throughput: detection + replacement (sentences/s) and SanText sampling (tokens/s).
# Run from the repository root: bash bench/text_bench.sh [work-dir]. Trains a small tagger (conf/text/ner_cpu.yaml,
# ~5 min on a busy 2-core machine) on the mini corpus so the flair detector is measured too.
# Writes bench/results/text.md.
set -euo pipefail
. ./path.sh
work=${1:-/tmp/pydeid_bench_text}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
mkdir -p "$work"
python -c "from pydeid.corpora.mini import build_corpus; build_corpus('$work/mini', seed=0, size='default')"
if [ ! -f "$work/ner/tagger.pt" ]; then
  steps/train_ner.sh --ner-config conf/text/ner_cpu.yaml "$work/mini/mini_train" "$work/mini/mini_dev" "$work/ner"
fi
python bench/text_bench.py --model "$work/ner" --work "$work" --out bench/results/text.md
