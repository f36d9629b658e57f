#!/usr/bin/env bash
# Spoken pseudonyms on mini (issue 20): the neutral corpus in both modes -- silence (run.sh stage 5, the seed's
# secure voice builder) and spoken surrogates (steps/mask_spoken.sh) -- an ESPnet model trained on each, decoded on
# the original and on the transformed test set, and NER phrase F1 of the tagger on each model's ASR output.
# Runs AFTER run.sh stages 0-6, on their data/ and exp/ (from egs/mini/s5). Idempotent.
#
#   1  mini_test's text transformed with its gold tags (train/dev already are, stage 3); with --variant NAME, all
#      three sets transformed here with --text-strategy (data/<set>_text_<sp>), so a corpus with another text
#      strategy or other fill options (data/<set>_spoken[after]_NAME, its models exp/asr_*_spoken[after]_NAME)
#      stands beside the default one
#   2  spoken fill of mini_train/dev/test, then conversion:
#        --fill-order before: the fill runs on the ORIGINAL voices (exp/spoken/<set>/filled, never
#          published), then `pydeid convert-spoken` converts it with the plan, target pool and source-speaker
#          model of the neutral voice's own conversion of the set (exp/voice/<set>_<v>): each insert is converted
#          with its utterance -> data/<set>_spoken. verify-spoken checks the fill (any sample inside an interval
#          that is neither the re-rendered insert nor silence, or an entity outside every interval, stops the
#          script) and that the published audio is the conversion of the verified fill (utterances re-converted
#          and compared sample by sample: --check-utts, 0 = all)
#        --fill-order after (default): the fill runs on the converted voices data/<set>_<v> (inserts not converted, only
#          their F0 median and level matched to the converted speech around them; the surrogate voice's accent
#          drawn among espeak's eight English ones, mask-spoken's default since session 7) -> data/<set>_spokenafter
#   3  ESPnet (same tier, epochs and LM recipe as stage 6) trained on the spoken corpus; with --floor true also on
#      the converted voices WITHOUT masking (data/<set>_<v>: the conversion's own floor, a diagnostic)
#      with --asr-seeds "1 2": the original and the spoken model trained again with each of these seeds
#      (exp/asr_<tier>_<model>_seed<N>, same data; training noise, not the corpus, changes)
#   4  decodings: the models on the original mini_test, each neutral model on its own transformed mini_test
#      (the original model too, on both), scoring, tagging of the ASR output, table 'spoken-pseudonyms'; with
#      --asr-seeds, every seed's original and spoken model on mini_test: table 'spoken-pseudonyms-seeds'
#      (mean +- std over --seed and the extra seeds)
#
# Usage (from egs/mini/s5): local/mini/spoken_pseudonyms.sh [--seed 0] [--nj 2] [--stage 1] [--stop-stage 4]
#        [--fill-order before|after] [--floor false] [--check-utts 0] [--asr-seeds ""]
#        [--fill-opts "--fit-rate true --match-spectrum true --match-f0-range true --noise-floor true --accents en-us"]
#        (steps/mask_spoken.sh options; --accents en-us: the single-accent fill of sessions 1-6)
#        [--variant NAME --text-strategy "PER=pseudonymize,NUM=random_digits,default=surrogate"]
set -euo pipefail

stage=1
stop_stage=100
seed=0
nj=2
neutral_voice=vtln:3
mask_tags=all   # every type the detectors can emit
text_strategy="default=surrogate"   # values from outside the corpus, consistent per dialogue (docs/surrogates.md)
asr_config=conf/asr/small.yaml
asr_max_epoch=15
lm_config=conf/asr/lm.yaml
lm_max_epoch=
min_stretch=0.8
max_stretch=1.25
results=RESULTS.md
fill_order=after    # after | before the voice conversion (see the header; after measured better on mini)
floor=false         # also train/decode the converted voices without masking (diagnostic)
check_utts=0        # utterances of each set re-converted to check the published audio (0: all)
asr_seeds=          # extra ASR training seeds of the original and spoken models (e.g. "1 2"): mean +- std table
fill_opts=          # more steps/mask_spoken.sh options (rate fit, spectral and F0-range match, noise floor, accents)
variant=            # a name: the spoken corpus data/<set>_spoken[after]_<variant> (and its models) is made with this
                    # --text-strategy / --fill-opts from texts transformed here, beside the default one

. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage 1] [--stop-stage 4] [--seed 0] [--nj 2] (run after run.sh stages 0-6; see the header of $0)"
. utils/parse_options.sh

. utils/log.sh   # log <message>: "<UTC time> (spoken_pseudonyms.sh:<line>) <message>"
. utils/recipe.sh   # done_ok <data-dir>
v=${neutral_voice%%:*}${neutral_voice#*:}; v=${v//-/}
case $fill_order in
  before) sp=spoken${variant:+_$variant} ;;
  after) sp=spokenafter${variant:+_$variant} ;;
  *) echo "$0: --fill-order must be before or after, got '$fill_order'" >&2; exit 1 ;;
esac
tier=$(basename "$asr_config" .yaml)
for s in mini_train mini_dev mini_test; do
  done_ok "data/${s}_$v" || { echo "$0: missing data/${s}_$v: run run.sh stages 0-6 first" >&2; exit 1; }
done
if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then   # stages 1-3 need only the converted voices
  for m in original neutral; do
    [ -d "exp/asr_${tier}_$m" ] || { echo "$0: missing exp/asr_${tier}_$m: run run.sh stage 6 first" >&2; exit 1; }
  done
fi

trans_dir() {  # the transformed text (gold tags) a set's surrogates come from
  if [ -n "$variant" ]; then echo "data/${1}_text_$sp"
  elif [ "$1" = mini_test ]; then echo data/mini_test_text_gold
  else echo "data/${1}_text"; fi   # run.sh stage 3
}
if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  if [ -n "$variant" ]; then   # a variant's own text strategy: every set transformed here, one pseudonym map
    log "1: mini_train/dev/test text transformed with their gold tags ($text_strategy, variant $variant)"
    for s in mini_train mini_dev mini_test; do
      done_ok "$(trans_dir $s)" || steps/transform_text.sh --strategy "$text_strategy" --p 1.0 --seed "$seed" \
        --avoid-original true --secret-dir "exp/secrets/text_$sp" --exp-dir "exp/transform_text/${s}_$sp" \
        --gold-tags "data/$s/tags.conll" "data/$s" "data/$s/tags.conll" "$(trans_dir $s)"
    done
  else
    log "1: mini_test text transformed with its gold tags ($text_strategy)"
    done_ok data/mini_test_text_gold || steps/transform_text.sh --strategy "$text_strategy" --p 1.0 --seed "$seed" \
      --avoid-original true --secret-dir exp/secrets/text --exp-dir exp/transform_text/mini_test_gold \
      --gold-tags data/mini_test/tags.conll data/mini_test data/mini_test/tags.conll data/mini_test_text_gold
  fi
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "2: spoken fill ($fill_order the $v conversion), verified"
  for s in mini_train mini_dev mini_test; do
    trans=$(trans_dir $s)/tags.conll
    fopts=(--tags "$mask_tags" --seed "$seed" --nj "$nj" --cmd "$train_cmd" --min-stretch "$min_stretch"
           --max-stretch "$max_stretch")
    [ -n "$fill_opts" ] && read -r -a more <<<"$fill_opts" && fopts+=("${more[@]}")
    vopts=(--tags "$mask_tags" --orig-data "data/$s" --results "$results")
    if [ $fill_order = before ]; then
      [ -f "exp/voice/${s}_$v/secrets/voice_plan.json" ] || {
        echo "$0: missing exp/voice/${s}_$v (the conversion of data/$s): run run.sh stage 5 first" >&2; exit 1; }
      filled=exp/$sp/$s/filled   # original voices + inserts: an intermediate, never published
      # always run: it resumes per utterance and refuses a fill made with other options (its spoken_config.json)
      steps/mask_spoken.sh "${fopts[@]}" --secret-dir "exp/secrets/$sp/$s" \
        "data/$s" "data/$s/tags.conll" "$trans" "data/$s/words.ctm" "exp/$sp/$s" "$filled"
      done_ok "data/${s}_$sp" || pydeid convert-spoken --orig-data "data/$s" --conversion "exp/voice/${s}_$v" \
        "$filled" "data/${s}_$sp" >"exp/$sp/$s/convert.log" 2>&1 || {
          utils/job_failed.sh "$0: conversion failed" "exp/$sp/$s/convert.log"; exit 1; }
      vopts+=(--secret-dir "exp/secrets/$sp/$s" --published "data/${s}_$sp" --conversion "exp/voice/${s}_$v"
              --check-utts "$check_utts" --check-seed "$seed" --name "$s (fill before conversion${variant:+, $variant})" "$filled")
      vdir=exp/$sp/$s
    else
      vdir=exp/$sp/$s
      # always run: it resumes per utterance and refuses a fill made with other options (its spoken_config.json)
      steps/mask_spoken.sh "${fopts[@]}" --secret-dir "exp/secrets/$sp/$s" \
        "data/${s}_$v" "data/$s/tags.conll" "$trans" "data/$s/words.ctm" "$vdir" "data/${s}_$sp"
      vopts+=(--secret-dir "exp/secrets/$sp/$s" --name "$s (fill after conversion${variant:+, $variant})" "data/${s}_$sp")
    fi
    mkdir -p "$vdir"
    pydeid verify-spoken "${vopts[@]}" "data/$s/tags.conll" "data/$s/words.ctm" 2>"$vdir/verify.log" |
      tee "$vdir/verify.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { utils/job_failed.sh "$0: LEAKS in the spoken fill of $s" "$vdir/verify.log"; exit 1; }
  done
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "3: ESPnet ($asr_config) + LM trained on the spoken-pseudonym corpus"
  aopts=(--asr-config "$asr_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  lopts=(--lm-config "$lm_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$lm_max_epoch" ] && lopts+=(--max-epoch "$lm_max_epoch")
  train_asr_lm() {  # <train-data> <valid-data> <name>
    steps/train_asr.sh "${aopts[@]}" "$1" "$2" "exp/asr_${tier}_$3" &&
      steps/train_lm.sh "${lopts[@]}" "exp/asr_${tier}_$3" "exp/lm_${tier}_$3"
  }
  pid=
  if $floor; then train_asr_lm "data/mini_train_$v" "data/mini_dev_$v" "$v" & pid=$!; fi
  train_asr_lm "data/mini_train_$sp" "data/mini_dev_$sp" "$sp" || { [ -z "$pid" ] || wait $pid || true; exit 1; }
  [ -z "$pid" ] || wait $pid
  for n in $asr_seeds; do   # one at a time: each is a few CPU-minutes
    [ "$n" = "$seed" ] && continue
    aopts=(--asr-config "$asr_config" --seed "$n" --cmd "$cuda_cmd")
    [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
    lopts=(--lm-config "$lm_config" --seed "$n" --cmd "$cuda_cmd")
    [ -n "$lm_max_epoch" ] && lopts+=(--max-epoch "$lm_max_epoch")
    train_asr_lm data/mini_train data/mini_dev "original_seed$n"
    train_asr_lm "data/mini_train_$sp" "data/mini_dev_$sp" "${sp}_seed$n"
  done
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "4: decodings, scoring, NER on the ASR output, table"
  # model:test-data pairs; the stage-6 decodings of the original test set are reused when current
  pairs="original:mini_test neutral:mini_test $sp:mini_test neutral:mini_test_neutral $sp:mini_test_$sp
         original:mini_test_neutral original:mini_test_$sp"
  $floor && pairs+=" $v:mini_test"
  main_pairs=$pairs
  seed_pairs=
  extra_seeds=
  for n in $asr_seeds; do
    [ "$n" = "$seed" ] && continue
    seed_pairs+=" original_seed$n:mini_test ${sp}_seed$n:mini_test"; extra_seeds+=" $n"
  done
  pairs+=$seed_pairs
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
    case $1 in mini_test) echo data/mini_test/tags.conll ;; mini_test_spoken*) echo "data/$1/tags.conll" ;; *) echo ;; esac
  }
  cells=()
  for p in $main_pairs; do
    m=${p%%:*}; t=${p#*:}
    d=exp/asr_${tier}_$m/decode_$t
    case $m in
      neutral) label="neutral, silence ($v)" ;;
      spoken) label="neutral, spoken pseudonyms, filled before conversion ($v)" ;;
      spokenafter) label="neutral, spoken pseudonyms, filled after conversion ($v)" ;;
      spoken_*|spokenafter_*) label="neutral, spoken pseudonyms, filled $fill_order conversion ($v, $variant)" ;;
      "$v") label="diagnostic: $v voices, nothing masked (the conversion's floor)" ;;
      *) label=$m ;;
    esac
    g=$(gold "$t")
    if [ -n "$g" ]; then cells+=("$label::$t::$d::$g::$d/ner/tags.conll"); else cells+=("$label::$t::$d"); fi
  done
  pydeid spoken-results --results "$results" --footer "
Data: mini (seed $seed) mini_test, $(wc -l <data/mini_test/text) turns of unseen speakers; models: $asr_config, ${asr_max_epoch:-all}
epochs, + char LM of the model's own transcripts (run.sh stage 6 for original and silence, local/mini/spoken_pseudonyms.sh
for spoken). Neutral corpora: $v voices of mini_train/dev, every tagged word silenced and removed from the text
(silence) or spoken as its surrogate ($text_strategy, gold tags; mask-spoken, seed $seed; filled before
conversion: the fill on the original voices converted with the utterance's own $v plan; after: the fill on the
converted voices). WER 95 % intervals:
utterance bootstrap (1000 draws). NER: the stage-2 flair+grammar tagger on the lower-cased ASR output, phrase F1
(type and every word right) against the gold tags of the test set (its surrogates on mini_test_spoken); the
silenced set has no entity left.
" "${cells[@]}"
  if [ -n "$seed_pairs" ]; then
    scells=()
    for m in original "$sp"; do
      label=$m; [ "$m" = "$sp" ] && label="neutral, spoken pseudonyms ($fill_order conversion, $v${variant:+, $variant})"
      for n in $seed $extra_seeds; do
        e=exp/asr_${tier}_$m; [ "$n" = "$seed" ] || e+=_seed$n
        scells+=("$label -> mini_test::$e/decode_mini_test::data/mini_test/tags.conll::$e/decode_mini_test/ner/tags.conll")
      done
    done
    pydeid spoken-results --seeds --results "$results" --footer "
Data: mini (seed $seed) mini_test, $(wc -l <data/mini_test/text) turns, $(cat data/mini_test/text | cut -d' ' -f2- | wc -w) words. Each row: the same training
data and recipe ($asr_config, ${asr_max_epoch:-all} epochs + char LM), ASR and LM training seeds $seed$extra_seeds
(the spoken corpus itself is the one of --seed $seed); std: sample standard deviation across seeds. NER: the
stage-2 tagger on the lower-cased ASR output, phrase F1 against the gold tags.
" "${scells[@]}"
  fi
fi
log "done; table 'spoken-pseudonyms' in $results"
