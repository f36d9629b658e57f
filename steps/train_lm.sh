#!/usr/bin/env bash
# Train a token-level LM (espnet2 lm_train, LSTM by default) on the normalised transcripts of an ASR exp dir,
# with its token list, for decoding with steps/decode_asr.sh --lm-exp. The ESPnet exp layout lands in
# <lm-exp-dir> (config.yaml, checkpoints, valid.loss.best.pth, train_summary.json with perplexities).
# Re-running resumes an interrupted training; a finished one is left as is.
#
# Usage: steps/train_lm.sh [options] <asr-exp-dir> <lm-exp-dir>
#   --lm-config conf/asr/lm.yaml
#   --max-epoch ""                 override the config's max_epoch
#   --ngpu 0
#   --cmd "$cuda_cmd"
#   --seed 0
set -euo pipefail

lm_config=conf/asr/lm.yaml
max_epoch=
ngpu=0
cmd=${cuda_cmd:-run.pl}
seed=0
help_message="Usage: $0 [options] <asr-exp-dir> <lm-exp-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 2 ]; then
  echo "$help_message" >&2
  exit 1
fi
asr=$1
dir=$2
for f in "$asr/config.yaml" "$asr/data/train/text" "$asr/data/valid/text" "$lm_config"; do
  [ -f "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
opts=(--config "$(cd "$(dirname "$lm_config")" && pwd)/$(basename "$lm_config")" --ngpu "$ngpu" --seed "$seed")
[ -n "$max_epoch" ] && opts+=(--max-epoch "$max_epoch")
gpu_opt=()
[ "$ngpu" -gt 0 ] && gpu_opt=(--gpu "$ngpu")
mkdir -p "$dir/log"
echo "$0: training $dir (log: $dir/log/train.log)"
$cmd "${gpu_opt[@]}" "$dir/log/train.log" pydeid asr-train-lm "${opts[@]}" "$asr" "$dir" || {
  utils/job_failed.sh "$0: LM training failed" "$dir/log/train.log"
  exit 1
}
echo "$0: done: $dir/valid.loss.best.pth"
