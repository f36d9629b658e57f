#!/usr/bin/env bash
# LibriSpeech recipe: de-identify LibriSpeech, then measure utility (ESPnet ASR WER trained on original vs neutral
# data) and privacy (x-vector attacks in three scenarios). Sized for a GPU cluster (edit cmd.sh for Slurm/SGE).
#
#   ./run.sh [--stage N] [--stop-stage M] [--download true] [--corpus-root DIR] [--nj N] [options below]
#
# Stages (each idempotent: finished work is skipped or resumed; --stage/--stop-stage select a range):
#   0  download the LibriSpeech parts from openslr.org (only with --download true; needs network)
#   1  data prep: data/<set> for the ASR and attacker training sets, data/<set>{,_enroll,_trial} for dev/test
#   2  forced alignment of the sets to de-identify (pocketsphinx en-us): exp/align/<set>/wrd_ali/ctm
#   3  entity tagging: train the flair tagger if --ner-train/--ner-dev CoNLL files are given (or use --ner-model),
#      then tag each set with the default detectors (spaCy md NER, grammars, gazetteer, cue names, categories; no
#      training needed; + the flair tagger when there is one): exp/tags/<set>/tags.conll (LibriSpeech has no gold tags)
#   4  text transformation (pseudonymised transcripts + DP epsilon): data/<set>_text, secrets in exp/secrets/text
#   5  voice conversion (--voice-method): the sets to de-identify, the trial set, and what the attackers convert
#      from ORIGINAL audio with their own draws (--seed+1): the enrollment set (lazy-informed, informed) and the
#      attacker's training set (informed), both also with shifted parameters (parameter-shifted:
#      conf/voice/<method>_shifted.yaml, VTLN -T --shift-max-targets); secrets in exp/voice/*/secrets
#   6  masking (converted voice + tagged words silenced and removed from text) -> data/<set>_neutral, and the leak
#      check (verify-masking) -> RESULTS.md
#   7  ASR: ESPnet on original and on neutral data; decode and score the original and neutral test sets; (--whisper
#      true) the pretrained Whisper meter on the test set original, converted and neutral: exp/utility/whisper.md
#   8  x-vector attacks: original, ignorant, lazy-informed, informed, parameter-shifted (seed 004 section 4.1.2)
#   9  report: WER and EER tables in RESULTS.md
# The tests run stages 1-9 on ../shared/data/librispeech_mini (3 speakers, 10 utterances) at tiny settings
# (tests/corpora/test_librispeech_stages.py):
#   ./run.sh --stage 1 --corpus-root "$LIBRISPEECH_MINI" --asr-train-set dev-clean-2 \
#     --xvector-train-set dev-clean-2 --dev-set dev-clean-2 --test-set dev-clean-2 --num-enroll 1 --nj 1 \
#     --decode-nj 1 --voice-method mcadams --asr-config conf/asr/small.yaml --asr-ngpu 0 --asr-max-epoch 1 \
#     --xvector-config conf/xvector/mini.yaml --xvector-epochs 1
set -euo pipefail

stage=0
stop_stage=100
download=false
corpus_root=                       # default: $LIBRISPEECH from db.sh
url=https://www.openslr.org/resources/12
asr_train_set=train-clean-100      # ESPnet ASR training (original and neutral); also the VTLN target pool
xvector_train_set=train-clean-360  # x-vector attacker training
dev_set=dev-clean
test_set=test-clean
num_enroll=3                       # enrollment utterances per test speaker (the rest are trial utterances)
nj=32
seed=0
# stage 2
align_backend=pocketsphinx
align_model=en-us
# stage 3
ner_model=                         # a trained tagger (steps/train_ner.sh output); else trained from:
ner_train=                         # CoNLL files with PER ORG LOC DATE TIME (NUM) BIO tags
ner_dev=
ner_config=conf/text/ner.yaml
detectors=                         # empty: the default set (spacy,grammar,gazetteer,cues,categories; + flair with a tagger)
tag_opts="--uncased-input true"    # steps/tag_entities.sh: upper-case text is tagged lower-cased (spaCy on upper
                                   # case calls most phrases an ORG)
ner_lowercase=true                 # LibriSpeech text is upper case: train an uncased tagger (it lower-cases its
                                   # input when tagging; the tags.conll tokens stay those of data/<set>/text)
# stage 4
text_strategy="default=surrogate"   # values from outside the corpus, consistent per dialogue (docs/surrogates.md)
text_p=1.0
# stage 5
voice_method=vtln                  # voicemask | vtln | mcadams
voice_strategy=3                   # vtln: 1 | 2 | 3, or <N>_<variant> for conf/voice/vtln_<variant>.yaml
                                   # (3_phanycmnw: phone classes; stage 5 aligns the sets into exp/align_ph)
voice_config=
shift_max_targets=10               # parameter-shifted VTLN: target pool size -T
# stage 6
mask_tags=all   # every type the detectors can emit (a narrower list leaves the others in)
# stage 7
asr_config=conf/asr/conformer.yaml
asr_ngpu=1
asr_max_epoch=
decode_nj=32
whisper=true                       # also the pretrained Whisper meter on the test set: original, converted, neutral
whisper_model=tiny.en              # tiny.en | base (docs/utility_meters.md)
# stage 8
xvector_config=conf/xvector/xvector.yaml
xvector_epochs=

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--download true] [--corpus-root DIR] [--asr-train-set S] ...
(see the header of $0)"
. utils/parse_options.sh
corpus_root=${corpus_root:-$LIBRISPEECH}
case $whisper in true|false) ;; *) echo "$0: --whisper must be true or false, not '$whisper'" >&2; exit 1 ;; esac
case $whisper_model in tiny.en|base) ;; *) echo "$0: --whisper-model must be tiny.en or base, not '$whisper_model'" >&2; exit 1 ;; esac

. utils/log.sh   # log <message>: "<UTC time> (run.sh:<line>) <message>"
dname() { echo "${1//-/_}"; }   # train-clean-100 -> train_clean_100 (the data dir name)
results=RESULTS.md
aseed=$((seed + 1))   # the attackers' own draws

train_sets=$(printf '%s\n' "$asr_train_set" "$xvector_train_set" | awk 'NF && !seen[$0]++')
eval_sets=$(printf '%s\n' "$dev_set" "$test_set" | awk 'NF && !seen[$0]++')
train=$(dname "$asr_train_set"); dev=$(dname "$dev_set"); test=$(dname "$test_set")
xvtrain=$(dname "$xvector_train_set")
deid_sets=$(printf '%s\n' "$train" "$dev" "$test" | awk '!seen[$0]++')   # the corpus made neutral
m=$voice_method

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  if $download; then
    log "stage 0: downloading LibriSpeech parts into $corpus_root"
    for part in $(printf '%s\n' $train_sets $eval_sets | awk '!seen[$0]++'); do
      local/librispeech/download_and_untar.sh "$corpus_root" "$url" "$part"
    done
  else
    log "stage 0: skipped (no --download true); using the corpus at $corpus_root"
  fi
fi
[ -d "$corpus_root/LibriSpeech" ] && [ ! -f "$corpus_root/SPEAKERS.TXT" ] && corpus_root=$corpus_root/LibriSpeech

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: data preparation from $corpus_root"
  for part in $train_sets; do
    local/librispeech/data_prep.sh "$corpus_root" "$part" "data/$(dname "$part")"
  done
  for part in $eval_sets; do
    local/librispeech/data_prep.sh --enroll-trial true --num-enroll "$num_enroll" --seed "$seed" \
      "$corpus_root" "$part" "data/$(dname "$part")"
  done
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: forced alignment ($align_backend) of $deid_sets"
  for s in $deid_sets; do
    steps/align.sh --backend "$align_backend" --nj "$nj" --cmd "$train_cmd" --phones false \
      "data/$s" "$align_model" "exp/align/$s"
  done
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  model=$ner_model
  if [ -z "$model" ] && [ -n "$ner_train" ]; then
    log "stage 3: training the entity tagger on $ner_train"
    [ -f exp/ner/tagger.pt ] || steps/train_ner.sh --ner-config "$ner_config" --lowercase "$ner_lowercase" --seed "$seed" \
      --cmd "$cuda_cmd" "$ner_train" "$ner_dev" exp/ner
    model=exp/ner
  fi
  dets=$detectors
  [ -n "$model" ] || model=-   # no tagger: the default detectors need no training
  log "stage 3: tagging $deid_sets (detectors: ${dets:-the default set}; tagger: $model)"
  for s in $deid_sets; do
    [ -s "exp/tags/$s/tags.conll" ] && [ "exp/tags/$s/tags.conll" -nt "data/$s/text" ] && continue
    steps/tag_entities.sh $tag_opts ${dets:+--detectors "$dets"} --nj "$nj" --cmd "$decode_cmd" "data/$s" "$model" "exp/tags/$s"
  done
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: text transformation ($text_strategy, p=$text_p)"
  for s in $deid_sets; do
    utils/validate_data_dir.sh "data/${s}_text" >/dev/null 2>&1 && continue
    # never the original as its own surrogate (a type with one value would otherwise keep it)
    steps/transform_text.sh --strategy "$text_strategy" --p "$text_p" --seed "$seed" --avoid-original true \
      --secret-dir exp/secrets/text --exp-dir "exp/transform_text/$s" \
      "data/$s" "exp/tags/$s/tags.conll" "data/${s}_text"
  done
fi

# the conversions (steps/convert_voice.sh): VTLN targets and VoiceMask's pitch-target pool are the ASR training
# speakers; the parameter-shifted attacker's: conf/voice/<method>_shifted.yaml, for VTLN its own pool of
# --shift-max-targets speakers (--voice-strategy 3_<variant>: conf/voice/vtln_<variant>.yaml)
cvopts=(--nj "$nj" --cmd "$train_cmd" --target-data "data/$train" --pitch-target-data "data/$train"
        --pool-file "exp/voice/pool_pub_s{seed}.npz")
[ -n "$voice_config" ] && cvopts+=(--voice-config "$voice_config")
if [ "$m" = vtln ]; then shifted=(--max-targets "$shift_max_targets" --pool-file "exp/voice/pool_shifted_s{seed}.npz")
else shifted=(--voice-config "conf/voice/${m}_shifted.yaml"); fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: voice conversion ($m, strategy $voice_strategy)"
  for s in $deid_sets ${test}_trial; do
    steps/convert_voice.sh "${cvopts[@]}" "$m" "data/$s" "$voice_strategy:$seed:data/${s}_$m"
  done
  for s in ${test}_enroll $xvtrain; do   # the attackers convert original audio with their own draws
    steps/convert_voice.sh "${cvopts[@]}" "$m" "data/$s" "$voice_strategy:$aseed:data/${s}_${m}_a"
    steps/convert_voice.sh "${cvopts[@]}" "${shifted[@]}" "$m" "data/$s" "$voice_strategy:$aseed:data/${s}_${m}_ps"
  done
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  log "stage 6: masking the tagged words in the converted voices, then the leak check"
  for s in $deid_sets; do
    steps/make_neutral.sh --source-data "data/$s" --seed "$seed" --tags "$mask_tags" --on-untimed drop --nj "$nj" \
      --cmd "$train_cmd" --results "$results" --name "$s" "data/${s}_$m" "exp/tags/$s/tags.conll" \
      "exp/align/$s/wrd_ali/ctm" "exp/mask/$s" "data/${s}_neutral"
  done
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  log "stage 7: ASR on original and on neutral data ($asr_config)"
  aopts=(--asr-config "$asr_config" --ngpu "$asr_ngpu" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  steps/train_asr.sh "${aopts[@]}" "data/$train" "data/$dev" exp/asr_original
  steps/train_asr.sh "${aopts[@]}" "data/${train}_neutral" "data/${dev}_neutral" exp/asr_neutral
  for pair in original:$test neutral:${test}_neutral neutral:$test; do
    model=${pair%%:*}; s=${pair#*:}
    d=exp/asr_$model/decode_${model}_$s   # unique basename: it keys the RESULTS.md section
    [ -s "$d/text" ] || steps/decode_asr.sh --nj "$decode_nj" --cmd "$decode_cmd" "exp/asr_$model" "data/$s" "$d"
    steps/score.sh --results "$results" --title "ASR trained on $model data, decoded on $s" "data/$s" "$d"
  done
  if $whisper; then   # a recogniser nobody trained here: what the conversion and the masking cost, paired
    specs=()
    # the neutral side is make_neutral's working dir: the audio and text of the published data/<test>_neutral
    # under the original ids (the published ones are keyed pseudonyms, which nothing pairs with the original)
    for c in original:data/$test converted:data/${test}_$m neutral:exp/mask/$test/masked; do
      d=${c#*:}; s=$(basename "$d"); [ "$s" = masked ] && s=${test}_neutral
      [ -d "$d" ] || { log "no $d: not decoded by Whisper"; continue; }
      steps/decode_whisper.sh --model "$whisper_model" --nj "$decode_nj" --cmd "$decode_cmd" "$d" \
        "exp/whisper/decode_$s"
      specs+=("${c%%:*}=exp/whisper/decode_$s")
    done
    pydeid whisper-table --results "$results" --key librispeech-utility-whisper \
      --title "Utility under the Whisper meter ($whisper_model, pretrained): $test original, converted ($m), neutral" \
      "${specs[@]}" exp/utility/whisper.md
  fi
fi

if [ $stage -le 8 ] && [ $stop_stage -ge 8 ]; then
  log "stage 8: x-vector attacks ($m)"
  xopts=(--xvector-config "$xvector_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$xvector_epochs" ] && xopts+=(--epochs "$xvector_epochs")
  steps/train_xvector.sh "${xopts[@]}" "data/$xvtrain" exp/xvector_original
  trials=data/${test}_trial/trials
  common=(--seed "$seed" --xvector-config "$xvector_config" --trials "$trials" --nj "$nj" --cmd "$cuda_cmd")
  [ -n "$xvector_epochs" ] && common+=(--epochs "$xvector_epochs")
  steps/attack.sh "${common[@]}" --scenario original --model exp/xvector_original \
    "data/$xvtrain" "data/${test}_enroll" "data/${test}_trial" exp/attack/original
  steps/attack.sh "${common[@]}" --scenario ignorant --method "$m" --strategy "$voice_strategy" \
    --model exp/xvector_original --orig-trial "data/${test}_trial" \
    "data/$xvtrain" "data/${test}_enroll" "data/${test}_trial_$m" "exp/attack/ignorant_$m"
  steps/attack.sh "${common[@]}" --scenario lazy-informed --method "$m" --strategy "$voice_strategy" \
    --model exp/xvector_original --orig-trial "data/${test}_trial" \
    "data/$xvtrain" "data/${test}_enroll_${m}_a" "data/${test}_trial_$m" "exp/attack/lazy-informed_$m"
  steps/attack.sh "${common[@]}" --scenario informed --method "$m" \
    --strategy "$voice_strategy" --seed "$aseed" --orig-trial "data/${test}_trial" \
    "data/${xvtrain}_${m}_a" "data/${test}_enroll_${m}_a" "data/${test}_trial_$m" "exp/attack/informed_$m"
  steps/attack.sh "${common[@]}" --scenario parameter-shifted --method "$m" \
    --strategy "$voice_strategy" --seed "$aseed" --orig-trial "data/${test}_trial" \
    "data/${xvtrain}_${m}_ps" "data/${test}_enroll_${m}_ps" "data/${test}_trial_$m" \
    "exp/attack/parameter-shifted_$m"
fi

if [ $stage -le 9 ] && [ $stop_stage -ge 9 ]; then
  log "stage 9: result tables in $results"
  pydeid asr-wer-table --results "$results" \
    "original:$(basename "$asr_config" .yaml)=exp/asr_original/decode_original_$test" \
    "transformed:$(basename "$asr_config" .yaml)=exp/asr_neutral/decode_neutral_${test}_neutral"
  pydeid attack-table --results "$results" exp/attack/*/scores
fi
log "done (stages $stage..$stop_stage); results in $results"
