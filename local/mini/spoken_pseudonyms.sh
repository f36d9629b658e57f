#!/usr/bin/env bash
# Spoken pseudonyms on mini (issue 20): the neutral corpus in both modes -- silence (run.sh stage 5, the seed's
# secure voice builder) and spoken surrogates (steps/mask_spoken.sh) -- an ESPnet model trained on each, decoded on
# the original and on the transformed test set, and NER phrase F1 of the tagger on each model's ASR output.
# Runs AFTER run.sh stages 0-6, on their data/ and exp/ (from egs/mini/s5). Idempotent.
#
#   1  mini_test's text transformed with its gold tags (train/dev already are, stage 3)
#   2  spoken fill of the neutral voices (data/<set>_<neutral voice>) of mini_train/dev/test -> data/<set>_spoken;
#      verify-spoken on each (any sample inside an interval that is neither the re-rendered insert nor silence,
#      or an entity outside every interval, stops the script)
#   3  ESPnet (same tier, epochs and LM recipe as stage 6) trained on mini_train_spoken
#   4  decodings: the three models on the original mini_test, each neutral model on its own transformed mini_test
#      (the original model too, on both), scoring, tagging of the ASR output, table 'spoken-pseudonyms'
#
# Usage (from egs/mini/s5): local/mini/spoken_pseudonyms.sh [--seed 0] [--nj 2] [--stage 1] [--stop-stage 4]
set -euo pipefail

stage=1
stop_stage=100
seed=0
nj=2
neutral_voice=vtln:3
mask_tags=PER,LOC,ORG,DATE,TIME,NUM
text_strategy="PER=pseudonymize,NUM=random_digits,default=same_type"
asr_config=conf/asr/small.yaml
asr_max_epoch=15
lm_config=conf/asr/lm.yaml
lm_max_epoch=
min_stretch=0.8
max_stretch=1.25
results=RESULTS.md

. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage 1] [--stop-stage 4] [--seed 0] [--nj 2] (run after run.sh stages 0-6; see the header of $0)"
. utils/parse_options.sh

log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') ($(basename "$0"):${BASH_LINENO[0]}) $*"; }
done_ok() { [ -d "$1" ] && utils/validate_data_dir.sh "$1" >/dev/null 2>&1; }
v=${neutral_voice%%:*}${neutral_voice#*:}; v=${v//-/}
tier=$(basename "$asr_config" .yaml)
for s in mini_train mini_dev mini_test; do
  done_ok "data/${s}_$v" || { echo "$0: missing data/${s}_$v: run run.sh stages 0-6 first" >&2; exit 1; }
done
for m in original neutral; do
  [ -d "exp/asr_${tier}_$m" ] || { echo "$0: missing exp/asr_${tier}_$m: run run.sh stage 6 first" >&2; exit 1; }
done

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "1: mini_test text transformed with its gold tags ($text_strategy)"
  done_ok data/mini_test_text_gold || steps/transform_text.sh --strategy "$text_strategy" --p 1.0 --seed "$seed" \
    --avoid-original true --secret-dir exp/secrets/text --exp-dir exp/transform_text/mini_test_gold \
    --gold-tags data/mini_test/tags.conll data/mini_test data/mini_test/tags.conll data/mini_test_text_gold
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "2: spoken fill of the $v voices, verified"
  for s in mini_train mini_dev mini_test; do
    trans=data/${s}_text/tags.conll
    [ $s = mini_test ] && trans=data/mini_test_text_gold/tags.conll
    done_ok "data/${s}_spoken" || steps/mask_spoken.sh --tags "$mask_tags" --seed "$seed" --nj "$nj" --cmd "$train_cmd" \
      --min-stretch "$min_stretch" --max-stretch "$max_stretch" --secret-dir "exp/secrets/spoken/$s" \
      "data/${s}_$v" "data/$s/tags.conll" "$trans" "data/$s/words.ctm" "exp/spoken/$s" "data/${s}_spoken"
    pydeid verify-spoken --tags "$mask_tags" --secret-dir "exp/secrets/spoken/$s" --orig-data "data/$s" \
      --results "$results" --name "$s (gold tags and CTM)" "data/${s}_spoken" "data/$s/tags.conll" \
      "data/$s/words.ctm" 2>"exp/spoken/$s/verify.log" | tee "exp/spoken/$s/verify.txt" || {
        echo "$0: LEAKS in data/${s}_spoken, see exp/spoken/$s/verify.log" >&2; exit 1; }
  done
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "3: ESPnet ($asr_config) + LM trained on the spoken-pseudonym corpus"
  aopts=(--asr-config "$asr_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  lopts=(--lm-config "$lm_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$lm_max_epoch" ] && lopts+=(--max-epoch "$lm_max_epoch")
  steps/train_asr.sh "${aopts[@]}" data/mini_train_spoken data/mini_dev_spoken "exp/asr_${tier}_spoken"
  steps/train_lm.sh "${lopts[@]}" "exp/asr_${tier}_spoken" "exp/lm_${tier}_spoken"
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "4: decodings, scoring, NER on the ASR output, table"
  # model:test-data pairs; the stage-6 decodings of the original test set are reused when current
  pairs="original:mini_test neutral:mini_test spoken:mini_test neutral:mini_test_neutral spoken:mini_test_spoken
         original:mini_test_neutral original:mini_test_spoken"
  for p in $pairs; do
    m=${p%%:*}; t=${p#*:}
    d=exp/asr_${tier}_$m/decode_$t
    steps/decode_asr.sh --nj "$nj" --cmd "$decode_cmd" --lm-exp "exp/lm_${tier}_$m" "exp/asr_${tier}_$m" "data/$t" "$d"
    steps/score.sh --results "exp/spoken/RESULTS.asr.md" data/$t "$d" >/dev/null
    # the tagger (stage 2) on the ASR output, lower-case like ASR text
    pydeid asr-hyp-data-dir "data/$t" "$d" "$d/hyp_data" >/dev/null
    [ -s "$d/ner/tags.conll" ] && [ "$d/ner/tags.conll" -nt "$d/text" ] ||
      steps/tag_entities.sh --detectors flair,grammar --lowercase-input true --nj 1 --cmd "$decode_cmd" \
        "$d/hyp_data" exp/ner "$d/ner" >/dev/null
  done
  gold() {  # reference tags of a test set (the silenced set has no entity left to find)
    case $1 in mini_test) echo data/mini_test/tags.conll ;; mini_test_spoken) echo data/mini_test_spoken/tags.conll ;; *) echo ;; esac
  }
  cells=()
  for p in $pairs; do
    m=${p%%:*}; t=${p#*:}
    d=exp/asr_${tier}_$m/decode_$t
    label=$m; [ $m = neutral ] && label="neutral, silence ($v)"; [ $m = spoken ] && label="neutral, spoken pseudonyms ($v)"
    g=$(gold "$t")
    if [ -n "$g" ]; then cells+=("$label::$t::$d::$g::$d/ner/tags.conll"); else cells+=("$label::$t::$d"); fi
  done
  pydeid spoken-results --results "$results" --footer "
Data: mini (seed $seed) mini_test, $(wc -l <data/mini_test/text) turns of unseen speakers; models: $asr_config, ${asr_max_epoch:-all}
epochs, + char LM of the model's own transcripts (run.sh stage 6 for original and silence, local/mini/spoken_pseudonyms.sh
for spoken). Neutral corpora: $v voices of mini_train/dev, every tagged word silenced and removed from the text
(silence) or spoken as its surrogate ($text_strategy, gold tags; mask-spoken, seed $seed). WER 95 % intervals:
utterance bootstrap (1000 draws). NER: the stage-2 flair+grammar tagger on the lower-cased ASR output, phrase F1
(type and every word right) against the gold tags of the test set (its surrogates on mini_test_spoken); the
silenced set has no entity left.
" "${cells[@]}"
fi
log "done; table 'spoken-pseudonyms' in $results"
