#!/usr/bin/env bash
# Kaldi's utils/fix_data_dir.sh: in place, sort every table, keep only utterances present in all utterance
# tables (text, utt2spk, wav.scp or segments, feats.scp, utt2dur, ...), drop speakers and recordings left
# without utterances, regenerate spk2utt; side files (*.ctm, *.conll, trials) follow. Originals are copied to
# <data>/.backup. --utt-extra-files/--spk-extra-files are accepted (known side files are handled automatically).
set -euo pipefail
usage="Usage: $0 <data-dir>"
while [ $# -gt 0 ]; do
  case "$1" in
    --utt-extra-files|--spk-extra-files) shift 2 ;;
    --help|-h) echo "$usage"; exit 0 ;;
    --*) echo "$0: unknown option $1" >&2; echo "$usage" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ]; then echo "$usage" >&2; exit 1; fi
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING data-dir fix "$1"
