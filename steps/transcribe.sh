#!/usr/bin/env bash
# Transcribe a data dir with the Whisper meter and write a NEW data dir whose text is the hypothesis, with a word
# CTM: the start of the chain for recordings without reference transcripts.
#
# Usage: steps/transcribe.sh [options] <data> <exp-dir> <out-data>
#   --words-from whisper   whisper: Whisper's word timestamps | align: the forced aligner (steps/align.sh,
#                          pocketsphinx en-us) run on the hypothesis
#   --model tiny.en        tiny.en | base
#   --case lower           lower | upper | keep: case of the new text (the corpus's convention)
#   --nj 1  --cmd "$decode_cmd"
# Writes <exp-dir>/{hyp.txt,text,words.ctm,guards.tsv,decode_whisper.json,rtf} (steps/decode_whisper.sh; with
# wer and per_utt when <data> has references), <exp-dir>/wrd_ali/ctm (the new text's words and times, the path
# convention of steps/align.sh; with --words-from whisper its 6th field is Whisper's word probability, which
# steps/mask_from_asr.sh --hide-below-conf reads) and <out-data>: <data>'s audio and speaker tables, text = the hypothesis
# (punctuation removed, numbers spelled); the reference transcript's side files are not copied.
set -euo pipefail
words_from=whisper
model=tiny.en
case=lower
nj=1
cmd=${decode_cmd:-run.pl}
help_message="Usage: $0 [--words-from whisper|align] [--model tiny.en|base] [--case lower|upper|keep] [--nj N] [--cmd CMD] <data> <exp-dir> <out-data>"
. utils/parse_options.sh
if [ $# -ne 3 ]; then echo "$help_message" >&2; exit 1; fi
data=$1; dir=$2; out=$3
case $words_from in whisper|align) ;; *) echo "$0: --words-from must be whisper or align, not '$words_from'" >&2; exit 1;; esac
case $case in lower|upper|keep) ;; *) echo "$0: --case must be lower, upper or keep, not '$case'" >&2; exit 1;; esac
steps/decode_whisper.sh --model "$model" --nj "$nj" --cmd "$cmd" "$data" "$dir"
mkdir -p "$dir/wrd_ali"
if [ "$words_from" = whisper ]; then
  pydeid whisper-data-dir --case "$case" --ctm "$dir/wrd_ali/ctm" "$data" "$dir" "$out"
else
  pydeid whisper-data-dir --case "$case" "$data" "$dir" "$out"
  # the aligner writes <dir>/wrd_ali/ctm; its phone pass is not needed for word times
  steps/align.sh --nj "$nj" --cmd "$cmd" --phones false "$out" en-us "$dir"
fi
echo "$0: $out (text = Whisper $model hypotheses), word times in $dir/wrd_ali/ctm (from $words_from)"
