#!/usr/bin/env bash
# Embed every utterance of a data dir with an attacker model (steps/train_xvector.sh output) into Kaldi
# ark/scp written with kaldiio: <xvector-dir>/xvector.scp (per utterance), spk_xvector.scp (mean per speaker,
# with num_utts.ark), plus copies of utt2spk and the gender tables. Jobs split the data by speaker
# (utils/split_data.sh); a job whose output already covers exactly the same data and model is skipped, so an
# interrupted run resumes.
#
# Usage: steps/extract_xvectors.sh [options] <model-dir> <data> <xvector-dir>
#   --nj 1                 parallel jobs
#   --num-threads 1        torch CPU threads per job
#   --cmd "$train_cmd"     job runner (run.pl, slurm.pl, queue.pl)
set -euo pipefail

nj=1
num_threads=1
cmd=${train_cmd:-run.pl}
help_message="Usage: $0 [options] <model-dir> <data> <xvector-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
model=$1
data=$2
dir=$3

pydeid validate-data-dir "$data" >/dev/null
for f in config.yaml embedding_model.ckpt; do
  [ -f "$model/$f" ] || { echo "$0: $model/$f is missing: not an attacker model dir (steps/train_xvector.sh)" >&2; exit 1; }
done
nspk=$(wc -l < "$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
mkdir -p "$dir/log"
if [ "$nj" -gt 1 ]; then
  utils/split_data.sh "$data" "$nj" >/dev/null
  sdata=$data/split$nj/JOB
else
  sdata=$data
fi
echo "$0: embedding $data with $model into $dir ($nj jobs, logs: $dir/log/extract.*.log)"
$cmd --num-threads "$num_threads" JOB=1:"$nj" "$dir/log/extract.JOB.log" \
  pydeid extract-xvectors --job JOB --num-threads "$num_threads" "$model" "$sdata" "$dir" || {
  utils/job_failed.sh "$0: extraction failed" "$dir/log"/extract.*.log
  exit 1
}
pydeid extract-xvectors --finalize "$nj" "$model" "$data" "$dir"
