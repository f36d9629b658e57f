#!/usr/bin/env bash
# Run a pydeid decoding verb over a data dir in --nj jobs of whole speakers (utils/split_data.sh), then join the
# part decode dirs with the verb's --merge: the job plumbing shared by steps/decode_pocketsphinx.sh and
# steps/decode_phones.sh (both verbs take <data> <decode-dir> and --merge <part-dirs>... <decode-dir>).
#
# Usage: utils/split_decode.sh [--nj 1] [--cmd run.pl] [--log-name decode] [--what "decoding"] \
#          <verb> <data> <decode-dir> [<verb options> ...]
#   --log-name   job logs <decode-dir>/log/<log-name>.JOB.log
#   --what       what failed, in the one-line error naming the failed job's log
# The verb options are passed to every job as given (quote them for $cmd, e.g. printf %q, when they hold spaces).
set -euo pipefail
nj=1
cmd=run.pl
log_name=decode
what=decoding
help_message="Usage: $0 [--nj 1] [--cmd run.pl] [--log-name decode] [--what decoding] <verb> <data> <decode-dir> [<verb options>]"
. utils/parse_options.sh
if [ $# -lt 3 ]; then echo "$help_message" >&2; exit 1; fi
verb=$1 data=$2 dir=$3
shift 3
mkdir -p "$dir/log"
nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj" >/dev/null
  $cmd JOB=1:$nj "$dir/log/$log_name.JOB.log" pydeid "$verb" "$@" "$sdata/JOB" "$dir/parts/JOB" || {
    utils/job_failed.sh "$what failed" "$dir/log/$log_name".*.log; exit 1; }
  pydeid "$verb" --merge $(for j in $(seq "$nj"); do echo "$dir/parts/$j"; done) "$dir" | tee "$dir/log/merge.log"
  rm -rf "$dir/parts"
else
  $cmd "$dir/log/$log_name.1.log" pydeid "$verb" "$@" "$data" "$dir" || {
    utils/job_failed.sh "$what failed" "$dir/log/$log_name.1.log"; exit 1; }
  tail -n 1 "$dir/log/$log_name.1.log"
fi
