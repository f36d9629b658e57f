#!/usr/bin/env bash
# The secure voice builder (seed 004 A.7): silence the tagged words in the audio of a data dir (original or
# converted voices) and remove them from its text (or replace them with a mask token) -> a new data dir.
#
# Usage: steps/mask_words.sh [options] <in-data> <tags.conll> <word-ctm> <exp-dir> <out-data>
#   <tags.conll>   BIO tags, one sentence per utterance ("# id = <utt>"), e.g. <in-data>/tags.conll
#   <word-ctm>     utterance-relative word times, e.g. <ali-dir>/wrd_ali/ctm (steps/align.sh) or a gold CTM
#   --tags all          entity types to hide: all = every type the detectors can emit (categories, EMAIL, PHONE
#                       included); a narrower comma list (PER,LOC,...) is named in the log and report.json
#   --pad 0.1           seconds added on both sides of each entity (pocketsphinx CTM on mini: 3 leaks in 205
#                       entities at 0.1, 9 at 0.05, 46 at 0)
#   --absorb-gaps true  extend each mask over the pauses up to the neighbouring words
#   --fill silence      silence | noise (white noise at --noise-dbfs RMS, seeded per utterance by --seed)
#   --noise-dbfs -70
#   --seed ""           empty: the seed is drawn from the publisher's key in --secret-dir (random at the first
#                       run, reused after: utils/publisher_seed.sh); N: reproducible, replayable by anyone knowing N
#   --secret-dir <exp-dir>/secrets   where the publisher's key is kept (0600, never inside a corpus)
#   --text-mode remove  remove | replace (by --mask-token, "{tag}" -> entity type)
#   --mask-token "<mask>"
#   --on-untimed error  error | drop: an utterance whose tagged words have no CTM entry (failed alignment)
#   --nj 1 --cmd "$train_cmd"
# Output: <out-data> with wav.scp -> <out-data>/wav/<utt>.wav (new audio only), masked text, utt2spk, genders;
# no tags.conll / words.ctm (they hold the original words). Logs and report.json in <exp-dir>.
# Resumable: a rerun with the same inputs and options only writes the missing wavs; on other inputs (the voices
# converted again, other tags, word times or options) <out-data> is made again (utils/redo_on_new_inputs.sh).
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
tags=all
pad=0.1
absorb_gaps=true
fill=silence
noise_dbfs=-70
seed=
secret_dir=
text_mode=remove
mask_token="<mask>"
on_untimed=error
help_message="Usage: $0 [options] <in-data> <tags.conll> <word-ctm> <exp-dir> <out-data>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 5 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
tags_file=$2
ctm=$3
dir=$4
out=$5
[ -n "$secret_dir" ] || secret_dir=$dir/secrets
seed=$(utils/publisher_seed.sh "$seed" masking-noise "$secret_dir" "$data" "$out") || exit 1

pydeid validate-data-dir "$data" >/dev/null
utils/claim_exp_dir.sh "$dir" "$out" || exit 1   # the exp dir holds this output's logs and report, no other's
# temp files are written outside <out-data> (pydeid.io.atomic.partial_dir): a killed run's are removed here
rm -rf "$(dirname "$out")/.$(basename "$out").partial"
for f in "$tags_file" "$ctm"; do
  [ -f "$f" ] || { echo "$0: no such file: $f" >&2; exit 1; }
done
opts=(--tags "$tags" --pad "$pad" --absorb-gaps "$absorb_gaps" --fill "$fill" --noise-dbfs "$noise_dbfs"
      --seed "$seed" --text-mode "$text_mode" --mask-token "$mask_token" --on-untimed "$on_untimed"
      --wav-dir "$out/wav")
# other inputs than the last run's (the voices converted again, other tags or word times, other options): made
# again, never resumed
utils/redo_on_new_inputs.sh "$dir/inputs" "$out" --data "$data" --file "$data/text" --file "$tags_file" \
  --file "$ctm" "${opts[@]/#/--value=}"
mkdir -p "$dir/log"

nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj"
  # each job writes its wavs into <out-data>/wav; the final pass below finds them and writes the tables
  # $cmd hands its command to a shell: quote the option values ("<mask>" would be a redirection)
  qopts=()
  for o in "${opts[@]}"; do qopts+=("$(printf '%q' "$o")"); done
  $cmd JOB=1:$nj "$dir/log/mask.JOB.log" \
    pydeid mask-words "${qopts[@]}" "$sdata/JOB" "$tags_file" "$ctm" "$dir/parts/JOB" || {
      utils/job_failed.sh "$0: masking failed" "$dir/log"/mask.*.log; exit 1; }
  rm -rf "$dir/parts"
fi
pydeid mask-words "${opts[@]}" --report "$dir/report.json" "$data" "$tags_file" "$ctm" "$out" \
  >"$dir/log/mask.log" 2>&1 || {
    utils/job_failed.sh "$0: masking failed" "$dir/log/mask.log"; exit 1; }
pydeid validate-data-dir "$out" >/dev/null
rm -rf "$(dirname "$out")/.$(basename "$out").partial"
grep -h "hidden types:" "$dir/log/mask.log" | tail -n 1
tail -n 1 "$dir/log/mask.log"
