#!/usr/bin/env bash
# Train an ESPnet CTC/attention ASR model (espnet2 tokenize_text, asr_train --collect_stats, asr_train) on a
# Kaldi data dir. The model and logs land in <exp-dir> the ESPnet way: config.yaml, checkpoints,
# valid.<criterion>.best.pth, RESULTS.md; plus textnorm.json (text normalisation re-applied when decoding/scoring).
# Re-running resumes an interrupted training (ESPnet --resume true); a finished one is left as is.
#
# Usage: steps/train_asr.sh [options] <train-data> <valid-data> <exp-dir>
#   --asr-config conf/asr/small.yaml   model tier: small | transformer | conformer (conf/asr/*.yaml)
#   --token-type char                  char | bpe (sentencepiece unigram, --nbpe units)
#   --nbpe 100
#   --case lower                       lower | upper | keep   (text normalisation, see pydeid/asr/textnorm.py)
#   --keep-punct false                 punctuation is stripped unless true
#   --ngpu 0                           passed to ESPnet; the job asks $cmd for --gpu N
#   --cmd "$cuda_cmd"                  job runner (run.pl, slurm.pl, queue.pl)
#   --max-epoch ""                     override the config's max_epoch
#   --adv-alpha ""                     speaker-adversarial model with this gradient-reversal weight (0, 0.5, 2.0)
#   --seed 0
#   --espnet-args ""                   extra asr_train options, e.g. "--batch_size 8"
set -euo pipefail

asr_config=conf/asr/small.yaml
token_type=char
nbpe=100
case=lower
keep_punct=false
ngpu=0
cmd=${cuda_cmd:-run.pl}
max_epoch=
adv_alpha=
seed=0
espnet_args=
help_message="Usage: $0 [options] <train-data> <valid-data> <exp-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
train=$1
valid=$2
dir=$3

for d in "$train" "$valid"; do
  pydeid validate-data-dir "$d" >/dev/null
done
[ -f "$asr_config" ] || { echo "$0: no such config: $asr_config" >&2; exit 1; }

opts=(--config "$(cd "$(dirname "$asr_config")" && pwd)/$(basename "$asr_config")" --token-type "$token_type"
      --nbpe "$nbpe" --case "$case" --ngpu "$ngpu" --seed "$seed")
[ "$keep_punct" = true ] && opts+=(--keep-punct)
[ -n "$max_epoch" ] && opts+=(--max-epoch "$max_epoch")
[ -n "$adv_alpha" ] && opts+=(--adv-alpha "$adv_alpha")
[ -n "$espnet_args" ] && opts+=(--espnet-args "$espnet_args")

mkdir -p "$dir/log"
gpu_opt=()
[ "$ngpu" -gt 0 ] && gpu_opt=(--gpu "$ngpu")
echo "$0: training $dir (log: $dir/log/train.log)"
$cmd "${gpu_opt[@]}" "$dir/log/train.log" pydeid asr-train "${opts[@]}" "$train" "$valid" "$dir" || {
  utils/job_failed.sh "$0: training failed" "$dir/log/train.log"
  exit 1
}
echo "$0: done: $dir (config.yaml, checkpoints, RESULTS.md)"
