#!/usr/bin/env bash
# Benchmark of the x-vector attacker on the embedded corpus (default size): training time, extraction speed
# (real-time factor), EER/minDCF/ACC on original speech, and the attack table layout for several score dirs.
# Writes bench/results/attack_xvector.md. Usage: bench/attack_xvector.sh [work-dir] [size]
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
work=${1:-/tmp/pydeid_bench_attack}
size=${2:-default}
mkdir -p "$work" bench/results
python bench/attack_xvector.py --work "$work" --size "$size" --out bench/results/attack_xvector.md
