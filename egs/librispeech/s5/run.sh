#!/usr/bin/env bash
# LibriSpeech recipe: de-identify LibriSpeech and measure utility (ASR WER) and privacy (x-vector EER).
#
#   ./run.sh [--stage N] [--stop-stage M] [--download true] [--corpus-root DIR] [--nj N] ...
#
# Stages (each idempotent: a finished stage is skipped or resumes; --stage/--stop-stage select a range):
#   0  download the LibriSpeech parts from openslr.org (only with --download true; needs network)
#   1  data prep: data/<set> for the ASR/attacker training sets and data/<set>{,_enroll,_trial} for dev/test
#      (SPEAKERS.TXT genders, flac wav.scp, utt2dur; trials from `pydeid make-trials`)
# CI runs stage 1 on ../shared/data/librispeech_mini:
#   ./run.sh --stage 1 --stop-stage 1 --corpus-root "$LIBRISPEECH_MINI" --asr-train-set dev-clean-2 \
#     --xvector-train-set dev-clean-2 --dev-set dev-clean-2 --test-set dev-clean-2 --num-enroll 1
set -euo pipefail

stage=0
stop_stage=100
download=false
corpus_root=                       # default: $LIBRISPEECH from db.sh
url=https://www.openslr.org/resources/12
asr_train_set=train-clean-100      # ESPnet ASR training (original and neutral)
xvector_train_set=train-clean-360  # x-vector attacker training
dev_set=dev-clean
test_set=test-clean
num_enroll=3                       # enrollment utterances per dev/test speaker (the rest are trial utterances)
nj=8
seed=0

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--download true] [--corpus-root DIR] [--asr-train-set S] ...
(see the header of $0)"
. utils/parse_options.sh
corpus_root=${corpus_root:-$LIBRISPEECH}

log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') (run.sh:${BASH_LINENO[0]}) $*"; }
dname() { echo "data/${1//-/_}"; }   # train-clean-100 -> data/train_clean_100

train_sets=$(printf '%s\n' "$asr_train_set" "$xvector_train_set" | awk 'NF && !seen[$0]++')
eval_sets=$(printf '%s\n' "$dev_set" "$test_set" | awk 'NF && !seen[$0]++')

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  if $download; then
    log "stage 0: downloading LibriSpeech parts into $corpus_root"
    for part in $(printf '%s\n' $train_sets $eval_sets | awk '!seen[$0]++'); do
      local/librispeech/download_and_untar.sh "$corpus_root" "$url" "$part"
    done
    corpus_root=$corpus_root/LibriSpeech
  else
    log "stage 0: skipped (no --download true); using the corpus at $corpus_root"
  fi
fi
[ -d "$corpus_root/LibriSpeech" ] && [ ! -f "$corpus_root/SPEAKERS.TXT" ] && corpus_root=$corpus_root/LibriSpeech

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: data preparation from $corpus_root"
  for part in $train_sets; do
    local/librispeech/data_prep.sh "$corpus_root" "$part" "$(dname "$part")"
  done
  for part in $eval_sets; do
    local/librispeech/data_prep.sh --enroll-trial true --num-enroll "$num_enroll" --seed "$seed" \
      "$corpus_root" "$part" "$(dname "$part")"
  done
fi
log "done (stages $stage..$stop_stage)"
