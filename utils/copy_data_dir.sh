#!/usr/bin/env bash
# Kaldi's utils/copy_data_dir.sh: copy a data dir, optionally renaming utterances and speakers:
#   copy_data_dir.sh [--utt-prefix p] [--utt-suffix s] [--spk-prefix p] [--spk-suffix s] <srcdir> <destdir>
# Recording ids are kept when there is a segments file (wav.scp is then keyed by recording). Side files
# (*.ctm, *.conll, trials) are renamed too. The copy is validated (--validate false to skip).
set -euo pipefail
utt_prefix=
utt_suffix=
spk_prefix=
spk_suffix=
validate=true
validate_opts=   # Kaldi option, accepted
help_message="Usage: $0 [--utt-prefix p] [--utt-suffix s] [--spk-prefix p] [--spk-suffix s] <srcdir> <destdir>"
. "$(dirname "$0")/parse_options.sh"
if [ $# -ne 2 ]; then echo "$help_message" >&2; exit 1; fi
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING data-dir copy --utt-prefix="$utt_prefix" --utt-suffix="$utt_suffix" \
  --spk-prefix="$spk_prefix" --spk-suffix="$spk_suffix" --validate "$validate" "$1" "$2"
