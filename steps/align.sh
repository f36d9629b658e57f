#!/usr/bin/env bash
# Forced alignment of a data dir and its transcripts (seed 004 A.4): word-level and phone-level CTMs.
#
# Usage: steps/align.sh [options] <data> <lang-or-model> <ali-dir>
#   <lang-or-model>  pocketsphinx: "en-us" (acoustic model + CMU dictionary shipped in the pocketsphinx wheel)
#                    or a dir with mdef (or hmm/) and dict;  ctc: an ESPnet exp dir (config.yaml + *.pth)
#   --backend pocketsphinx   pocketsphinx | ctc
#   --nj 1                   parallel jobs (whole speakers per job, utils/split_data.sh)
#   --cmd "$train_cmd"
#   --model-file ""          ctc: the .pth to use (default: best checkpoint by config.yaml's first best_model_criterion)
#   --extra-dict ""          pocketsphinx: extra pronunciations, "word PH ON ES" per line
#   --phones true            pocketsphinx: false skips the phone pass (empty phn_ali/ctm, ~3x faster)
#   --gold-ctm ""            also score word boundaries against this CTM (pydeid align-accuracy)
#   --results ""             RESULTS.md to update with that score
# Output (times in seconds relative to the utterance start, channel 1, keyed by utterance id):
#   <ali-dir>/wrd_ali/ctm    one line per transcript word (edge punctuation removed, case kept) and per
#                            aligned non-verbal token ([noise] ...)
#   <ali-dir>/phn_ali/ctm    one line per phone incl. SIL and fillers (ctc: per model token)
#   <ali-dir>/report.json    counts: aligned/failed utterances, G2P words, non-verbal tokens, punctuation, RTF
#   <ali-dir>/log/
# Jobs resume: a rerun skips parts whose report.json is newer than their data.
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
backend=pocketsphinx
model_file=
extra_dict=
phones=true
gold_ctm=
results=
help_message="Usage: $0 [options] <data> <lang-or-model> <ali-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
model=$2
dir=$3

pydeid validate-data-dir "$data" >/dev/null
opts=(--backend "$backend")
[ -n "$model_file" ] && opts+=(--model-file "$model_file")
[ -n "$extra_dict" ] && opts+=(--extra-dict "$extra_dict")
[ "$phones" = false ] && opts+=(--no-phones)
mkdir -p "$dir/log"
# $cmd hands its command line to a shell: quote the option values
qopts=()
for o in "${opts[@]}"; do qopts+=("$(printf '%q' "$o")"); done

nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj"
  $cmd JOB=1:$nj "$dir/log/align.JOB.log" \
    pydeid align "${qopts[@]}" --resume "$sdata/JOB" "$(printf '%q' "$model")" "$dir/parts/JOB" || {
      utils/job_failed.sh "$0: alignment failed" "$dir/log"/align.*.log; exit 1; }
  parts=()
  for n in $(seq "$nj"); do parts+=("$dir/parts/$n"); done
  pydeid align-merge "$dir" "${parts[@]}" >"$dir/log/merge.log" 2>&1 || {
    utils/job_failed.sh "$0: merging failed" "$dir/log/merge.log"; exit 1; }
  rm -rf "$dir/parts"
else
  $cmd "$dir/log/align.1.log" pydeid align "${qopts[@]}" "$(printf '%q' "$data")" "$(printf '%q' "$model")" \
    "$(printf '%q' "$dir")" || {
    utils/job_failed.sh "$0: alignment failed" "$dir/log/align.1.log"; exit 1; }
fi
python3 - "$dir/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = r["counts"]
print(f"{sys.argv[1].rsplit('/', 1)[0]}: aligned {c.get('aligned', 0)}/{c.get('utterances', 0)} utterances "
      f"(failed {c.get('failed', 0)}), {c.get('g2p_tokens', 0)} tokens needed G2P ({len(r['g2p_words'])} words), "
      f"non-verbal {c.get('nonverbal_tokens', 0)} (aligned {c.get('nonverbal_aligned', 0)}, absorbed in silence "
      f"{c.get('nonverbal_unplaced', 0)}), punctuation tokens {c.get('punctuation_tokens', 0)}")
PY
if [ -n "$gold_ctm" ]; then
  res_opts=()
  [ -n "$results" ] && res_opts+=(--results "$results" --name "$backend: $dir")
  pydeid align-accuracy "${res_opts[@]}" "$gold_ctm" "$dir/wrd_ali/ctm" | tee "$dir/accuracy.json"
fi
echo "$0: word CTM $dir/wrd_ali/ctm, phone CTM $dir/phn_ali/ctm"
