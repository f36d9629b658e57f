#!/usr/bin/env bash
# Decode a Kaldi data dir with a model trained by steps/train_asr.sh (espnet2 asr_inference, CTC/attention beam
# search, optionally with a token LM: --lm-exp), in --nj parallel jobs through $cmd; hypotheses merged into <decode-dir>/text and, when
# pydeid.align.ctc is available, hypothesis word timings into <decode-dir>/hyp.ctm (CTC forced alignment of
# the hypothesis with the same model). Score with steps/score.sh.
#
# Usage: steps/decode_asr.sh [options] <exp-dir> <data> <decode-dir>
#   --nj 1                 parallel jobs (the data dir is split with utils/split_data.sh when > 1)
#   --cmd "$decode_cmd"
#   --beam-size ""         default: <exp-dir>/decode.yaml (the tier's conf/asr/<tier>_decode.yaml), else 4
#   --ctc-weight ""        default: <exp-dir>/decode.yaml, else 0.3 (the small tier decodes with 1.0)
#   --penalty 0.0          insertion bonus
#   --lm-exp ""            token LM from steps/train_lm.sh (trained on the transcripts of <exp-dir>)
#   --lm-weight ""         default: <exp-dir>/decode.yaml, else 1.0
#   --ngpu 0
#   --model ""            model file inside <exp-dir> (or an absolute path); default: the best checkpoint by the
#                          first best_model_criterion of <exp-dir>/config.yaml (pydeid/asr/checkpoints.py)
#   --ctm true             write hyp.ctm
#   --reuse true           keep <decode-dir> if it already holds this decoding: same model file, data, options
#                          and LM, nothing changed since (pydeid asr-decode --check-current); false: decode again
set -euo pipefail

nj=1
cmd=${decode_cmd:-run.pl}
beam_size=
ctc_weight=
penalty=0.0
lm_exp=
lm_weight=
ngpu=0
model=
ctm=true
reuse=true
help_message="Usage: $0 [options] <exp-dir> <data> <decode-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
exp=$1
data=$2
dir=$3

for f in "$exp/config.yaml" "$exp/textnorm.json"; do
  [ -f "$f" ] || { echo "$0: missing $f (train with steps/train_asr.sh first)" >&2; exit 1; }
done
pydeid validate-data-dir --no-text "$data" >/dev/null

opts=(--penalty "$penalty" --ngpu "$ngpu")
[ -n "$model" ] && opts+=(--model "$model")
if [ -n "$lm_exp" ]; then
  [ -f "$lm_exp/valid.loss.best.pth" ] || { echo "$0: no LM in $lm_exp (steps/train_lm.sh)" >&2; exit 1; }
  opts+=(--lm-exp "$lm_exp")
  [ -n "$lm_weight" ] && opts+=(--lm-weight "$lm_weight")
fi
[ -n "$beam_size" ] && opts+=(--beam-size "$beam_size")
[ -n "$ctc_weight" ] && opts+=(--ctc-weight "$ctc_weight")
[ "$ctm" = true ] || opts+=(--no-ctm)
gpu_opt=()
[ "$ngpu" -gt 0 ] && gpu_opt=(--gpu "$ngpu")

if [ "$reuse" = true ] && why=$(pydeid asr-decode --check-current "${opts[@]}" "$exp" "$data" "$dir" 2>&1); then
  echo "$0: kept $dir (${why#*: current: })"
  exit 0
fi
rm -f "$dir/decode_info.json"   # written last: a decoding that fails now never looks finished
mkdir -p "$dir/log"
nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk  # utils/split_data.sh keeps speakers whole
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj"
  $cmd "${gpu_opt[@]}" JOB=1:$nj "$dir/log/decode.JOB.log" \
    pydeid asr-decode "${opts[@]}" "$exp" "$sdata/JOB" "$dir/split$nj/JOB" || {
      utils/job_failed.sh "$0: decoding failed" "$dir/log"/decode.*.log; exit 1; }
  parts=()
  for n in $(seq "$nj"); do parts+=("$dir/split$nj/$n"); done
  pydeid asr-decode-merge "$dir" "${parts[@]}"
else
  $cmd "${gpu_opt[@]}" "$dir/log/decode.1.log" pydeid asr-decode "${opts[@]}" "$exp" "$data" "$dir" || {
    utils/job_failed.sh "$0: decoding failed" "$dir/log/decode.1.log"; exit 1; }
fi
echo "$0: hypotheses in $dir/text$( [ -s "$dir/hyp.ctm" ] && echo ", word timings in $dir/hyp.ctm")"
