#!/usr/bin/env bash
# Train the BiLSTM-CRF entity tagger (flair, offline: corpus-trained gensim word vectors + a character
# dictionary built from the corpus; seed 004 section 4.2.1).
#
# Usage: steps/train_ner.sh [options] <train-data> <dev-data> <model-dir>
#   <train-data>, <dev-data>: data dirs holding tags.conll (or --conll-name), or CoNLL files
#   <model-dir>: gets tagger.pt, ner_config.json, training.log, log/train.log
# Options:
#   --ner-config conf/text/ner.yaml      seed 004 defaults (256 hidden, lr 0.1 halved on plateau, batch 32, 50 epochs);
#                                    conf/text/ner_cpu.yaml is the small demo configuration
#   --conll-name tags.conll          written.conll: the written form with punctuation (mini data dirs)
#   --lowercase false                train on lower-cased tokens (ASR-style input)
#   --nopunct false                  drop punctuation tokens
#   --vectors ""                     local KeyedVectors / word2vec file instead of training vectors
#   --max-epochs ""  --seed 0  --num-threads ""  --cmd "$train_cmd"
set -euo pipefail

ner_config=conf/text/ner.yaml
conll_name=tags.conll
lowercase=false
nopunct=false
vectors=
max_epochs=
seed=0
num_threads=
cmd=${train_cmd:-run.pl}
help_message="Usage: $0 [options] <train-data> <dev-data> <model-dir>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
train=$1
dev=$2
dir=$3

for d in "$train" "$dev"; do
  if [ -d "$d" ]; then
    [ -f "$d/$conll_name" ] || { echo "$0: $d/$conll_name not found" >&2; exit 1; }
  else
    [ -f "$d" ] || { echo "$0: $d is neither a data dir nor a CoNLL file" >&2; exit 1; }
  fi
done
[ -f "$ner_config" ] || { echo "$0: no config $ner_config" >&2; exit 1; }

opts=(--config "$ner_config" --conll-name "$conll_name" --seed "$seed")
[ "$lowercase" = true ] && opts+=(--lowercase)
[ "$nopunct" = true ] && opts+=(--nopunct)
[ -n "$vectors" ] && opts+=(--vectors "$vectors")
[ -n "$max_epochs" ] && opts+=(--max-epochs "$max_epochs")
[ -n "$num_threads" ] && opts+=(--threads "$num_threads")

mkdir -p "$dir/log"
$cmd "$dir/log/train.log" pydeid train-ner "${opts[@]}" "$train" "$dev" "$dir" \
  || { utils/job_failed.sh "$0: training failed" "$dir/log/train.log"; exit 1; }
tail -n 1 "$dir/log/train.log" | grep -v '^#' || true
echo "$0: done: $dir/tagger.pt"
