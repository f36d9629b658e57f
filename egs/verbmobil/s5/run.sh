#!/usr/bin/env bash
# VerbMobil recipe (English VM1/VM2 dialogues, BAS edition; seed 004 section 5 and appendix A.3): de-identify
# the dialogues and measure utility (ASR WER, also per A.3 subset) and privacy (x-vector EER).
#
#   ./run.sh [--stage N] [--stop-stage M] [--corpus-roots "DIR ..."] [--markers drop|keep] [--nj N] ...
#
# Stages (each idempotent; --stage/--stop-stage select a range):
#   0  data prep: data/{train,dev,test} with the A.3 speaker-id fixes, train/dev/test rules and WER subsets
#      (utt2subset, spk2subset), data/local/verbmobil/report.txt listing every skipped or excluded turn;
#      dev/test enrollment and trial lists (data/{dev,test}_{enroll,trial}, `pydeid make-trials`)
set -euo pipefail

stage=0
stop_stage=100
corpus_roots=            # default: $VERBMOBIL from db.sh
markers=drop             # drop: words only in text (what the aligner/tagger/ASR stages expect);
                         # keep: <hes> <noise> <laugh> <unk> tokens (Kaldi style, non_linguistic_symbols.txt)
case=keep
text_source=auto         # ORT tier of the .par files, else the .trl transliteration
skip_malformed=false     # true: skip and report malformed .par/.trl instead of stopping at file:line
dialogue_volumes=        # table '<dialogue> <CD>' when the corpus paths carry no VM<n>.x folder names
native_table=            # table '<speaker> en|de|other' for the EN/DE subsets (else from spr files)
num_enroll=3
nj=8
seed=0

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--corpus-roots \"DIR ...\"] [--markers drop|keep] ...
(see the header of $0)"
. utils/parse_options.sh
corpus_roots=${corpus_roots:-$VERBMOBIL}

log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') (run.sh:${BASH_LINENO[0]}) $*"; }

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  if [ -z "$corpus_roots" ]; then
    echo "$0: set VERBMOBIL in db.sh or pass --corpus-roots (the BAS volumes of the English dialogues)" >&2
    exit 1
  fi
  log "stage 0: data preparation from $corpus_roots"
  opts=(--markers "$markers" --case "$case" --text-source "$text_source" --skip-malformed "$skip_malformed"
        --enroll-trial true --num-enroll "$num_enroll" --seed "$seed")
  [ -n "$dialogue_volumes" ] && opts+=(--dialogue-volumes "$dialogue_volumes")
  [ -n "$native_table" ] && opts+=(--native-table "$native_table")
  # shellcheck disable=SC2086
  local/verbmobil/data_prep.sh "${opts[@]}" data $corpus_roots
fi
log "done (stages $stage..$stop_stage)"
