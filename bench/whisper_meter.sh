#!/usr/bin/env bash
# The Whisper meter's choice of default model (bench/results/whisper_meter.md): tiny.en and base, and pocketsphinx
# (general LM) beside them, on speechocean762's 60-utterance utility subset (original speech; the reported part:
# while developing only its first 4 utterances were looked at), the VCTK sample (77 utterances, native speech)
# and librispeech_mini (10 utterances). One job, one CPU thread, niced; every decode resumes.
#
# Usage: bench/whisper_meter.sh [--so762 /work/runs/so762] [--work bench/work/whisper_meter]
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
so762=/work/runs/so762
work=bench/work/whisper_meter
models="tiny.en base"
. utils/parse_options.sh
shared=${PYDEID_SHARED_DATA:-../shared/data}
mkdir -p "$work/data"
[ -d "$work/data/so762_test_wer" ] || cp -r "$so762/data/test_wer" "$work/data/so762_test_wer"
[ -d "$work/data/vctk" ] || cp -r "$so762/data/vctk" "$work/data/vctk"
[ -d "$work/data/librispeech_mini" ] || \
  pydeid prepare-librispeech "$shared/librispeech_mini/LibriSpeech" dev-clean-2 "$work/data/librispeech_mini"
rm -rf "$work/data"/*/split*
sets=${sets:-so762_test_wer vctk librispeech_mini}
pocketsphinx=${pocketsphinx:-true}
for set in $sets; do
  for m in $models; do
    nice -n 10 steps/decode_whisper.sh --model "$m" --nj 1 --cmd run.pl "$work/data/$set" "$work/exp/$set/whisper_$m"
  done
  $pocketsphinx || continue
  d=$work/exp/$set/pocketsphinx
  nice -n 10 steps/decode_pocketsphinx.sh --nj 1 --cmd run.pl "$work/data/$set" "$d"
  pydeid score-wer "$work/data/$set" "$d" | head -n 1
done
python bench/whisper_meter_report.py "$work" bench/results/whisper_meter.md
