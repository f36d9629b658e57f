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
#   --cmd "$cuda_cmd"       training jobs;  --decode-cmd "$decode_cmd"  decoding jobs
#   --results ""            RESULTS.md to receive the table (default <exp-prefix>_adv_RESULTS.md)
# Output: <exp-prefix>_adv<alpha>/ (ESPnet exp dirs with decode_<test>/), <exp-prefix>_adv_table1.md
set -euo pipefail

alphas="0 0.5 2.0"
asr_config=conf/asr/small.yaml
max_epoch=
ngpu=0
ctc_weight=
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

models=()
for a in $alphas; do
  exp=${prefix}_adv$a
  opts=(--asr-config "$asr_config" --adv-alpha "$a" --ngpu "$ngpu" --cmd "$cmd")
  [ -n "$max_epoch" ] && opts+=(--max-epoch "$max_epoch")
  steps/train_asr.sh "${opts[@]}" "$train" "$valid" "$exp"
  dopts=(--cmd "$decode_cmd" --ngpu "$ngpu" --ctm false)
  [ -n "$ctc_weight" ] && dopts+=(--ctc-weight "$ctc_weight")
  steps/decode_asr.sh "${dopts[@]}" "$exp" "$test" "$exp/$name"
  steps/score.sh "$test" "$exp/$name"
  models+=(--model "phi_$a=$exp")
done
mkdir -p "$(dirname "$prefix")/log"
$cmd "$(dirname "$prefix")/log/asr_speaker_probe.log" pydeid asr-speaker-probe "${models[@]}" --probe-data "$train" \
  --enroll "$enroll" --trial "$trial" --decode-name "$name" --out "${prefix}_adv_table1.md" --results "$results"
cat "${prefix}_adv_table1.md"
