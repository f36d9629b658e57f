#!/usr/bin/env bash
# egs/mini/s5: the embedded recipe (`make demo`). Synthetic VerbMobil-style dialogues -> neutral corpus -> utility
# (ESPnet WER) and privacy (x-vector EER). Runs end to end on a laptop CPU; every stage is idempotent and can be
# restarted with --stage / --stop-stage. Results: RESULTS.md (one section per stage) and exp/.
set -euo pipefail

stage=0
stop_stage=100
seed=0
size=default   # corpus size: tiny | default (see local/mini/prepare_data.sh for finer options)
nj=2

. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--seed 0] [--size tiny|default] [--nj 2]"
. utils/parse_options.sh

log() { echo -e "$(date '+%Y-%m-%dT%H:%M:%S') ($(basename "$0"):${BASH_LINENO[0]}) $*"; }
results=RESULTS.md

if [ "$stage" -le 0 ] && [ "$stop_stage" -ge 0 ]; then
  log "stage 0: synthesize the mini corpus (espeak-ng dialogues, gold tags and word timings)"
  local/mini/prepare_data.sh --seed "$seed" --size "$size" --nj "$nj" data
fi

log "done: see $results"
