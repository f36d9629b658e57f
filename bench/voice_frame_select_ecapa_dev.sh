#!/usr/bin/env bash
# The trained-ECAPA dev protocol of bench/results/voice_frame_select.md (semi-informed, on the dev speakers of the
# speechocean762 train set): the attacker converts ALL the dev-train utterances with the config and his own seed
# (22), trains conf/xvector/ecapa_mini.yaml with energy VAD on them, enrols on the dev enrolment HE converted
# (<work>/dev_enroll_q_<name>, seed 22) and scores the publisher's dev trials (<work>/dev_trial_q_<name>, seed 11;
# both made by bench/voice_frame_select_quick.sh or transform-voice with those seeds). Run from
# egs/speechocean762/s5 of a finished run (its exp/align_ph/train_xv: the phone alignments of every train speaker).
#   bench/voice_frame_select_ecapa_dev.sh <work> <name> <config>
set -euo pipefail
W=$1 name=$2 conf=$3
if ! utils/validate_data_dir.sh "$W/dev_train_q_$name" >/dev/null 2>&1; then
  ali=()
  if utils/voice_config_needs_phones.sh frame_select "$conf"; then
    ali=(--ali-dir exp/align_ph/train_xv --target-ali-dir exp/align_ph/train_xv)
  fi
  nice -n 10 pydeid transform-voice --method frame_select --config "$conf" --target-data "$W/dev_train" --seed 22 \
    --resume --exp-dir "$W/exp/q_dev_train_$name" "${ali[@]}" "$W/dev_train" "$W/dev_train_q_$name"
fi
nice -n 10 steps/attack.sh --scenario semi-informed --method frame_select --xvector-config conf/xvector/ecapa_mini.yaml \
  --vad energy --seed 1 --nj 1 --num-threads 1 --backends cosine,plda "$W/dev_train_q_$name" \
  "$W/dev_enroll_q_$name" "$W/dev_trial_q_$name" "$W/att/ecapa_$name"
