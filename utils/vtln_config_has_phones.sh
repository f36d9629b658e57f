#!/usr/bin/env bash
# utils/vtln_config_has_phones.sh <vtln-config.yaml>: exit 0 when the VTLN config asks for phone classes
# (`classes: phones`: it needs the phone alignments of steps/align_phones_for_vtln.sh), 1 when it does not, 2 when
# the file is missing or not a valid YAML mapping (one line naming the file and line).
# pydeid.voice.vtln.phone_classes.config_has_phone_classes answers for the Python callers.
set -euo pipefail
[ $# -eq 1 ] || { echo "Usage: $0 <vtln-config.yaml>" >&2; exit 2; }
# a screening variant named by its old path is found in conf/voice/tuning/ (utils/voice_config.sh)
[ -f "$1" ] || [ -f "$(dirname "$1")/tuning/$(basename "$1")" ] || { echo "$0: $1: no such VTLN config" >&2; exit 2; }
exec "$(dirname "$0")/voice_config_needs_phones.sh" vtln "$1"   # the one check of every method
