#!/usr/bin/env bash
# Train the attacker's speaker-embedding network (speechbrain x-vector TDNN or ECAPA-TDNN on filterbanks) from
# scratch on the speakers of a data dir. Writes <model-dir>/config.yaml, embedding_model.ckpt and
# train_summary.json; a model dir that already holds a checkpoint is left as is (delete it to retrain).
#
# Usage: steps/train_xvector.sh [options] <train-data> <model-dir>
#   --xvector-config conf/xvector/xvector.yaml   architecture and training options (conf/xvector/*.yaml)
#   --seed 0                                     same data + config + seed -> same model
#   --epochs ""                                  override the config's number of epochs
#   --vad ""                                     override the config's front-end: energy (Kaldi compute-vad,
#                                                the default) or none
#   --num-threads ""                             torch CPU threads (default: torch's choice)
#   --cmd "$train_cmd"                           job runner (run.pl, slurm.pl, queue.pl)
set -euo pipefail

xvector_config=conf/xvector/xvector.yaml
seed=0
epochs=
vad=
num_threads=
cmd=${train_cmd:-run.pl}
help_message="Usage: $0 [options] <train-data> <model-dir>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 2 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
dir=$2

pydeid validate-data-dir "$data" >/dev/null
[ -f "$xvector_config" ] || { echo "$0: no such config: $xvector_config" >&2; exit 1; }
if [ -f "$dir/embedding_model.ckpt" ]; then
  echo "$0: $dir already holds a trained model: skipping (delete it to retrain)"
  exit 0
fi
opts=(--config "$xvector_config" --seed "$seed")
[ -n "$epochs" ] && opts+=(--epochs "$epochs")
[ -n "$vad" ] && opts+=(--vad "$vad")
[ -n "$num_threads" ] && opts+=(--num-threads "$num_threads")
mkdir -p "$dir/log"
echo "$0: training $dir on $data (log: $dir/log/train.log)"
thread_opt=()
[ -n "$num_threads" ] && thread_opt=(--num-threads "$num_threads")
$cmd "${thread_opt[@]}" "$dir/log/train.log" pydeid train-xvector "${opts[@]}" "$data" "$dir" || {
  utils/job_failed.sh "$0: training failed" "$dir/log/train.log"
  exit 1
}
tail -n 1 "$dir/log/train.log" | grep -v '^#' || true
