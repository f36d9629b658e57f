#!/usr/bin/env bash
# Kaldi's utils/split_data.sh: split a data dir into <data>/split<N>/{1..N}, whole speakers per part (or
# utterances with --per-utt, into <data>/split<N>utt), parts balanced by utterance count and kept sorted.
# An existing split newer than every file of <data> is reused. Python inside: pydeid data-dir split.
set -euo pipefail
usage="Usage: $0 [--per-utt] <data-dir> <num-to-split>"
opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --per-utt) opts+=(--per-utt); shift ;;
    --help|-h) echo "$usage"; exit 0 ;;
    --*) echo "$0: unknown option $1" >&2; echo "$usage" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -ne 2 ]; then echo "$usage" >&2; exit 1; fi
data=$1; num=$2
if ! [[ "$num" =~ ^[1-9][0-9]*$ ]]; then echo "$0: <num-to-split> must be a positive integer, got '$num'" >&2; exit 1; fi
. "$(dirname "$0")/_pydeid.sh"
pydeid_exec --log-level WARNING data-dir split "${opts[@]}" "$data" "$num"
