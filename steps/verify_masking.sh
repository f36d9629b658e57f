#!/usr/bin/env bash
# Leak check after steps/mask_words.sh: every tagged interval of the reference CTM must be silent in the masked
# audio (each 10 ms frame below --threshold-dbfs) and no hidden token may survive in the masked text.
# Exits 1 on any leak unless --fail-on-leak false (then it only reports, e.g. to measure an aligner's leaks).
#
# Usage: steps/verify_masking.sh [options] <masked-data> <tags.conll> <reference-ctm> <exp-dir>
#   --tags all           all = every type the detectors can emit; a narrower list is named in the output
#   --threshold-dbfs -50
#   --tolerance 0        seconds trimmed from both ends of each reference interval
#   --orig-data ""       original data dir: also flag wav.scp entries that point to its audio
#   --results ""         RESULTS.md to update (section verify-masking)
#   --name ""            row label in RESULTS.md
#   --fail-on-leak true
set -euo pipefail

tags=all
threshold_dbfs=-50
tolerance=0
orig_data=
results=
name=
fail_on_leak=true
help_message="Usage: $0 [options] <masked-data> <tags.conll> <reference-ctm> <exp-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
masked=$1
tags_file=$2
ctm=$3
dir=$4

opts=(--tags "$tags" --threshold-dbfs "$threshold_dbfs" --tolerance "$tolerance")
[ -n "$orig_data" ] && opts+=(--orig-data "$orig_data")
[ -n "$results" ] && opts+=(--results "$results")
[ -n "$name" ] && opts+=(--name "$name")
mkdir -p "$dir/log"
rc=0
pydeid verify-masking "${opts[@]}" "$masked" "$tags_file" "$ctm" 2>"$dir/log/verify.log" | tee "$dir/verify.txt" || rc=$?
if [ "$rc" -ne 0 ]; then
  if ! grep -q "leaks:" "$dir/verify.txt"; then  # not a leak report: bad input or a crash
    cat "$dir/log/verify.log" >&2
    echo "$0: verification could not run" >&2
    exit 1
  fi
  head -n 5 "$dir/log/verify.log" >&2
  if [ "$fail_on_leak" = true ]; then
    echo "$0: LEAKS found in $masked (details: $dir/log/verify.log)" >&2
    exit 1
  fi
  echo "$0: leaks found in $masked (reported, --fail-on-leak false)" >&2
fi
exit 0
