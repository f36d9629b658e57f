#!/usr/bin/env bash
# One row of bench/results/voice_frame_select.md: convert the published trials (publisher seed 11) and the attacker's
# data (his training utterances + the enrolment, his own seed 22) with one configuration, embed them with GE2E and
# score the ignorant and semi-informed back-ends (bench/voice_frame_select.py).
#   bench/voice_frame_select.sh <work> <dev|test> <name> [steps/transform_voice.sh options...]
#   <work>/<set>_trial, <work>/<set>_att (training + enrolment), <work>/<set>_enroll, <work>/<set>_train must exist
#   (dev: bench/voice_frame_select.py split; test: the speechocean762 run's test_trial, test_enroll, train_xv).
#   <name> "original": no conversion. <work>/<set>_utt2spk: the speakers of all these utterances.
set -euo pipefail
work=$1 set=$2 name=$3
shift 3
py=bench/voice_frame_select.py
emb=$work/emb/$set; mkdir -p "$emb"
if [ "$name" = original ]; then
  trial=$work/${set}_trial att=$work/${set}_att
else
  trial=$work/${set}_trial_$name att=$work/${set}_att_$name
  for spec in "11 $work/${set}_trial $trial pub" "22 $work/${set}_att $att att"; do
    read -r seed in out who <<<"$spec"
    utils/validate_data_dir.sh "$out" >/dev/null 2>&1 && continue
    # the attacker's matching set is the publisher's (same target data, all its speakers): built once
    pool=$work/exp/${set}_${name}_pub/frame_pool.npz
    if [ "$who" = att ] && [ -f "$pool" ] && [ ! -f "$work/exp/${set}_${name}_att/frame_pool.npz" ]; then
      mkdir -p "$work/exp/${set}_${name}_att"; cp "$pool" "$work/exp/${set}_${name}_att/"
    fi
    start=$(date +%s)
    nice -n 10 steps/transform_voice.sh --seed "$seed" --resume true "$@" "$in" "$work/exp/${set}_${name}_$who" "$out"
    echo "$name $who: $(( $(date +%s) - start )) s wall" >> "$work/times.log"
  done
fi
nice -n 10 python $py embed "$trial" "$emb/${name}_trial.npz"
nice -n 10 python $py embed "$att" "$emb/${name}_att.npz"
# the attacker's training and enrolment embeddings are subsets of his converted data
python - "$emb/${name}_att.npz" "$work/${set}_train" "$work/${set}_enroll" <<'PY'
import sys, numpy as np
from pydeid.io import DataDir
z = dict(np.load(sys.argv[1]))
for d, suf in ((sys.argv[2], "train"), (sys.argv[3], "enroll")):
    utts = DataDir.read(d).utts
    np.savez(sys.argv[1].replace("_att.npz", f"_{suf}.npz"), **{u: z[u] for u in utts})
PY
python $py score --train "$emb/${name}_train.npz" --enroll "$emb/${name}_enroll.npz" --trial "$emb/${name}_trial.npz" \
  --trials "$work/${set}_trial/trials" --utt2spk "$work/${set}_utt2spk" --name "$name" --out "$work/${set}_results.json" \
  --orig-enroll "$emb/original_enroll.npz"
