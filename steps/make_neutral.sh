#!/usr/bin/env bash
# The neutral corpus of one data dir, the procedure every recipe runs: the voices converted (with --voice;
# steps/convert_voice.sh, skipped when <converted-data> is already valid), the tagged words silenced in the audio
# and removed from the text (steps/mask_words.sh into the working dir <exp-dir>/masked, skipped when already valid),
# the leak check against <ctm> (steps/verify_masking.sh into <exp-dir>/verify; any leak stops here unless
# --fail-on-leak false), then the published copy <out-data> (steps/publish_data.sh): keyed pseudonymous speaker,
# utterance and recording ids, no gender, every file checked for every original id.
# The tags and word times are the recipe's (gold, detectors, an aligner): they are inputs here.
#
# Usage: steps/make_neutral.sh [options] <converted-data> <tags.conll> <ctm> <exp-dir> <out-data>
#   --voice ""            <method>:<strategy> (vtln:3, voicemask:-): convert --source-data into <converted-data>
#                         first; empty: <converted-data> exists already
#   --convert-opts ""     more steps/convert_voice.sh options (targets, pool, config), one string
#   --source-data ""      the original data dir: the conversion's input, verify-masking's --orig-data (wav.scp
#                         entries pointing to its audio are leaks) and publish's --orig-data (its ids are leaks)
#   --seed ""             empty: every draw (voice plan, masking noise, id pseudonyms) derives from the publisher's
#                         key (<secret-dir>/publisher.key, random at the first run, reused after: reruns identical);
#                         N: the draws of seed N, which anyone who knows N can replay (experiments; said in the log)
#   --secret-dir exp/secrets   the publisher's key and the id maps (0600, never inside a corpus)
#   --keep-gender false   true: publish utt2gender/spk2gender (the log and <exp-dir>/publish.json say so)
#   --publish true        false: <out-data> is the masked working dir itself (original ids and gender; a
#                         measurement set that is never published)
#   --tags all --on-untimed error      steps/mask_words.sh (--tags also for the check)
#   --results "" --name "" --fail-on-leak true   steps/verify_masking.sh
#   --nj 1 --cmd run.pl
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
voice=
convert_opts=
source_data=
seed=
secret_dir=exp/secrets
keep_gender=false
publish=true
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

case $publish in true|false) ;; *) echo "$0: --publish '$publish': expected true or false" >&2; exit 1;; esac
# one key per secret dir: every data dir of a corpus published with it gets the same speaker pseudonyms
if [ -n "$seed" ]; then   # an experiment's seed: the draws of seed N (utils/publisher_seed.sh), no key to read
  vseed=$(utils/publisher_seed.sh "$seed" voice-plan "$secret_dir") || exit 1; mseed=$vseed
else
  read -r vseed mseed < <(pydeid publisher-key --purpose voice-plan --purpose masking-noise --forbid "$out" \
    --forbid "$conv" ${source_data:+--forbid "$source_data"} "$secret_dir") && [ -n "$mseed" ] || exit 1
fi

if [ -n "$voice" ]; then
  [[ $voice == *:* ]] || { echo "$0: --voice '$voice': expected <method>:<strategy>" >&2; exit 1; }
  [ -n "$source_data" ] || { echo "$0: --voice needs --source-data (the data dir to convert)" >&2; exit 1; }
  read -r -a copts <<<"$convert_opts"
  steps/convert_voice.sh --nj "$nj" --cmd "$cmd" "${copts[@]}" "${voice%%:*}" "$source_data" \
    "${voice#*:}:$vseed:$conv"
fi
masked=$out
$publish && masked=$dir/masked   # the working dir: original ids, never published
# a finished working dir is kept unless its inputs changed since: other voices (the old voices' audio is never
# published under the new voices' name), other tags or word times (the words the new tags hide are masked)
utils/redo_on_new_inputs.sh "$dir/neutral_inputs" "$masked" --data "$conv" --file "$conv/text" --file "$tagfile" \
  --file "$ctm" --value="$tags" --value="$on_untimed" --value="$mseed"
done_ok "$masked" || steps/mask_words.sh --tags "$tags" --seed "$mseed" --on-untimed "$on_untimed" --nj "$nj" \
  --cmd "$cmd" "$conv" "$tagfile" "$ctm" "$dir" "$masked"
steps/verify_masking.sh --tags "$tags" ${source_data:+--orig-data "$source_data"} --results "$results" --name "$name" \
  --fail-on-leak "$fail_on_leak" "$masked" "$tagfile" "$ctm" "$dir/verify"
if $publish; then
  steps/publish_data.sh --secret-dir "$secret_dir" --seed "$seed" --keep-gender "$keep_gender" \
    --orig-data "$conv ${source_data}" "$masked" "$dir" "$out"
else
  echo "$0: $out keeps the original ids and gender (--publish false: a measurement set, not for publication)"
fi
