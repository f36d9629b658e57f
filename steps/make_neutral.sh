#!/usr/bin/env bash
# The neutral corpus of one data dir, the procedure every recipe runs: the voices converted (with --voice;
# steps/convert_voice.sh, skipped when <converted-data> is already valid), the tagged words silenced in the audio
# and removed from the text (steps/mask_words.sh, skipped when <out-data> is already valid), then the leak check
# against <ctm> (steps/verify_masking.sh into <exp-dir>/verify; any leak stops here unless --fail-on-leak false).
# The tags and word times are the recipe's (gold, detectors, an aligner): they are inputs here.
#
# Usage: steps/make_neutral.sh [options] <converted-data> <tags.conll> <ctm> <exp-dir> <out-data>
#   --voice ""            <method>:<strategy> (vtln:3, voicemask:-): convert --source-data into <converted-data>
#                         first; empty: <converted-data> exists already
#   --convert-opts ""     more steps/convert_voice.sh options (targets, pool, config), one string
#   --source-data ""      the original data dir: the conversion's input and verify-masking's --orig-data (wav.scp
#                         entries pointing to its audio are leaks)
#   --seed 0              the conversion's draws and the masking's noise
#   --tags all --on-untimed error      steps/mask_words.sh (--tags also for the check)
#   --results "" --name "" --fail-on-leak true   steps/verify_masking.sh
#   --nj 1 --cmd run.pl
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
voice=
convert_opts=
source_data=
seed=0
tags=all
on_untimed=error
results=
name=
fail_on_leak=true
help_message="Usage: $0 [options] <converted-data> <tags.conll> <ctm> <exp-dir> <out-data>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 5 ]; then
  echo "$help_message" >&2
  exit 1
fi
conv=$1 tagfile=$2 ctm=$3 dir=$4 out=$5
. utils/recipe.sh   # done_ok

if [ -n "$voice" ]; then
  [[ $voice == *:* ]] || { echo "$0: --voice '$voice': expected <method>:<strategy>" >&2; exit 1; }
  [ -n "$source_data" ] || { echo "$0: --voice needs --source-data (the data dir to convert)" >&2; exit 1; }
  read -r -a copts <<<"$convert_opts"
  steps/convert_voice.sh --nj "$nj" --cmd "$cmd" "${copts[@]}" "${voice%%:*}" "$source_data" \
    "${voice#*:}:$seed:$conv"
fi
done_ok "$out" || steps/mask_words.sh --tags "$tags" --seed "$seed" --on-untimed "$on_untimed" --nj "$nj" --cmd "$cmd" \
  "$conv" "$tagfile" "$ctm" "$dir" "$out"
steps/verify_masking.sh --tags "$tags" ${source_data:+--orig-data "$source_data"} --results "$results" --name "$name" \
  --fail-on-leak "$fail_on_leak" "$out" "$tagfile" "$ctm" "$dir/verify"
