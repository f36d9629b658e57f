#!/usr/bin/env bash
# utils/voice_config.sh <conf/voice/name.yaml>: print the path of a voice config, found where it is named or, for a
# screening variant, in the tuning/ folder next to it (conf/voice/vtln_cm.yaml -> conf/voice/tuning/vtln_cm.yaml;
# pydeid.voice.configs.resolve_config does the same in Python). Exit 1 with one line when neither exists.
set -euo pipefail
[ $# -eq 1 ] || { echo "Usage: $0 <conf/voice/name.yaml>" >&2; exit 2; }
if [ -f "$1" ]; then echo "$1"
elif [ -f "$(dirname "$1")/tuning/$(basename "$1")" ]; then echo "$(dirname "$1")/tuning/$(basename "$1")"
else echo "$0: no config $1" >&2; exit 1; fi
