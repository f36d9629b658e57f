#!/usr/bin/env bash
# Seed 004 section 3.2.1 / table 1: train the speaker-adversarial ASR model for several gradient-reversal weights
# alpha (alpha 0 = the plain ASR encoder with a passive speaker branch), decode and score the test set with each,
# then measure the speaker information left in the encoder representations (closed-set probe ACC on the
# training speakers, verification EER on the enroll/trial split) next to the filterbank input.
#
# Usage: steps/train_asr_adversarial.sh [options] <train> <valid> <test> <enroll> <trial> <exp-prefix>
#   --alphas "0 0.5 2.0"
#   --asr-config conf/asr/small.yaml
#   --max-epoch ""          override the config's max_epoch
#   --ngpu 0
#   --ctc-weight ""         decoding CTC weight (default: the tier's conf/asr/<tier>_decode.yaml)
#   --train-jobs 1          trainings side by side (e.g. 2 on 2 cores: alphas 0.5 and 2.0 together)
#   --nj 1                  decoding: models decode side by side, one job each, --nj at a time (a decoding job
#                           spends ~8 s loading ESPnet; a model already decoded with the same options is kept)
#   --probe-threads 1       torch threads of the speaker probe (it runs alone, after the decodings)
#   --lm-exp ""             decode with this token LM (steps/train_lm.sh; same training text, same tokens)
#   --baseline-exp ""       a plain model of the same data and config (steps/train_asr.sh) serves as phi_0
#                           instead of training alpha 0: with alpha 0 the reversed gradient is zero, so the
#                           encoder trains exactly as the plain model's (the passive branch is only a probe)
#   --cmd "$cuda_cmd"       training jobs;  --decode-cmd "$decode_cmd"  decoding jobs
#   --results ""            RESULTS.md to receive the table (default <exp-prefix>_adv_RESULTS.md)
# Output: <exp-prefix>_adv<alpha>/ (ESPnet exp dirs with decode_<test>/), <exp-prefix>_adv_table1.md
set -euo pipefail

alphas="0 0.5 2.0"
asr_config=conf/asr/small.yaml
max_epoch=
ngpu=0
ctc_weight=
train_jobs=1
nj=1
probe_threads=1
lm_exp=
baseline_exp=
cmd=${cuda_cmd:-run.pl}
decode_cmd=${decode_cmd:-run.pl}
results=
help_message="Usage: $0 [options] <train> <valid> <test> <enroll> <trial> <exp-prefix>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 6 ]; then
  echo "$help_message" >&2
  exit 1
fi
train=$1; valid=$2; test=$3; enroll=$4; trial=$5; prefix=$6
[ -f "$trial/trials" ] || { echo "$0: missing $trial/trials" >&2; exit 1; }
[ -n "$results" ] || results=${prefix}_adv_RESULTS.md
name=decode_$(basename "$test")

is_zero() { [ "$(awk -v a="$1" 'BEGIN{print (a + 0 == 0)}')" = 1 ]; }
exp_of() { if [ -n "$baseline_exp" ] && is_zero "$1"; then echo "$baseline_exp"; else echo "${prefix}_adv$1"; fi; }

# training: up to --train-jobs models side by side (one thread each with OMP_NUM_THREADS=1, see path.sh)
pids=()
for a in $alphas; do
  exp=$(exp_of "$a")
  if [ "$exp" = "$baseline_exp" ]; then
    [ -f "$exp/config.yaml" ] || { echo "$0: --baseline-exp $exp holds no config.yaml" >&2; exit 1; }
    continue
  fi
  opts=(--asr-config "$asr_config" --adv-alpha "$a" --ngpu "$ngpu" --cmd "$cmd")
  [ -n "$max_epoch" ] && opts+=(--max-epoch "$max_epoch")
  steps/train_asr.sh "${opts[@]}" "$train" "$valid" "$exp" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$train_jobs" ]; then
    wait "${pids[0]}" || { wait; echo "$0: training of ${pids[0]} failed" >&2; exit 1; }
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || { wait; utils/job_failed.sh "$0: an adversarial training failed" "${prefix}"_adv*/log/train.log; exit 1; }
done

dopts=(--cmd "$decode_cmd" --ngpu "$ngpu" --ctm false --nj 1)
[ -n "$ctc_weight" ] && dopts+=(--ctc-weight "$ctc_weight")
[ -n "$lm_exp" ] && dopts+=(--lm-exp "$lm_exp")
models=()
for a in $alphas; do
  exp=$(exp_of "$a")
  while [ "$(jobs -rp | wc -l)" -ge "$nj" ]; do sleep 1; done
  steps/decode_asr.sh "${dopts[@]}" "$exp" "$test" "$exp/$name" &
  models+=(--model "phi_$a=$exp")
done
failed=0
for pid in $(jobs -p); do wait "$pid" || failed=1; done
[ $failed -eq 0 ] || { utils/job_failed.sh "$0: a decoding failed" "${prefix}"_adv*/"$name"/log/decode.1.log; exit 1; }
for a in $alphas; do
  exp=$(exp_of "$a")
  steps/score.sh "$test" "$exp/$name"
done
mkdir -p "$(dirname "$prefix")/log"
$cmd --num-threads "$probe_threads" "$(dirname "$prefix")/log/asr_speaker_probe.log" \
  pydeid asr-speaker-probe --num-threads "$probe_threads" "${models[@]}" --probe-data "$train" \
  --enroll "$enroll" --trial "$trial" --decode-name "$name" --out "${prefix}_adv_table1.md" --results "$results"
cat "${prefix}_adv_table1.md"
