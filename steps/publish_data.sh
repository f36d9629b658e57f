#!/usr/bin/env bash
# The published copy of a data dir: speaker, utterance and recording ids replaced by keyed pseudonyms (HMAC under
# the publisher's key; the same in every data dir published with the same key), audio files renamed after them,
# gender/age tables and every non-Kaldi file (tags, CTMs, configs) left out, the id map kept as a secret (0600,
# <secret-dir>, refused inside a corpus). Then every file of <out-data> (names, lines, audio header metadata) is
# searched for every original id of <in-data> and --orig-data: one line naming the file and line if one is left.
#
# Usage: steps/publish_data.sh [options] <in-data> <exp-dir> <out-data>
#   --secret-dir exp/secrets   the publisher's key (publisher.key, drawn at the first run) and the id maps
#   --seed ""                  empty: the publisher's key; N: ids anyone who knows N can recompute (experiments)
#   --keep-gender false        true: utt2gender/spk2gender published too (the report says so)
#   --orig-data ""             more data dirs whose ids must not appear (space-separated; e.g. the original source)
# Output: <out-data>; <exp-dir>/publish/publish.json (ids, gender, key: who can replay the draws) and its log.
set -euo pipefail

secret_dir=exp/secrets
seed=
keep_gender=false
orig_data=
help_message="Usage: $0 [options] <in-data> <exp-dir> <out-data>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1 dir=$2 out=$3
utils/claim_exp_dir.sh "$dir/publish" "$out" || exit 1   # one published dir per exp folder
opts=(--secret-dir "$secret_dir" --seed "$seed" --keep-gender "$keep_gender" --report "$dir/publish/publish.json")
for o in $orig_data; do opts+=(--orig-data "$o"); done
pydeid publish-data-dir "${opts[@]}" "$data" "$out" >"$dir/publish/publish.log" 2>&1 || {
  utils/job_failed.sh "$0: publishing failed" "$dir/publish/publish.log"; exit 1; }
utils/validate_data_dir.sh "$out" >/dev/null
grep -v " INFO: " "$dir/publish/publish.log" | tail -n 3
