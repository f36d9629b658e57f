#!/usr/bin/env bash
# Kaldi data dir for one LibriSpeech subset (the name and arguments of Kaldi's local/data_prep.sh):
#   local/librispeech/data_prep.sh [--enroll-trial true --num-enroll 3] <corpus-root> <subset> <data-dir>
# e.g. local/librispeech/data_prep.sh /export/LibriSpeech dev-clean data/dev_clean
# Writes wav.scp (`flac -c -d -s <path> |` as in Kaldi; pydeid reads the flac itself), text, utt2spk, spk2utt, utt2gender, spk2gender,
# utt2dur. With --enroll-trial true it also writes <data-dir>_enroll and <data-dir>_trial (with trials:
# `<enroll-spk> <trial-utt> target|nontarget`) through `pydeid make-trials` (pydeid.attack.trials).
# Idempotent: a data dir that already validates is left as is (delete it to redo).
set -euo pipefail
enroll_trial=false
num_enroll=3
seed=0
help_message="Usage: $0 [--enroll-trial true] [--num-enroll N] [--seed S] <corpus-root> <subset> <data-dir>"
. utils/parse_options.sh
if [ $# -ne 3 ]; then echo "$help_message" >&2; exit 1; fi
root=$1; subset=$2; data=$3

if [ -s "$data/utt2dur" ] && utils/validate_data_dir.sh "$data" >/dev/null 2>&1; then
  echo "$0: $data exists and validates; skipping"
else
  pydeid prepare-librispeech "$root" "$subset" "$data"
  utils/validate_data_dir.sh --check-audio "$data"
fi
if $enroll_trial; then
  if [ -s "${data}_trial/trials" ] && utils/validate_data_dir.sh "${data}_trial" >/dev/null 2>&1 \
      && utils/validate_data_dir.sh "${data}_enroll" >/dev/null 2>&1; then
    echo "$0: ${data}_enroll and ${data}_trial exist; skipping"
  else
    pydeid make-trials --num-enroll "$num_enroll" --seed "$seed" "$data" "${data}_enroll" "${data}_trial"
  fi
fi
