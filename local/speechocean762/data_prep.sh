#!/usr/bin/env bash
# Kaldi data dir for one speechocean762 split (the corpus's own train/ or test/ lists, WAVE/ audio, .WAV or .flac):
#   local/speechocean762/data_prep.sh [--enroll-trial true --num-enroll 5] <corpus-root> <train|test> <data-dir>
# Writes wav.scp (absolute paths), text, utt2spk, spk2utt, utt2gender, spk2gender, utt2dur; with --enroll-trial
# true also <data-dir>_enroll and <data-dir>_trial (trials file, non-targets of the same gender) through
# `pydeid make-trials`. Idempotent: a data dir that validates is kept.
set -euo pipefail
enroll_trial=false
num_enroll=5
seed=0
help_message="Usage: $0 [--enroll-trial true] [--num-enroll N] [--seed S] <corpus-root> <train|test> <data-dir>"
. utils/parse_options.sh
if [ $# -ne 3 ]; then echo "$help_message" >&2; exit 1; fi
root=$1; split=$2; data=$3
if [ -s "$data/utt2dur" ] && utils/validate_data_dir.sh "$data" >/dev/null 2>&1; then
  echo "$0: $data exists and validates; kept"
else
  pydeid prepare-speechocean "$root" "$split" "$data"
  utils/validate_data_dir.sh --check-audio "$data" >/dev/null
fi
if $enroll_trial; then
  if [ -s "${data}_trial/trials" ] && utils/validate_data_dir.sh "${data}_trial" >/dev/null 2>&1 \
      && utils/validate_data_dir.sh "${data}_enroll" >/dev/null 2>&1; then
    echo "$0: ${data}_enroll and ${data}_trial exist; kept"
  else
    pydeid make-trials --num-enroll "$num_enroll" --seed "$seed" --same-gender-nontargets \
      "$data" "${data}_enroll" "${data}_trial"
  fi
fi
