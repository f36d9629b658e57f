#!/usr/bin/env bash
# utils/publisher_seed.sh <seed> <purpose> <secret-dir> [<corpus-dir> ...]
# The integer seed a step passes on for one purpose (voice-plan, masking-noise, spoken-fill, surrogates):
# <seed> itself when given (--seed N: reproducible, replayable by anyone who knows N), else the purpose's sub-seed of
# the publisher's key in <secret-dir> (drawn from os.urandom at the first run, 0600, reused after:
# pydeid.io.publisher_key). The key never lies inside one of the <corpus-dir>s.
[ $# -ge 3 ] || { echo "Usage: $0 <seed> <purpose> <secret-dir> [<corpus-dir> ...]" >&2; exit 2; }
seed=$1 purpose=$2 secret_dir=$3
shift 3
if [ -n "$seed" ]; then
  [[ $seed =~ ^-?[0-9]+$ ]] || { echo "--seed: expected an integer or nothing (the publisher's key), got '$seed'" >&2; exit 1; }
  echo "$seed"
  exit 0
fi
forbid=()
for d in "$@"; do forbid+=(--forbid "$d"); done
pydeid publisher-key --purpose "$purpose" "${forbid[@]}" "$secret_dir"
