#!/usr/bin/env bash
# Kaldi's utils/validate_data_dir.sh on pydeid's data-dir contract (wraps `pydeid validate-data-dir`).
# Options: --no-text (text not required), --check-audio (open every wav.scp entry; off by default),
# --no-wav (do not open audio: the default), --no-spk-sort (as Kaldi: utt2spk need not be sorted by speaker as
# well), --no-feats / --non-print (accepted, no effect: pydeid data dirs have no feats.scp requirement).
set -euo pipefail
usage="Usage: $0 [--no-text] [--check-audio] [--no-wav] [--no-feats] [--no-spk-sort] <data-dir>"
opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-text) opts+=(--no-text); shift ;;
    --check-audio) opts+=(--check-audio); shift ;;
    --no-spk-sort) opts+=(--no-spk-sort); shift ;;
    --no-wav|--no-feats|--non-print) shift ;;
    --help|-h) echo "$usage"; exit 0 ;;
    --*) echo "$0: unknown option $1" >&2; echo "$usage" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ]; then echo "$usage" >&2; exit 1; fi
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING validate-data-dir "${opts[@]}" "$1"
