#!/usr/bin/env bash
# Spoken pseudonyms: like steps/mask_words.sh, but each masked interval is filled with the surrogate words the
# text transformation wrote for its entity (espeak-ng with the F0 median and level of the surrounding voice,
# time-stretched within limits; optionally its rate fitted to the interval and its spectral envelope and F0
# spread matched; the interval grows or shrinks and later word times shift). The output text is the transformed text, aligned with the audio; words.ctm gives every
# word's time (surrogates included); tags.conll the transformed tags.
#
# Usage: steps/mask_spoken.sh [options] <in-data> <tags.conll> <transformed-tags.conll> <word-ctm> <exp-dir> <out-data>
#   <in-data>                 the voices to publish (e.g. converted: data/x_vtln3)
#   <tags.conll>              original tags (the entities to hide)
#   <transformed-tags.conll>  steps/transform_text.sh output made from the same tags (<out>/tags.conll)
#   <word-ctm>                utterance-relative word times of the original words
#   --tags all (every type the detectors can emit; or a narrower list, named in the log)  --pad 0.1  --absorb-gaps true
#   --seed ""              empty: the surrogate voices are drawn from the publisher's key in --secret-dir (random
#                          at the first run, reused after); N: reproducible, replayable by anyone knowing N
#   --min-stretch 0.8 --max-stretch 1.25   time-stretch limits of an insert
#   --fit-rate false --rate-limits 100,320  true: espeak rate chosen per insert to fit the interval (then stretch)
#   --match-spectrum false --match-f0-range false  true: insert's envelope and F0 spread -> the surrounding speech's
#                          (off by default: on mini the ASR trained on the fill did worse with them, README)
#   --noise-floor false    true: every interval gets seeded synthetic noise like the utterance's noise floor
#   --accents english      espeak-ng accents the surrogate voice is drawn from per utterance (comma list;
#                          english: the eight English ones; en-us: the single accent of sessions 1-6)
#   --overwrite false      true: redo utterances already written (e.g. after changing an option)
#   --secret-dir <exp-dir>/secrets      per-utterance plans (surrogate voices, original times): 0600, outside corpora
#   --nj 1 --cmd "$train_cmd"
# Resumable: a rerun with the same inputs and options only makes the missing utterances; on other inputs (audio,
# tags, surrogates, word times, options) <out-data> is made again (utils/redo_on_new_inputs.sh).
# Check with: pydeid verify-spoken --secret-dir <secret-dir> <out-data> <tags.conll> <reference-ctm>
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
tags=all
pad=0.1
absorb_gaps=true
seed=
min_stretch=0.8
max_stretch=1.25
fit_rate=false
rate_limits=100,320
match_spectrum=false
match_f0_range=false
accents=english
noise_floor=false
secret_dir=
overwrite=false
help_message="Usage: $0 [options] <in-data> <tags.conll> <transformed-tags.conll> <word-ctm> <exp-dir> <out-data>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 6 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
tags_file=$2
trans_tags=$3
ctm=$4
dir=$5
out=$6
[ -n "$secret_dir" ] || secret_dir=$dir/secrets
seed=$(utils/publisher_seed.sh "$seed" spoken-fill "$secret_dir" "$data" "$out") || exit 1

pydeid validate-data-dir "$data" >/dev/null
utils/claim_exp_dir.sh "$dir" "$out" || exit 1   # the exp dir holds this output's logs and report, no other's
rm -rf "$(dirname "$out")/.$(basename "$out").partial"   # a killed run's temp files (outside <out-data>)
for f in "$tags_file" "$trans_tags" "$ctm"; do
  [ -f "$f" ] || { echo "$0: no such file: $f" >&2; exit 1; }
done
opts=(--tags "$tags" --pad "$pad" --absorb-gaps "$absorb_gaps" --seed "$seed" --min-stretch "$min_stretch"
      --max-stretch "$max_stretch" --fit-rate "$fit_rate" --rate-limits "$rate_limits"
      --match-spectrum "$match_spectrum" --match-f0-range "$match_f0_range" --accents "$accents" --noise-floor "$noise_floor" --secret-dir "$secret_dir" --wav-dir "$out/wav"
      --overwrite "$overwrite")
# other inputs than the last run's (the voices converted again, other tags, surrogates or word times, other
# options): made again, never resumed
utils/redo_on_new_inputs.sh "$dir/inputs" "$out" --data "$data" --file "$data/text" --file "$tags_file" \
  --file "$trans_tags" --file "$ctm" "${opts[@]/#/--value=}"
mkdir -p "$dir/log"
# every utterance's inputs checked first (CTM, transformed tags, no insert saying an original of its dialogue):
# a refusal leaves nothing behind, whichever job holds the utterance
pydeid mask-spoken "${opts[@]}" --check-only true "$data" "$tags_file" "$trans_tags" "$ctm" "$out" \
  >"$dir/log/check.log" 2>&1 || { utils/job_failed.sh "$0: spoken fill refused" "$dir/log/check.log"; exit 1; }

nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj"
  $cmd JOB=1:$nj "$dir/log/spoken.JOB.log" \
    pydeid mask-spoken "${opts[@]}" "$sdata/JOB" "$tags_file" "$trans_tags" "$ctm" "$dir/parts/JOB" || {
      utils/job_failed.sh "$0: spoken fill failed" "$dir/log"/spoken.*.log; exit 1; }
  rm -rf "$dir/parts"
fi
pydeid mask-spoken "${opts[@]}" --report "$dir/report.json" "$data" "$tags_file" "$trans_tags" "$ctm" "$out" \
  >"$dir/log/spoken.log" 2>&1 || {
    utils/job_failed.sh "$0: spoken fill failed" "$dir/log/spoken.log"; exit 1; }
pydeid validate-data-dir "$out" >/dev/null
rm -rf "$(dirname "$out")/.$(basename "$out").partial"
grep -h "hidden types:" "$dir/log/spoken.log" | tail -n 1
tail -n 1 "$dir/log/spoken.log"
