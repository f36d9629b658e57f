#!/usr/bin/env bash
# Identifier recall, written and spoken: pydeid's default detection (+ the dialogue context of tag-entities) and
# Presidio's analyzer on the same generated test set (bench/identifiers_data.py), one run.
# Run from the repository root: bash bench/identifiers.sh [dev|heldout]  -> bench/results/identifiers.md (heldout)
# Presidio runs in its own venv (bench/.venv-presidio, bench/presidio_venv.sh), never the project's.
set -euo pipefail
. ./path.sh
export OMP_NUM_THREADS=1
part=${1:-heldout}
case $part in dev|heldout) ;; *) echo "$0: part must be dev or heldout, not '$part'" >&2; exit 1 ;; esac
out=${OUT:-bench/results/identifiers.md}
work=$(mktemp -d /tmp/identifiers.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT     # KEEP=1 keeps the per-system predictions
. bench/presidio_venv.sh   # $pv: the anchor's own venv
load0=$(cut -d" " -f1 /proc/loadavg)
python bench/identifiers.py predict --system pydeid --part "$part" --out "$work/pydeid.json"
PYTHONPATH=$PWD:$PWD/bench "$pv/bin/python" bench/identifiers.py predict --system presidio --part "$part" \
  --out "$work/presidio.json"
{
  echo "# Identifiers written and spoken: pydeid vs Presidio ($(date -u +%Y-%m-%d), bench/identifiers.sh $part at $(git rev-parse --short HEAD))"
  echo
  echo "Test set: bench/identifiers_data.py, generated from the documented formats (checksums computed), seed 1 = dev"
  echo "(looked at while fixing rules), seed 2 = held-out (this table when the part is heldout), plus the issue's 4 probes."
  echo "A mention is found when all its tokens are flagged (any type); found and typed when pydeid's type on its first"
  echo "token is also the gold type. Wilson 95 % intervals over mentions. pydeid: default detectors + dialogue context (as tag-entities);"
  echo "Presidio 2.2.366 with en_core_web_sm 3.8.0, default English recognisers, one turn at a time. 1-min load $load0."
  echo
  python bench/identifiers.py report "$work/pydeid.json" "$work/presidio.json"
} > "$out"
cat "$out"
