#!/usr/bin/env bash
# Kaldi's utils/subset_data_dir.sh:
#   subset_data_dir.sh [--speakers|--first|--last|--per-spk|--shortest] <srcdir> <num-utt> <destdir>
#   subset_data_dir.sh --utt-list <utt-list-file> <srcdir> <destdir>
#   subset_data_dir.sh --spk-list <spk-list-file> <srcdir> <destdir>
# (--first N <srcdir> <destdir> and --per-spk N <srcdir> <destdir> are accepted too.)
# Side files (*.ctm, *.conll, trials, extra tables) follow the kept utterances. Python inside: pydeid data-dir subset.
set -euo pipefail
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING data-dir subset -- "$@"
