#!/usr/bin/env bash
# Decode a data dir with the pretrained Whisper meter (faster-whisper, int8 CPU, beam 5, temperature 0, guarded
# against repetition loops; weights from installed packages, no download) and score it when the data has text.
#
# Usage: steps/decode_whisper.sh [options] <data> <exp-dir>
#   --model tiny.en    tiny.en | base
#   --nj 1  --cmd "$decode_cmd"   (whole speakers per job; one CPU thread per job)
#   --same-audio-as "" "<data> <decode-dir>" of another condition (e.g. the conversion a masked set was made
#                      from): an utterance whose audio is identical there takes that hypothesis (deterministic
#                      decoding), counted as copied in decode_whisper.json
#   --cache-dir ""     where base's two package parts are joined once (default $PYDEID_WHISPER_CACHE or
#                      $XDG_CACHE_HOME/pydeid/whisper)
# Writes <exp-dir>/hyp.txt (Whisper's raw text), text (normalised: lower case, no punctuation, numbers spelled),
# words.ctm, guards.tsv (utterances a loop guard changed), decode_whisper.json, rtf, and with references
# wer (+ speaker-bootstrap 95 % interval), per_utt (Kaldi alignment), scoring/. Resumes per utterance: a rerun
# decodes only the utterances it lacks (results.jsonl of the earlier run, same model and audio entries).
set -euo pipefail
model=tiny.en
nj=1
cmd=${decode_cmd:-run.pl}
cache_dir=
same_audio_as=
help_message="Usage: $0 [--model tiny.en|base] [--nj N] [--cmd CMD] [--cache-dir DIR] <data> <exp-dir>"
. utils/parse_options.sh
if [ $# -ne 2 ]; then echo "$help_message" >&2; exit 1; fi
data=$1; dir=$2
case $model in tiny.en|base) ;; *) echo "$0: --model must be tiny.en or base, not '$model'" >&2; exit 1;; esac
pydeid validate-data-dir --no-text "$data" >/dev/null
mkdir -p "$dir"
opts=(--model "$model")
[ -n "$cache_dir" ] && opts+=(--cache-dir "$(printf '%q' "$cache_dir")")
if [ -n "$same_audio_as" ]; then
  read -r sa_data sa_dir <<<"$same_audio_as"
  [ -n "$sa_dir" ] || { echo "$0: --same-audio-as takes \"<data> <decode-dir>\", got '$same_audio_as'" >&2; exit 1; }
  opts+=(--same-audio-as "$(printf '%q' "$sa_data")" "$(printf '%q' "$sa_dir")")
fi
# the merged journal of an earlier run is reused unless the audio list changed since
if [ -s "$dir/results.jsonl" ] && [ "$dir/results.jsonl" -nt "$data/wav.scp" ] \
   && { [ ! -f "$data/segments" ] || [ "$dir/results.jsonl" -nt "$data/segments" ]; }; then
  cp "$dir/results.jsonl" "$dir/reuse.jsonl"
  opts+=(--reuse "$(printf '%q' "$dir/reuse.jsonl")")
fi
utils/split_decode.sh --nj "$nj" --cmd "$cmd" --log-name decode --what "$0: decoding" \
  decode-whisper "$data" "$dir" "${opts[@]}"
rm -f "$dir/reuse.jsonl"
if [ -s "$data/text" ]; then
  pydeid score-wer "$data" "$dir" >"$dir/log/score.log"
  head -n 1 "$dir/wer"
fi
