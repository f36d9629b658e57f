#!/usr/bin/env bash
# Kaldi's utils/combine_data.sh: combine data dirs (utterance ids must be unique across sources; give each
# source a prefix with utils/copy_data_dir.sh first if needed):
#   combine_data.sh [--extra-files "f1 f2"] [--skip-fix true] <dest-data-dir> <src-data-dir1> <src-data-dir2> ...
# Tables present in only some sources are dropped with a warning; sources without segments get whole-file
# segments when others have segments. Side files (*.ctm, *.conll, trials) present in every source are combined.
set -euo pipefail
extra_files=
skip_fix=false  # Kaldi option, accepted: the combination is always written sorted and validated
help_message="Usage: $0 [--extra-files 'f1 f2'] <dest-data-dir> <src-data-dir1> [<src-data-dir2> ...]"
. "$(dirname "$0")/parse_options.sh"
if [ $# -lt 2 ]; then echo "$help_message" >&2; exit 1; fi
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING data-dir combine --extra-files="$extra_files" "$@"
