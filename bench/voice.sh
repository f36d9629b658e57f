#!/usr/bin/env bash
# Voice conversion benchmarks: RTF per method (one core), WORLD estimator quality/speed, memory vs list length;
# results in bench/results/voice.md. Run from the repository root (~10 min on an idle 2-core machine).
set -euo pipefail
. ./path.sh
export OMP_NUM_THREADS=1
python bench/voice_rtf.py
python bench/voice_world.py
python bench/voice_memory.py
python bench/voice_report.py
