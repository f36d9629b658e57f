#!/usr/bin/env bash
# The phone alignment a phone-class VTLN config (conf/voice/vtln_ph*.yaml, `classes: phones`) needs of a data dir:
# steps/align.sh --backend pocketsphinx --phones true into <ali-dir>, skipped when <ali-dir> is current.
# steps/transform_voice_vtln_outputs.sh --phone-ali-root calls it for the converted set and for the target voices.
#
# Usage: steps/align_phones_for_vtln.sh [options] <data> <ali-dir>
#   --nj 1 --cmd "$train_cmd"   passed to steps/align.sh
#   --model en-us               pocketsphinx model (steps/align.sh's <lang-or-model>)
#   --max-failed 0.1            largest fraction of <data>'s utterances the aligner may fail on; more is an error
#                               (a set whose transcripts do not match its audio). The utterances it fails on are
#                               converted with the pooled class (pydeid transform-voice warns and counts them)
# Needs <data>/text (the transcripts). A word missing from the pocketsphinx dictionary gets a pronunciation from
# the offline neural G2P (pydeid.align.g2p; counted and listed in <ali-dir>/report.json: g2p_tokens, g2p_words),
# a token without letters (a symbol) is aligned as unknown speech ([SPEECH], a filler): its frames, like silence
# and the frames of a failed utterance, carry no phone label and take the pooled class, never another phone's.
# Output: <ali-dir>/phn_ali/ctm, wrd_ali/ctm, report.json (steps/align.sh). Current when report.json and the
# phone CTM exist, are newer than <data>/text and <data>/wav.scp, and the report counts every utterance of <data>.
# The alignment runs in <ali-dir>.tmp and replaces <ali-dir> only when it succeeded (within --max-failed): a failed,
# rejected or interrupted run leaves no partial <ali-dir> (its logs and report stay in <ali-dir>.tmp).
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
model=en-us
max_failed=0.1
help_message="Usage: $0 [--nj 1] [--cmd run.pl] [--model en-us] [--max-failed 0.1] <data> <ali-dir>"
. utils/parse_options.sh

if [ $# -ne 2 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=${1%/} dir=${2%/}
[ -s "$data/text" ] || { echo "$0: $data/text: missing or empty; a phone alignment needs the transcripts" >&2; exit 1; }
awk -v f="$max_failed" 'BEGIN{exit !(f ~ /^[0-9]*\.?[0-9]+$/ && f + 0 <= 1)}' ||
  { echo "$0: --max-failed must be a fraction in [0, 1], got '$max_failed'" >&2; exit 1; }

report() {  # report <ali-dir>: "<utterances> <aligned> <failed> <g2p words>" of its report.json
  python3 - "$1/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = r["counts"]
print(c.get("utterances", 0), c.get("aligned", 0), c.get("failed", 0), len(r.get("g2p_words", {})))
PY
}
nutt=$(wc -l <"$data/text")
current() {
  [ -s "$dir/report.json" ] && [ -f "$dir/phn_ali/ctm" ] && [ "$dir/report.json" -nt "$data/text" ] &&
    [ "$dir/report.json" -nt "$data/wav.scp" ] && [ "$(report "$dir" | cut -d' ' -f1)" = "$nutt" ]
}
src=$dir
if ! current; then
  rm -rf "$dir.tmp"
  mkdir -p "$(dirname "$dir")"
  steps/align.sh --backend pocketsphinx --phones true --nj "$nj" --cmd "$cmd" "$data" "$model" "$dir.tmp" >/dev/null
  src=$dir.tmp
fi
read -r n ok failed g2p < <(report "$src")
if awk -v f="$failed" -v n="$n" -v m="$max_failed" 'BEGIN{exit !(f > m * n)}'; then
  first=$(python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["failed"]; u = min(f); print(f"{u}: {f[u]}")' \
    "$src/report.json")
  echo "$0: $data: the aligner failed on $failed of $n utterances, more than --max-failed $max_failed (first: $first; $src/report.json)" >&2
  exit 1
fi
if [ "$src" != "$dir" ]; then
  rm -rf "$dir"
  mv "$dir.tmp" "$dir"
fi
how=made; [ "$src" = "$dir" ] && how=current
echo "$0: $dir ($how): phone alignment of $ok/$n utterances of $data (failed $failed: converted with the pooled class; G2P pronunciations for $g2p words)"
