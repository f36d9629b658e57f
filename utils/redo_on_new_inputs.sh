#!/usr/bin/env bash
# A resumable step's guard against resuming on other inputs: the fingerprint of its inputs (pydeid fingerprint:
# the audio a data dir names, files' content, option values) is kept in <stamp>; when a rerun's differs, <out> (the
# step's own output, never an input) and every --also path are removed, so the step makes them again instead of
# keeping the work done for the old inputs (a masked dir of the previous voices published under the new voices'
# name; a conversion kept after its config changed).
#
# Usage: utils/redo_on_new_inputs.sh [--also PATH]... <stamp> <out> [--data D] [--file F] [--value=V] ...
#   (--value=V with "=": a value may begin with "-")
set -euo pipefail
also=()
while [ "${1:-}" = --also ]; do also+=("$2"); shift 2; done
if [ $# -lt 2 ]; then
  echo "Usage: $0 [--also PATH]... <stamp> <out> [--data D] [--file F] [--value V] ..." >&2
  exit 1
fi
stamp=$1 out=$2
shift 2
new=$(pydeid fingerprint "$@") || exit 1
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$new" ] && [ -e "$out" ]; then
  echo "$0: $out was made from other inputs: removed, made again" >&2
  rm -rf "$out" "${also[@]}"
fi
mkdir -p "$(dirname "$stamp")"
printf '%s\n' "$new" >"$stamp.$$" && mv "$stamp.$$" "$stamp"
