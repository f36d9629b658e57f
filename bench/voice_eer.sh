#!/usr/bin/env bash
# Privacy cost of the WORLD F0 estimator (dio vs harvest) and of each method: x-vector EER on the embedded corpus
# at its "default" size (20 training speakers, 8 test speakers), attacker = pydeid.attack (conf/xvector/mini.yaml).
#   ignorant:       attacker trained and enrolled on original voices, trials converted
#   lazy-informed:  enrolment converted with the same method (another seed), trials converted
# Writes bench/results/voice_eer.json (+ per-config metrics under $work). Run from the repository root:
#   VOICE_EER=1 bash bench/voice_eer.sh [work-dir]   (trains an attacker: ~15-25 min on 2 idle cores; skipped by
#   `make bench` unless VOICE_EER=1)
set -euo pipefail
if [ "${VOICE_EER:-0}" != 1 ]; then echo "$0: skipped (set VOICE_EER=1 to train the attacker and measure EER)"; exit 0; fi
. ./path.sh
export OMP_NUM_THREADS=1
work=${1:-exp/bench_voice_eer}
mini=$work/mini
mkdir -p "$work"
[ -f "$mini/mini_train/wav.scp" ] || \
  python -c "from pydeid.corpora.mini import build_corpus; build_corpus('$mini', seed=0, size='default')"

xv=$work/xvector
# XV_MODEL=<model dir> reuses an attacker already trained on this corpus's mini_train (copied, never modified)
if [ -n "${XV_MODEL:-}" ] && [ ! -f "$xv/model/embedding_model.ckpt" ]; then mkdir -p "$xv"; cp -r "$XV_MODEL" "$xv/model"; fi
[ -f "$xv/model/embedding_model.ckpt" ] || pydeid train-xvector --config conf/xvector/mini.yaml --seed 0 \
  --num-threads 2 "$mini/mini_train" "$xv/model"
for d in mini_train mini_test_enroll mini_test_trial; do
  [ -f "$xv/$d/spk_xvector.scp" ] || { pydeid extract-xvectors "$xv/model" "$mini/$d" "$xv/$d" &&
                                        pydeid extract-xvectors --finalize 0 - "$mini/$d" "$xv/$d"; }
done
score() {  # <name> <enroll-data> <enroll-xv> <trial-data> <trial-xv> <scenario> <method>
  pydeid score-trials --backends cosine --scenario "$6" --method "$7" --no-plots \
    --trials "$mini/mini_test_trial/trials" --orig-trial "$mini/mini_test_trial" \
    "$xv/mini_train" "$2" "$3" "$4" "$5" "$work/scores/$1" >/dev/null
}
score original "$mini/mini_test_enroll" "$xv/mini_test_enroll" "$mini/mini_test_trial" "$xv/mini_test_trial" \
  original none

for cfg in ${CONFIGS:-vtln:dio vtln:harvest voicemask:dio voicemask:harvest mcadams:-}; do
  method=${cfg%%:*}; f0=${cfg##*:}; name=${method}_${f0}
  opts=(--method "$method" --strategy 3)
  [ "$f0" != - ] && opts+=(--f0-method "$f0")
  [ "$method" = vtln ] && opts+=(--target-data "$mini/mini_dev")
  for d in mini_test_trial mini_test_enroll; do
    seed=0; [ "$d" = mini_test_enroll ] && seed=1
    out=$work/conv/$name/$d
    mkdir -p "$work/conv"
    start=$(date +%s.%N)
    pydeid transform-voice "${opts[@]}" --seed $seed --resume --exp-dir "$work/conv_exp/$name/$d" \
      "$mini/$d" "$out" >/dev/null 2>"$work/conv/$name.$d.log"
    echo "$(date +%s.%N) - $start" | bc > "$work/conv/$name.$d.time"
    [ -f "$xv/$name/$d/spk_xvector.scp" ] || { pydeid extract-xvectors "$xv/model" "$out" "$xv/$name/$d" &&
                                               pydeid extract-xvectors --finalize 0 - "$out" "$xv/$name/$d"; }
  done
  score "${name}_ignorant" "$mini/mini_test_enroll" "$xv/mini_test_enroll" \
    "$work/conv/$name/mini_test_trial" "$xv/$name/mini_test_trial" ignorant "$name"
  score "${name}_lazy" "$work/conv/$name/mini_test_enroll" "$xv/$name/mini_test_enroll" \
    "$work/conv/$name/mini_test_trial" "$xv/$name/mini_test_trial" lazy-informed "$name"
done
python - "$work" <<'PY'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
rows = {}
for m in sorted((work / "scores").glob("*/metrics.json")):
    r = json.loads(m.read_text())
    c = r["backends"]["cosine"]
    rows[m.parent.name] = {"eer_pooled_pct": c["pooled"]["eer_pct"], "eer_male_pct": c["male"]["eer_pct"],
                           "eer_female_pct": c["female"]["eer_pct"],
                           "pitch_correlation": (r.get("pitch") or {}).get("pitch_correlation")}
for t in sorted((work / "conv").glob("*.time")):
    rows.setdefault("conversion_time", {})[t.stem] = t.read_text().strip()
Path("bench/results").mkdir(parents=True, exist_ok=True)
Path("bench/results/voice_eer.json").write_text(json.dumps(rows, indent=1) + "\n")
print(json.dumps(rows, indent=1))
PY
