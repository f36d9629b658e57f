#!/usr/bin/env bash
# Quick dev screen of one frame-selection config (bench/results/voice_frame_select.md, "Dev screen"): the dev
# trials converted by the publisher (seed 11) and the dev enrolment by the attacker (seed 22), GE2E cosine with the
# converted enrolment and with the original one (ignorant). [pool]: a frame_pool.npz built for the config's content
# (default: built by the first conversion, reused by the second).
#   bench/voice_frame_select_quick.sh <work> <name> <config> [pool]   (after bench/voice_frame_select.py split)
set -euo pipefail
W=$1 name=$2 conf=$3 pool=${4:-}
[ -s $W/dev_utt2spk ] || cat $W/dev_{train,enroll,trial}/utt2spk | sort -u > $W/dev_utt2spk
for spec in "11 dev_trial pub" "22 dev_enroll att"; do
  read -r seed set who <<<"$spec"
  mkdir -p $W/exp/q_${set}_$name
  [ -z "$pool" ] || [ -f $W/exp/q_${set}_$name/frame_pool.npz ] || cp "$pool" $W/exp/q_${set}_$name/
  nice -n 10 steps/transform_voice.sh --seed $seed --resume true --method frame_select --voice-config $conf \
    --target-selection per_gender_pseudo --target-data $W/dev_train $W/$set $W/exp/q_${set}_$name $W/${set}_q_$name
  pool=${pool:-$W/exp/q_${set}_$name/frame_pool.npz}
done
mkdir -p $W/emb/dev
[ -f $W/emb/dev/original_enroll.npz ] || nice -n 10 python bench/voice_frame_select.py embed $W/dev_enroll $W/emb/dev/original_enroll.npz
nice -n 10 python bench/voice_frame_select.py embed $W/dev_trial_q_$name $W/emb/dev/q_${name}_trial.npz
nice -n 10 python bench/voice_frame_select.py embed $W/dev_enroll_q_$name $W/emb/dev/q_${name}_enroll.npz
echo "== $name: converted enrolment (attacker seed 22), cosine"
python bench/voice_frame_select.py ignorant --enroll $W/emb/dev/q_${name}_enroll.npz --trials $W/dev_trial/trials --utt2spk $W/dev_utt2spk $W/emb/dev/q_${name}_trial.npz
echo "== $name: original enrolment (ignorant)"
python bench/voice_frame_select.py ignorant --enroll $W/emb/dev/original_enroll.npz --trials $W/dev_trial/trials --utt2spk $W/dev_utt2spk $W/emb/dev/q_${name}_trial.npz
