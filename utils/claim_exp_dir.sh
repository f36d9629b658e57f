#!/usr/bin/env bash
# utils/claim_exp_dir.sh <exp-dir> <out-data>
# An exp folder holds one output's secrets (voice plan, masking config, logs): the first step writing into it
# records the output it works for in <exp-dir>/owner; a later step writing into the same folder for ANOTHER output
# (e.g. two steps/convert_voice.sh runs whose outputs share a base name: a/test and b/test -> exp/voice/test) is
# refused with one line instead of silently replacing the first's secret plan. The same output may rerun (resume).
[ $# -eq 2 ] || { echo "Usage: $0 <exp-dir> <out-data>" >&2; exit 2; }
dir=$1 out=$2
mkdir -p "$dir"
mkdir -p "$(dirname "$out")"
want=$(cd "$(dirname "$out")" && pwd -P)/$(basename "$out")
if [ -f "$dir/owner" ]; then
  have=$(cat "$dir/owner")
  [ "$have" = "$want" ] && exit 0
  echo "$dir holds the secrets and logs of $have; refusing to write $want's there too (give it another exp dir or output name)" >&2
  exit 1
fi
printf '%s\n' "$want" >"$dir/owner.$$" && mv "$dir/owner.$$" "$dir/owner"
