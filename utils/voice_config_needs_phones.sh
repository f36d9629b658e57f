#!/usr/bin/env bash
# utils/voice_config_needs_phones.sh <method> <config.yaml>: exit 0 when the config of a voice method needs phone
# alignments (vtln `classes: phones`, frame_select `match: segments`), 1 when it does not, 2 when the method is
# unknown or the file is missing or not a valid config (one line naming the file and line).
set -euo pipefail
[ $# -eq 2 ] || { echo "Usage: $0 <method> <config.yaml>" >&2; exit 2; }
python3 -c 'import sys
from pydeid.io import FormatError
from pydeid.voice import registry
from pydeid.voice.configs import load_config
try:
    m = registry.get(sys.argv[1])
    sys.exit(0 if m.phone_classes(load_config(sys.argv[2], sys.argv[1])) else 1)
except (FormatError, ValueError, KeyError) as e:
    print(f"{sys.argv[3]}: {e}", file=sys.stderr)
    sys.exit(2)' "$1" "$2" "$0"
