#!/usr/bin/env bash
# Leak check after steps/mask_spoken.sh: every sample inside a spoken-pseudonym interval is the re-rendered insert
# or silence, every hidden entity of the original tags lies inside an interval, no insert says an original entity
# word, value, digit string or spelling of its dialogue, and no wav.scp entry points to the original audio.
# Exits 1 on any leak unless --fail-on-leak false (then it only reports).
#
# Usage: steps/verify_spoken.sh [options] <spoken-data> <tags.conll> <reference-ctm> <exp-dir>
#   <tags.conll>     the ORIGINAL tags (not the transformed ones)
#   --secret-dir ""  the --secret-dir of steps/mask_spoken.sh (its default: <mask-exp-dir>/secrets); required
#   --tags all       all = every type the detectors can emit; a narrower list is named in the output
#   --orig-data ""   original data dir: also flag wav.scp entries that point to its audio
#   --results ""     RESULTS.md to update (section verify-spoken)
#   --name ""        row label in RESULTS.md
#   --fail-on-leak true
set -euo pipefail

secret_dir=
tags=all
orig_data=
results=
name=
fail_on_leak=true
help_message="Usage: $0 [options] <spoken-data> <tags.conll> <reference-ctm> <exp-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
spoken=$1
tags_file=$2
ctm=$3
dir=$4
[ -n "$secret_dir" ] || { echo "$0: --secret-dir is required (the --secret-dir of steps/mask_spoken.sh)" >&2; exit 1; }
[ -d "$secret_dir/spoken_plan" ] || { echo "$0: $secret_dir/spoken_plan: no such directory (not a mask-spoken secret dir)" >&2; exit 1; }

opts=(--tags "$tags" --secret-dir "$secret_dir")
[ -n "$orig_data" ] && opts+=(--orig-data "$orig_data")
[ -n "$results" ] && opts+=(--results "$results")
[ -n "$name" ] && opts+=(--name "$name")
mkdir -p "$dir/log"
rc=0
pydeid verify-spoken "${opts[@]}" "$spoken" "$tags_file" "$ctm" 2>"$dir/log/verify.log" | tee "$dir/verify.txt" || rc=$?
if [ "$rc" -ne 0 ]; then
  if ! grep -q "leaks:" "$dir/verify.txt"; then  # not a leak report: bad input or a crash
    utils/job_failed.sh "$0: verification could not run" "$dir/log/verify.log"
    exit 1
  fi
  head -n 5 "$dir/log/verify.log" >&2
  if [ "$fail_on_leak" = true ]; then
    echo "$0: LEAKS found in $spoken (details: $dir/log/verify.log)" >&2
    exit 1
  fi
  echo "$0: leaks found in $spoken (reported, --fail-on-leak false)" >&2
fi
exit 0
