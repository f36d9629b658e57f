#!/usr/bin/env bash
# One x-vector attack on (transformed) speech: train the attacker (or take a given model), embed its training,
# enrollment and trial data, score the trials with cosine and PLDA, and write every privacy metric
# (EER, minDCF, linkability, closed-set ACC, pitch correlation), DET curves and metrics.json to <exp-dir>/scores.
#
# Usage: steps/attack.sh --scenario <name> [options] <train-data> <enroll-data> <trial-data> <exp-dir>
#
# The scenario names which data dirs the attacker holds (pydeid/attack/scenarios.py; seed 004 section 4.1.2);
# the trial data is always the published (converted) trial set with its trials file, and every converted
# enrollment or training set is the attacker's own conversion of ORIGINAL audio, never part of the published set:
#   original             train, enroll and trial data are original speech (baseline, seed table 2)
#   ignorant             train + enroll original                                      (seed scenario 1, table 3)
#   lazy-informed        train original; enroll = original enrollment audio converted with the same method and
#                        parameters, the attacker's own seed                     (VoicePrivacy Challenge)
#   semi-informed        train = ALL the original training utterances, enroll = the original enrollment audio,
#                        both converted with the same method and parameters, the attacker's own seed (not the
#                        publisher's)                     (VoicePrivacy Challenge 2024; seed scenario 2, table 4)
#   parameter-shifted    like semi-informed with other parameter values, own seed      (seed scenario 3)
#   informed-same-draws  like semi-informed with the publisher's seed: knows the secret draws (extra row)
#   informed             former name of semi-informed, still accepted (recorded as semi-informed)
# The ignorant attacker is the same for every method: train it once (steps/train_xvector.sh) and pass it
# with --model; embeddings of its training and enrollment data are then cached in <model>/xvectors_<name>.
#
# Options:
#   --scenario ""                     one of the names above (required)
#   --method none                     label of the voice transformation (none, voicemask, vtln, mcadams ...)
#   --strategy -                      label of its target-selection strategy (1, 2, 3 or -)
#   --model ""                        pretrained attacker model dir; empty: train one in <exp-dir>/xvector_nnet
#   --xvector-config conf/xvector/xvector.yaml  --seed 0  --epochs ""   (training, see steps/train_xvector.sh)
#   --vad ""                          front-end of training, enrollment and trial audio: energy (Kaldi compute-vad,
#                                     the configs' default) or none; a --model keeps its own (it must match)
#   --trials ""                       trials file (default <trial-data>/trials)
#   --orig-trial ""                   original trial data dir: adds the pitch correlation original vs transformed
#                                     and the gain of voice distinctiveness G_VD (its embeddings by this attacker)
#   --pitch-cache ""                  JSON file keeping that correlation for the other attacks on the same
#                                     trial audio (recomputed when the audio changed)
#   --backends cosine,plda              comma-separated: cosine, lda (LDA + whitening + cosine), plda
#   --nj 1  --num-threads ""  --cmd "$train_cmd"
set -euo pipefail

scenario=
method=none
strategy=-
model=
xvector_config=conf/xvector/xvector.yaml
seed=0
epochs=
vad=
trials=
orig_trial=
pitch_cache=
backends=cosine,plda
nj=1
num_threads=
cmd=${train_cmd:-run.pl}
names="original, ignorant, lazy-informed, semi-informed, parameter-shifted, informed-same-draws"
help_message="Usage: $0 --scenario <$names> [options] <train-data> <enroll-data> <trial-data> <exp-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
train=$1
enroll=$2
trial=$3
dir=$4

case "$scenario" in
  original|ignorant|lazy-informed|semi-informed|parameter-shifted|informed-same-draws) ;;
  informed) echo "$0: scenario 'informed' is now named 'semi-informed' (recorded so)" >&2; scenario=semi-informed ;;
  "") echo "$0: --scenario is required ($names)" >&2; exit 1 ;;
  *) echo "$0: unknown scenario '$scenario' ($names)" >&2; exit 1 ;;
esac
case "$vad" in ""|energy|none) ;; *) echo "$0: unknown --vad '$vad' (energy, none)" >&2; exit 1 ;; esac
[ -n "$trials" ] || trials=$trial/trials
[ -f "$trials" ] || { echo "$0: no trials file $trials (make one with pydeid make-trials)" >&2; exit 1; }
for d in "$train" "$enroll" "$trial" ${orig_trial:+"$orig_trial"}; do
  pydeid validate-data-dir "$d" >/dev/null
done
if [ "$scenario" = ignorant ] && [ "$(cd "$enroll" && pwd -P)" = "$(cd "$trial" && pwd -P)" ]; then
  echo "$0: enrollment and trial data are the same directory" >&2; exit 1
fi

mkdir -p "$dir"
threads=()
[ -n "$num_threads" ] && threads=(--num-threads "$num_threads")
train_part=()
if [ -z "$model" ]; then
  model=$dir/xvector_nnet
  if [ "$nj" -gt 1 ]; then
    topts=(--xvector-config "$xvector_config" --seed "$seed" --cmd "$cmd" "${threads[@]}")
    [ -n "$epochs" ] && topts+=(--epochs "$epochs")
    [ -n "$vad" ] && topts+=(--vad "$vad")
    steps/train_xvector.sh "${topts[@]}" "$train" "$model"
  elif [ ! -f "$model/embedding_model.ckpt" ]; then
    # --nj 1: trained in the same job as the embedding and scoring below (what steps/train_xvector.sh runs)
    [ -f "$xvector_config" ] || { echo "$0: no such config: $xvector_config" >&2; exit 1; }
    train_part=(train-xvector --config "$xvector_config" --seed "$seed" "${threads[@]}")
    [ -n "$epochs" ] && train_part+=(--epochs "$epochs")
    [ -n "$vad" ] && train_part+=(--vad "$vad")
    train_part+=("$train" "$model" :::)
  fi
  train_xv=$dir/xvectors_train
  enroll_xv=$dir/xvectors_enroll
else
  [ -f "$model/embedding_model.ckpt" ] || { echo "$0: --model $model holds no embedding_model.ckpt" >&2; exit 1; }
  if [ -n "$vad" ]; then
    mvad=$(awk '$1 == "vad:" {print $2}' "$model/config.yaml"); mvad=${mvad:-energy}
    [ "$mvad" = "$vad" ] || { echo "$0: --vad $vad but --model $model was trained with vad: $mvad" >&2; exit 1; }
  fi
  # a shared (e.g. ignorant) attacker: cache the embeddings of its data next to it
  train_xv=$model/xvectors_$(basename "$train")
  enroll_xv=$model/xvectors_$(basename "$enroll")
fi
trial_xv=$dir/xvectors_trial
# a shared attacker embeds a transformed trial set once for every scenario that scores it (ignorant and
# lazy-informed share the trials); the embedding dirs are locked while written (attacks run side by side)
[ "$model" = "$dir/xvector_nnet" ] || trial_xv=$model/xvectors_$(basename "$trial")
orig_sets=()
if [ -n "$orig_trial" ]; then   # G_VD: the original trial audio through the same attacker
  if [ "$model" = "$dir/xvector_nnet" ]; then orig_xv=$dir/xvectors_orig_trial   # its own model
  else orig_xv=$model/xvectors_$(basename "$orig_trial"); fi
  orig_sets=("$orig_trial" "$orig_xv")
fi
if [ "$nj" -gt 1 ]; then   # (--nj 1: below, in the scoring job)
  eopts=(--nj "$nj" --cmd "$cmd" "${threads[@]}")
  steps/extract_xvectors.sh "${eopts[@]}" "$model" "$train" "$train_xv"
  steps/extract_xvectors.sh "${eopts[@]}" "$model" "$enroll" "$enroll_xv"
  steps/extract_xvectors.sh "${eopts[@]}" "$model" "$trial" "$trial_xv"
  [ -z "$orig_trial" ] || steps/extract_xvectors.sh "${eopts[@]}" "$model" "$orig_trial" "$orig_xv"
fi

sopts=(--scenario "$scenario" --method "$method" --strategy "$strategy" --backends "$backends" --trials "$trials")
[ -n "$orig_trial" ] && sopts+=(--orig-trial "$orig_trial" --orig-trial-xvectors "$orig_xv")
[ -n "$pitch_cache" ] && sopts+=(--pitch-cache "$pitch_cache")
score=(score-trials "${sopts[@]}" "$train_xv" "$enroll" "$enroll_xv" "$trial" "$trial_xv" "$dir/scores")
mkdir -p "$dir/log"
if [ "$nj" -gt 1 ]; then
  $cmd "$dir/log/score.log" pydeid "${score[@]}" || { utils/job_failed.sh "$0: scoring failed" "$dir/log/score.log"; exit 1; }
else
  # one job embeds the three sets (what steps/extract_xvectors.sh --nj 1 writes; sets already done are skipped)
  # and scores them: importing torch and speechbrain once takes longer than embedding and scoring small sets
  sets=("$train" "$train_xv" "$enroll" "$enroll_xv" "$trial" "$trial_xv" "${orig_sets[@]}")
  echo "$0: ${train_part:+training $model, }embedding $train, $enroll and $trial, scoring (log: $dir/log/score.log)"
  $cmd --num-threads "${num_threads:-1}" "$dir/log/score.log" pydeid chain "${train_part[@]}" \
    extract-xvectors --job 1 --num-threads "${num_threads:-1}" "$model" "${sets[@]}" ::: \
    extract-xvectors --finalize 1 "$model" "${sets[@]}" ::: "${score[@]}" || {
    utils/job_failed.sh "$0: embedding or scoring failed" "$dir/log/score.log"; exit 1; }
fi
if [ "$model" = "$dir/xvector_nnet" ]; then
  # the model trained here is reused by other attacks (--model: a variant enrolled on other data): they find its
  # embeddings of the same sets where a shared model keeps them, <model>/xvectors_<data name>
  for pair in "$train:xvectors_train" "$trial:xvectors_trial" ${orig_trial:+"$orig_trial:xvectors_orig_trial"}; do
    link=$model/xvectors_$(basename "${pair%:*}")
    [ -e "$link" ] || [ -L "$link" ] || ln -s "../${pair##*:}" "$link"
  done
fi
grep -E "^$dir/scores .* pooled:" "$dir/log/score.log" || true
echo "$0: done: $dir/scores/metrics.json (tables: pydeid attack-table --results RESULTS.md <score-dirs>)"
