#!/usr/bin/env bash
# Utility of one row of bench/results/voice_frame_select.md: a Whisper meter (steps/decode_whisper.sh, run from a
# checkout that has it: <whisper-root>; model tiny.en, the primary meter, or base) on the utility subset of a
# converted trial set.
#   bench/voice_frame_select_wer.sh <work> <dev|test> <name> <whisper-root> [tiny.en|base]
set -euo pipefail
work=$(cd "$1" && pwd) set=$2 name=$3 root=$4 model=${5:-tiny.en}
case $model in tiny.en) tag= ;; base) tag=_base ;; *) echo "$0: model must be tiny.en or base, not '$model'" >&2; exit 1;; esac
if [ "$name" = original ]; then src=$work/${set}_trial; else src=$work/${set}_trial_$name; fi
sub=$work/${set}_wer_$name
[ -s "$sub/wav.scp" ] || utils/subset_data_dir.sh --utt-list "$work/${set}_wer/utt2spk" "$src" "$sub" >/dev/null
# the meter's checkout's own pydeid, not the caller's (its path.sh keeps a PYDEID_ROOT already set)
env -u PYDEID_ROOT -u PYTHONPATH bash -c 'cd "$1" && . ./path.sh && nice -n 10 steps/decode_whisper.sh --model "$4" "$2" "$3"' _ \
  "$root" "$sub" "$work/decode/${set}_$name$tag" "$model"
