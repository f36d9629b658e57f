#!/usr/bin/env bash
# bench/utility_per.sh: the phone-error-rate utility meter on speechocean762 (bench/results/utility_per.md).
#
# In a work copy of egs/speechocean762/s5 whose stage 0 ran and whose published conversions data/test_trial_<v>
# exist (run.sh stage 3, or the publisher's part of it): phone-loop decoding (steps/decode_phones.sh) of the
# utility subset data/test_wer (60 utterances) and of the published trial set data/test_trial (150; the subset is a
# part of it), original and per method; general-LM word decoding (steps/decode_pocketsphinx.sh) of the utility
# subset; the language-weight sweep on train speakers (data/train_per_tune: 2 utterances of each train speaker, no
# test speaker); then bench/utility_per_report.py writes the tables.
#
#   bench/utility_per.sh <recipe-work-dir> [methods...]   (default: the recipe's six)
# Every decode dir that is current is kept (rerun to resume). Run under nice; one job at a time.
# TRIAL_SET=false skips the trial-set phone decodings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
work=$1; shift
methods=${*:-"voicemask vtln1 vtln2 vtln3 mcadams vtln3_ufvphanycmnw"}
cd "$work"
. ./path.sh
export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
[ -d data/train_per_tune ] || utils/subset_data_dir.sh --per-spk 2 data/train data/train_per_tune >/dev/null
for lw in 1 2 4 7 10; do
  steps/decode_phones.sh --lw $lw data/train_per_tune exp/tune/lw$lw >/dev/null
done
for v in $methods; do
  [ -d data/test_wer_$v ] || utils/subset_data_dir.sh --utt-list data/test_wer/utt2spk data/test_trial_$v \
    data/test_wer_$v >/dev/null
done
for c in test_wer $(for v in $methods; do echo test_wer_$v; done); do
  steps/decode_phones.sh data/$c exp/ps/phones_$c | tail -n 1
done
for c in test_wer $(for v in $methods; do echo test_wer_$v; done); do
  steps/decode_pocketsphinx.sh data/$c exp/ps/decode_general_$c >/dev/null
  steps/score.sh --results exp/ps/RESULTS.md data/$c exp/ps/decode_general_$c | grep -E "^%WER" || true
done
if [ "${TRIAL_SET:-true}" = true ]; then   # TRIAL_SET=false: the utility subset only
  for c in test_trial $(for v in $methods; do echo test_trial_$v; done); do
    steps/decode_phones.sh data/$c exp/ps/phones_$c | tail -n 1
  done
fi
python "$root/bench/utility_per_report.py" --work "$work" --methods "$methods"
