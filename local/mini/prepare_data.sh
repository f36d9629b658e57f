#!/usr/bin/env bash
# Stage 0 of egs/mini/s5/run.sh: build the embedded synthetic corpus `mini` into <data-dir>:
#   local/mini/prepare_data.sh [--seed 0] [--size default] [--nj 2] [--utts-per-speaker N]
#                              [--train-utts-per-speaker N] [--n-{train,dev,test}-speakers N]
#                              [--category-turns 0] <data-dir>
# e.g. local/mini/prepare_data.sh --seed 0 --size default data
# Leaves <data-dir>/mini_{train,dev,test,test_enroll,test_trial} (Kaldi data dirs with utt2gender, tags.conll,
# written.conll, words.ctm; mini_test_trial/trials) and the audio under <data-dir>/wav/. Idempotent: a finished
# corpus built with the same options is left as is (<data-dir>/.mini_stamp.json records them); other options
# rebuild it. Deterministic: the same seed gives byte-identical files.
# --category-turns N replaces the last N turns of each dialogue by turns with seed 004 A.1 sensitive categories
# (HEALTH, AGE, CREDENTIAL, ADDRESS, IP ...; gold-tagged with those types); 0 (the default) leaves the corpus as is.
set -euo pipefail
seed=0
size=default
nj=2
n_train_speakers=
n_dev_speakers=
n_test_speakers=
utts_per_speaker=
train_utts_per_speaker=
category_turns=0
help_message="Usage: $0 [--seed 0] [--size tiny|default] [--nj 2] [--n-train-speakers N] [--n-dev-speakers N] [--n-test-speakers N] [--utts-per-speaker N] [--train-utts-per-speaker N] [--category-turns 0] <data-dir>"
. utils/parse_options.sh
if [ $# -ne 1 ]; then echo "$help_message" >&2; exit 1; fi
data=$1

opts=(--seed "$seed" --size "$size" --nj "$nj")
[ -n "$n_train_speakers" ] && opts+=(--n-train-speakers "$n_train_speakers")
[ -n "$n_dev_speakers" ] && opts+=(--n-dev-speakers "$n_dev_speakers")
[ -n "$n_test_speakers" ] && opts+=(--n-test-speakers "$n_test_speakers")
[ -n "$utts_per_speaker" ] && opts+=(--utts-per-speaker "$utts_per_speaker")
[ -n "$train_utts_per_speaker" ] && opts+=(--train-utts-per-speaker "$train_utts_per_speaker")
case $category_turns in ''|*[!0-9]*) echo "$0: --category-turns must be a whole number >= 0, got '$category_turns'" >&2
                                     exit 1 ;; esac
[ "$category_turns" -gt 0 ] && opts+=(--category-turns "$category_turns")

pydeid make-mini-corpus "${opts[@]}" "$data"
for d in mini_train mini_dev mini_test mini_test_enroll mini_test_trial; do
  utils/validate_data_dir.sh "$data/$d" >/dev/null
done
echo "$0: mini corpus ready in $data (seed $seed, size $size, category turns $category_turns)"
