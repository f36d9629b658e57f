#!/usr/bin/env bash
# The attack tables of seed 004 (tables 2-4) on the embedded corpus: VoiceMask S3, VTLN S1/S2/S3 and McAdams,
# under the three attacker scenarios, with the recipe's own stage scripts (steps/transform_voice.sh for the
# voices, steps/train_xvector.sh + steps/attack.sh for the attackers, pydeid attack-table for RESULTS.md).
# Usage: bench/attack_scenarios.sh [--scenarios "ignorant lazy-informed semi-informed"] [--utts-per-spk 10]
#                                  [--nj 1] [work-dir]
# --utts-per-spk: training utterances per speaker of every attacker (the transformed attackers need their
#                 training data converted, which dominates the cost); 0 = all of mini_train.
# Output: <work-dir>/RESULTS.md (sections attack_original, attack_<scenario>), exp dirs with DET curves.
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
scenarios="ignorant lazy-informed semi-informed"
utts_per_spk=10
nj=1
help_message="Usage: $0 [--scenarios \"...\"] [--utts-per-spk N] [--nj N] [work-dir]"
. utils/parse_options.sh
work=${1:-/tmp/pydeid_bench_attack}
mkdir -p "$work"
work=$(cd "$work" && pwd -P)
export OMP_NUM_THREADS=1
c=$work/mini_default
python -c "from pydeid.corpora.mini import build_corpus; build_corpus('$c', seed=0, size='default')"
data=$work/data
mkdir -p "$data"
train=$c/mini_train
if [ "$utts_per_spk" -gt 0 ]; then
  train=$data/mini_train_sub
  [ -f "$train/utt2spk" ] || utils/subset_data_dir.sh --per-spk "$c/mini_train" "$utts_per_spk" "$train"
fi
conf=conf/xvector/mini.yaml
start=$(date +%s)
steps/train_xvector.sh --xvector-config $conf --num-threads 1 "$train" "$work/xvector_orig"
steps/attack.sh --scenario original --model "$work/xvector_orig" "$train" "$c/mini_test_enroll" \
  "$c/mini_test_trial" "$work/attack/original"

convert() {  # convert <method> <strategy> <seed> <in-data> <out-data>
  local m=$1 s=$2 seed=$3 in=$4 out=$5 opts=()
  [ -f "$out/utt2spk" ] && return 0
  [ "$m" = vtln ] && opts+=(--target-data "$c/mini_dev" --strategy "$s")
  steps/transform_voice.sh --nj "$nj" --method "$m" --seed "$seed" "${opts[@]}" "$in" \
    "$work/exp_voice/$(basename "$out")" "$out"
}

for ms in voicemask:3 vtln:1 vtln:2 vtln:3 mcadams:-; do
  m=${ms%%:*}; s=${ms#*:}; tag=${m}_s${s/-/x}
  convert "$m" "$s" 0 "$c/mini_test_trial" "$data/trial_$tag"     # the published (transformed) trial set
  [ -f "$data/trial_$tag/trials" ] || cp "$c/mini_test_trial/trials" "$data/trial_$tag/trials"
  for sc in $scenarios; do
    case $sc in
      ignorant)
        steps/attack.sh --scenario ignorant --method "$m" --strategy "$s" --model "$work/xvector_orig" \
          --orig-trial "$c/mini_test_trial" "$train" "$c/mini_test_enroll" "$data/trial_$tag" \
          "$work/attack/ignorant_$tag" ;;
      lazy-informed|semi-informed)
        seed=0; [ "$sc" = semi-informed ] && seed=1     # same seed = same parameters; another = redrawn
        convert "$m" "$s" $seed "$train" "$data/train_${tag}_seed$seed"
        convert "$m" "$s" $seed "$c/mini_test_enroll" "$data/enroll_${tag}_seed$seed"
        steps/attack.sh --scenario "$sc" --method "$m" --strategy "$s" --xvector-config $conf --num-threads 1 \
          --orig-trial "$c/mini_test_trial" "$data/train_${tag}_seed$seed" "$data/enroll_${tag}_seed$seed" \
          "$data/trial_$tag" "$work/attack/${sc}_$tag" ;;
      *) echo "$0: unknown scenario $sc" >&2; exit 1 ;;
    esac
  done
done
pydeid attack-table --results "$work/RESULTS.md" "$work"/attack/*/scores
echo "$0: done in $(( $(date +%s) - start )) s: $work/RESULTS.md"
