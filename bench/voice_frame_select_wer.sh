#!/usr/bin/env bash
# Utility of one row of bench/results/voice_frame_select.md: the Whisper tiny.en meter (steps/decode_whisper.sh,
# run from a checkout that has it: <whisper-root>) on the utility subset of a converted trial set.
#   bench/voice_frame_select_wer.sh <work> <dev|test> <name> <whisper-root>
set -euo pipefail
work=$(cd "$1" && pwd) set=$2 name=$3 root=$4
if [ "$name" = original ]; then src=$work/${set}_trial; else src=$work/${set}_trial_$name; fi
sub=$work/${set}_wer_$name
[ -s "$sub/wav.scp" ] || utils/subset_data_dir.sh --utt-list "$work/${set}_wer/utt2spk" "$src" "$sub" >/dev/null
# the meter's checkout's own pydeid, not the caller's (its path.sh keeps a PYDEID_ROOT already set)
env -u PYDEID_ROOT -u PYTHONPATH bash -c 'cd "$1" && . ./path.sh && nice -n 10 steps/decode_whisper.sh "$2" "$3"' _ \
  "$root" "$sub" "$work/decode/${set}_$name"
