#!/usr/bin/env bash
# VerbMobil recipe (English VM1/VM2 dialogues, BAS edition; seed 004 section 5 and appendix A.3): de-identify the
# dialogues, then measure utility (ESPnet ASR WER on original vs neutral data, also per A.3 subset: EN/DE
# speakers, appointment/info-desk domains) and privacy (x-vector attacks in three scenarios). Sized for a GPU
# cluster (edit cmd.sh for Slurm/SGE).
#
#   ./run.sh [--stage N] [--stop-stage M] [--corpus-roots "DIR ..."] [--markers drop|keep] [--nj N] ...
#
# Stages (each idempotent; --stage/--stop-stage select a range):
#   0  data prep: data/{train,dev,test} with the A.3 speaker-id fixes, train/dev/test rules and WER subsets
#      (utt2subset, spk2subset, utt2dialogue); data/local/verbmobil/report.txt lists every skipped or excluded
#      turn; dev/test enrollment and trial lists data/{dev,test}_{enroll,trial} (`pydeid make-trials`)
#   1  forced alignment (pocketsphinx en-us): exp/align/<set>/wrd_ali/ctm
#   2  entity tagging: train the flair tagger if --ner-train/--ner-dev CoNLL files are given (or use --ner-model),
#      then tag each set with the default detectors (spaCy md NER, grammars, gazetteer, cue names, categories; no
#      training needed; + the flair tagger when there is one): exp/tags/<set>/tags.conll (VerbMobil has no gold entity tags)
#   3  text transformation (pseudonymised transcripts, consistent per dialogue via utt2dialogue; DP epsilon):
#      data/<set>_text, secrets in exp/secrets/text
#   4  voice conversion (VTLN by default, seed 004 section 5.2): train/dev/test, the test enrollment/trial sets and
#      the attacker's own conversions of original train/enrolment audio (--seed+1: lazy-informed, informed)
#   5  masking (converted voice + tagged words silenced and removed from text) -> data/<set>_neutral, leak check
#   6  ASR: ESPnet on original and on neutral data; decode and score test sets per A.3 subset
#   7  x-vector attacks: original, ignorant, lazy-informed, informed, informed-same-draws (pydeid.attack.scenarios)
#   8  report: WER and EER tables in RESULTS.md
set -euo pipefail

stage=0
stop_stage=100
corpus_roots=            # default: $VERBMOBIL from db.sh
markers=drop             # drop: words only in text (what the aligner/tagger/ASR stages expect);
                         # keep: <hes> <noise> <laugh> <unk> tokens (Kaldi style, non_linguistic_symbols.txt)
case=keep
text_source=auto         # ORT tier of the .par files, else the .trl transliteration
skip_malformed=false     # true: skip and report malformed .par/.trl instead of stopping at file:line
dialogue_volumes=        # table '<dialogue> <CD>' when the corpus paths carry no VM<n>.x folder names
native_table=            # table '<speaker> en|de|other' for the EN/DE subsets (else from spr files)
num_enroll=3
nj=32
seed=0
# stage 1
align_backend=pocketsphinx
align_model=en-us
# stage 2
ner_model=               # a trained tagger (steps/train_ner.sh output); else trained from:
ner_train=               # CoNLL files with PER ORG LOC DATE TIME (NUM) BIO tags
ner_dev=
ner_config=conf/text/ner.yaml
ner_lowercase=false
detectors=               # empty: the default set (spacy,grammar,gazetteer,cues,categories; + flair with a tagger)
# stage 3
text_strategy="default=surrogate"   # values from outside the corpus, consistent per dialogue (docs/surrogates.md)
text_p=1.0
# stage 4
voice_method=vtln        # vtln (seed 004 section 5.2) | voicemask | mcadams
voice_strategy=3         # vtln: 1 | 2 | 3, or <N>_<variant> for conf/voice/vtln_<variant>.yaml (3_phanycmnw: phone
                         # classes; stage 4 aligns the sets into exp/align_ph)
voice_config=
# stage 5
mask_tags=all   # every type the detectors can emit (a narrower list leaves the others in)
# stage 6
asr_config=conf/asr/conformer.yaml
asr_ngpu=1
asr_max_epoch=
decode_nj=32
# stage 7
xvector_config=conf/xvector/xvector.yaml
xvector_epochs=

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--corpus-roots \"DIR ...\"] [--markers drop|keep] ...
(see the header of $0)"
. utils/parse_options.sh
corpus_roots=${corpus_roots:-$VERBMOBIL}

. utils/log.sh   # log <message>: "<UTC time> (run.sh:<line>) <message>"
results=RESULTS.md
semi_seed=$((seed + 1))
deid_sets="train dev test"
m=$voice_method

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  if [ -z "$corpus_roots" ]; then
    echo "$0: set VERBMOBIL in db.sh or pass --corpus-roots (the BAS volumes of the English dialogues)" >&2
    exit 1
  fi
  log "stage 0: data preparation from $corpus_roots"
  opts=(--markers "$markers" --case "$case" --text-source "$text_source" --skip-malformed "$skip_malformed"
        --enroll-trial true --num-enroll "$num_enroll" --seed "$seed")
  [ -n "$dialogue_volumes" ] && opts+=(--dialogue-volumes "$dialogue_volumes")
  [ -n "$native_table" ] && opts+=(--native-table "$native_table")
  # shellcheck disable=SC2086
  local/verbmobil/data_prep.sh "${opts[@]}" data $corpus_roots
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: forced alignment ($align_backend) of $deid_sets"
  for s in $deid_sets; do
    steps/align.sh --backend "$align_backend" --nj "$nj" --cmd "$train_cmd" --phones false \
      "data/$s" "$align_model" "exp/align/$s"
  done
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  model=$ner_model
  if [ -z "$model" ] && [ -n "$ner_train" ]; then
    log "stage 2: training the entity tagger on $ner_train"
    [ -f exp/ner/tagger.pt ] || steps/train_ner.sh --ner-config "$ner_config" --lowercase "$ner_lowercase" \
      --seed "$seed" --cmd "$cuda_cmd" "$ner_train" "$ner_dev" exp/ner
    model=exp/ner
  fi
  dets=$detectors
  [ -n "$model" ] || model=-   # no tagger: the default detectors need no training
  log "stage 2: tagging $deid_sets (detectors: ${dets:-the default set}; tagger: $model)"
  for s in $deid_sets; do
    [ -s "exp/tags/$s/tags.conll" ] && [ "exp/tags/$s/tags.conll" -nt "data/$s/text" ] && continue
    steps/tag_entities.sh ${dets:+--detectors "$dets"} --nj "$nj" --cmd "$decode_cmd" "data/$s" "$model" "exp/tags/$s"
  done
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: text transformation ($text_strategy, p=$text_p)"
  for s in $deid_sets; do
    utils/validate_data_dir.sh "data/${s}_text" >/dev/null 2>&1 && continue
    steps/transform_text.sh --strategy "$text_strategy" --p "$text_p" --seed "$seed" \
      --secret-dir exp/secrets/text --exp-dir "exp/transform_text/$s" \
      "data/$s" "exp/tags/$s/tags.conll" "data/${s}_text"
  done
fi

# the conversions (steps/convert_voice.sh): VTLN targets and VoiceMask's pitch-target pool are the train speakers
# (--voice-strategy 3_<variant>: conf/voice/vtln_<variant>.yaml)
cvopts=(--nj "$nj" --cmd "$train_cmd" --target-data data/train --pitch-target-data data/train
        --pool-file "exp/voice/pool_s{seed}.npz")
[ -n "$voice_config" ] && cvopts+=(--voice-config "$voice_config")

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: voice conversion ($m, strategy $voice_strategy)"
  for s in $deid_sets test_enroll test_trial; do
    steps/convert_voice.sh "${cvopts[@]}" "$m" "data/$s" "$voice_strategy:$seed:data/${s}_$m"
  done
  for s in train test_enroll; do   # the lazy-informed and informed attackers draw their own random targets
    steps/convert_voice.sh "${cvopts[@]}" "$m" "data/$s" "$voice_strategy:$semi_seed:data/${s}_${m}_s$semi_seed"
  done
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: masking the tagged words in the converted voices, then the leak check"
  for s in $deid_sets; do
    steps/make_neutral.sh --source-data "data/$s" --seed "$seed" --tags "$mask_tags" --on-untimed drop --nj "$nj" \
      --cmd "$train_cmd" --results "$results" --name "$s" "data/${s}_$m" "exp/tags/$s/tags.conll" \
      "exp/align/$s/wrd_ali/ctm" "exp/mask/$s" "data/${s}_neutral"
  done
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  log "stage 6: ASR on original and on neutral data ($asr_config)"
  aopts=(--asr-config "$asr_config" --ngpu "$asr_ngpu" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  steps/train_asr.sh "${aopts[@]}" data/train data/dev exp/asr_original
  steps/train_asr.sh "${aopts[@]}" data/train_neutral data/dev_neutral exp/asr_neutral
  for pair in original:test neutral:test_neutral neutral:test; do
    model=${pair%%:*}; s=${pair#*:}
    d=exp/asr_$model/decode_${model}_$s   # unique basename: it keys the RESULTS.md section
    [ -s "$d/text" ] || steps/decode_asr.sh --nj "$decode_nj" --cmd "$decode_cmd" "exp/asr_$model" "data/$s" "$d"
    # A.3 subsets (EN/DE speakers, DA/DB domains ...) of the utterances this set still holds
    if [ "$s" = test_neutral ]; then   # published: pseudonymous ids, through the secret id map
      pydeid map-ids --keep-rest --secret-dir exp/secrets "data/$s" data/test/utt2subset > "$d/utt2subset"
    else
      utils/filter_scp.pl "data/$s/utt2spk" data/test/utt2subset > "$d/utt2subset"
    fi
    steps/score.sh --subsets "$d/utt2subset" --results "$results" \
      --title "ASR trained on $model data, decoded on $s" "data/$s" "$d"
  done
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  log "stage 7: x-vector attacks ($m)"
  xopts=(--xvector-config "$xvector_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$xvector_epochs" ] && xopts+=(--epochs "$xvector_epochs")
  steps/train_xvector.sh "${xopts[@]}" data/train exp/xvector_original
  common=(--seed "$seed" --xvector-config "$xvector_config" --trials data/test_trial/trials --nj "$nj"
          --cmd "$cuda_cmd")
  [ -n "$xvector_epochs" ] && common+=(--epochs "$xvector_epochs")
  steps/attack.sh "${common[@]}" --scenario original --model exp/xvector_original \
    data/train data/test_enroll data/test_trial exp/attack/original
  steps/attack.sh "${common[@]}" --scenario ignorant --method "$m" --strategy "$voice_strategy" \
    --model exp/xvector_original --orig-trial data/test_trial \
    data/train data/test_enroll "data/test_trial_$m" "exp/attack/ignorant_$m"
  # scenarios with the seeds' meanings (pydeid.attack.scenarios): the attacker converts ORIGINAL audio himself,
  # with his own draws ($semi_seed); informed-same-draws holds the publisher's draws (an extra row)
  steps/attack.sh "${common[@]}" --scenario lazy-informed --method "$m" --strategy "$voice_strategy" \
    --model exp/xvector_original --orig-trial data/test_trial \
    data/train "data/test_enroll_${m}_s$semi_seed" "data/test_trial_$m" "exp/attack/lazy-informed_$m"
  steps/attack.sh "${common[@]}" --scenario informed --method "$m" --strategy "$voice_strategy" \
    --orig-trial data/test_trial \
    "data/train_${m}_s$semi_seed" "data/test_enroll_${m}_s$semi_seed" "data/test_trial_$m" \
    "exp/attack/informed_$m"
  steps/attack.sh "${common[@]}" --scenario informed-same-draws --method "$m" --strategy "$voice_strategy" \
    --orig-trial data/test_trial \
    "data/train_$m" "data/test_enroll_$m" "data/test_trial_$m" "exp/attack/informed-same-draws_$m"
fi

if [ $stage -le 8 ] && [ $stop_stage -ge 8 ]; then
  log "stage 8: result tables in $results"
  tier=$(basename "$asr_config" .yaml)
  for sub in all EN DE DA DB; do
    pydeid asr-wer-table --results "$results" --subset "$sub" --key "asr-wer-table-$sub" \
      --title "WER (%) on the test set, subset $sub (seed 004 table 9 / A.3)" \
      "original:$tier=exp/asr_original/decode_original_test" \
      "transformed:$tier=exp/asr_neutral/decode_neutral_test_neutral"
  done
  pydeid attack-table --results "$results" exp/attack/*/scores
fi
log "done (stages $stage..$stop_stage); results in $results"
