#!/usr/bin/env bash
# egs/speechocean762/s5: de-identification measured on real voices (speechocean762: read English sentences of
# non-native adult speakers, the corpus's own train/test split, 30 + 30 speakers in the subset of ../shared/data).
# Privacy: x-vector attackers trained on the train speakers, EER (pooled/male/female, bootstrap 95 % CI) in the
# attacker scenarios ignorant, lazy-informed, informed, parameter-shifted; rho_F0. Utility: WER of a pretrained
# recogniser (pocketsphinx en-us; a 3-gram LM of the training transcripts, and the wheel's general LM) on
# original vs converted vs converted-and-masked test speech, as the VoicePrivacy Challenge measures it.
#
#   ./run.sh [--stage N] [--stop-stage M] [--corpus-root DIR] [--size default|tiny] [--nj 2] [--seed 0]
#            [--voice-configs "voicemask:- vtln:1 vtln:2 vtln:3 mcadams:-"] [--lms "train general"]
#   --voice-configs: <method>:<strategy> for vtln; for voicemask/mcadams "-" (conf/voice/<method>.yaml),
#   a config variant (conf/voice/<method>_<variant>.yaml, parameter-shifted <method>_<variant>_shifted<sv>.yaml)
#   or vtln<N>: the method applied on top of the VTLN S<N> conversions (vtln:<N> must be listed too)
#
#   0  data prep: data/train, data/test (genders, durations), data/test_{enroll,trial} (--num-enroll and
#      --trial-per-spk utterances per test speaker, same-gender non-targets), data/test_wer (the fixed utility
#      subset: --wer-per-spk trial utterances of each test speaker), data/train_xv (--xvector-train-per-spk
#      utterances of each train speaker: every attacker trains on these, original or converted)
#   1  forced alignment of data/test (pocketsphinx en-us): exp/align/test/wrd_ali/ctm
#   2  detection (grammars: digit strings, dates, times; no NER tagger is trained here) and text transformation
#      of data/test -> data/test_text
#   3  voice conversion with every method of --voice-configs: the published trial set (publisher seed --seed;
#      the utility set is its subset), and what the attackers need, converted from ORIGINAL audio: enrollment +
#      train_xv with the attacker's own seed (seed+1; lazy-informed, informed) and with shifted parameters and
#      seed+2 (parameter-shifted: conf/voice/*_shifted.yaml, VTLN pool size -T --vtln-shift-targets); VTLN
#      targets: the train speakers (same gender), modelled on their train_xv utterances
#   4  masking of every converted utility set (tagged words silenced, removed from the text) + verify-masking
#   5  utility: 3-gram LM of the training transcripts (never the test's), pocketsphinx decoding of the utility
#      subset, original / converted / converted-and-masked, with that LM and (--general-lm true) the general LM
#   6  x-vector attacks: original, and per method ignorant / lazy-informed / informed / parameter-shifted
#   7  report: RESULTS.md (one table: method x WER, EER per scenario with 95 % CI, rho_F0)
set -euo pipefail

stage=0
stop_stage=100
corpus_root=         # default: $SPEECHOCEAN of db.sh
size=default         # tiny: 3 f + 3 m speakers per split, 8 utterances each (the test of the recipe)
seed=0
nj=2
num_enroll=5         # enrollment utterances per test speaker
trial_per_spk=5      # trial utterances per test speaker (of the 15 others): 150 target trials on 30 speakers
wer_per_spk=2        # utility subset: trial utterances per test speaker decoded for every condition
xvector_train_per_spk=4   # utterances of each train speaker every attacker trains on (original or converted)
xvector_epochs=4     # the 30-minute budget: 4 of the config's 8 epochs (empty: the config's); tiny: 2
voice_configs="voicemask:- vtln:1 vtln:2 vtln:3 mcadams:-"   # <method>:<strategy|variant|vtlnN> (stage 3)
shifted_variant=_b       # parameter-shifted values: conf/voice/<method>_shifted$shifted_variant.yaml ("" = the mini's)
vtln_shift_targets=10     # parameter-shifted VTLN: target pool size -T (the publisher uses all train speakers)
shifted_configs=all       # the --voice-configs entries that get the parameter-shifted attacker (all, or a list)
general_lm=true           # also decode original and converted speech with the wheel's general LM (~4x slower)
lms=                      # stage 5/7 LMs: default "train" (+ "general" with --general-lm true); "general" alone
                          # skips the training-transcript LM and the masked decodings (bench/voice_real.sh)
text_strategy="PER=pseudonymize,NUM=random_digits,default=same_type"
mask_tags=PER,LOC,ORG,DATE,TIME,NUM
xvector_config=conf/xvector/mini.yaml
bootstrap=1000            # bootstrap resamples (speakers) for the EER intervals

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--corpus-root DIR] [--size default|tiny] [--nj 2] (see the header of $0)"
. utils/parse_options.sh

corpus_root=${corpus_root:-$SPEECHOCEAN}
log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') (run.sh:${BASH_LINENO[0]}) $*"; }
done_ok() { [ -d "$1" ] && utils/validate_data_dir.sh "$1" >/dev/null 2>&1; }
free_lane() { while [ "$(jobs -rp | wc -l)" -ge "$nj" ]; do sleep 1; done; }
wait_all() {
  local rc=0 pid
  for pid in $(jobs -p); do wait "$pid" || rc=1; done
  [ $rc -eq 0 ] || { echo "$0: a background job failed, see $1" >&2; exit 1; }
}
vname() { [ "$2" = "-" ] && echo "$1" || echo "$1$2"; }
shifted_for() { [ "$shifted_configs" = all ] || [[ " $shifted_configs " == *" $1 "* ]]; }
results=RESULTS.md
aseed=$((seed + 1))   # the attackers' own draws
sseed=$((seed + 2))   # the parameter-shifted attacker's draws
T_shift=$vtln_shift_targets; [ $size = tiny ] && T_shift=2
[ $size = tiny ] && [ "$xvector_epochs" = 4 ] && xvector_epochs=2   # tiny: 2 unless set otherwise
case $size in default|tiny) ;; *) echo "$0: --size must be default or tiny, not '$size'" >&2; exit 1 ;; esac
for vc in $voice_configs; do
  m=${vc%%:*}; st=${vc#*:}
  case $m in voicemask|vtln|mcadams) ;; *) echo "$0: unknown method in --voice-configs: $vc" >&2; exit 1 ;; esac
  if [ $m = vtln ]; then
    case $st in 1|2|3) ;; *) echo "$0: --voice-configs $vc: vtln takes a target strategy 1, 2 or 3" >&2; exit 1 ;; esac
  elif [[ $st == vtln[123] ]]; then
    [[ " $voice_configs " == *" vtln:${st#vtln} "* ]] ||
      { echo "$0: --voice-configs $vc chains on VTLN S${st#vtln}: add vtln:${st#vtln} to --voice-configs" >&2; exit 1; }
  elif [ "$st" != - ]; then
    for f in "conf/voice/${m}_$st.yaml" "conf/voice/${m}_${st}_shifted$shifted_variant.yaml"; do
      [ -f "$f" ] || { echo "$0: --voice-configs $vc: no config $f" >&2; exit 1; }
    done
  fi
done

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: data preparation from $corpus_root ($size)"
  [ -d "$corpus_root/WAVE" ] || { echo "$0: $corpus_root/WAVE not found (--corpus-root: speechocean762 root)" >&2; exit 1; }
  rm -f "$results"
  for split in train test; do
    if [ $size = tiny ]; then
      local/speechocean762/data_prep.sh "$corpus_root" $split data/${split}_full
      done_ok data/$split || local/speechocean762/subset_speakers.sh --per-gender 3 --utts 8 \
        data/${split}_full data/$split
    else
      local/speechocean762/data_prep.sh "$corpus_root" $split data/$split
    fi
  done
  ne=$num_enroll; nt=$trial_per_spk; [ $size = tiny ] && { ne=3; nt=5; }
  if ! done_ok data/test_trial; then
    pydeid make-trials --num-enroll "$ne" --seed "$seed" --same-gender-nontargets \
      data/test data/test_enroll data/test_trial_all
    utils/subset_data_dir.sh --per-spk "$nt" data/test_trial_all data/test_trial >/dev/null
    awk 'NR==FNR{keep[$1]=1; next} ($2 in keep)' data/test_trial/utt2spk data/test_trial_all/trials \
      >data/test_trial/trials
  fi
  done_ok data/test_wer || utils/subset_data_dir.sh --per-spk "$wer_per_spk" data/test_trial data/test_wer >/dev/null
  rm -f data/test_wer/trials
  n=$xvector_train_per_spk; [ $size = tiny ] && n=4
  done_ok data/train_xv || utils/subset_data_dir.sh --per-spk "$n" data/train data/train_xv >/dev/null
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: forced alignment of data/test (pocketsphinx en-us)"
  [ -s exp/align/test/wrd_ali/ctm ] && [ exp/align/test/wrd_ali/ctm -nt data/test/text ] ||
    steps/align.sh --backend pocketsphinx --phones false --nj "$nj" --cmd "$train_cmd" data/test en-us exp/align/test
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: detection (grammars) and text transformation of data/test"
  [ -s exp/tags/test/tags.conll ] && [ exp/tags/test/tags.conll -nt data/test/text ] ||
    steps/tag_entities.sh --detectors grammar --nj 1 --cmd "$decode_cmd" data/test - exp/tags/test
  done_ok data/test_text || steps/transform_text.sh --strategy "$text_strategy" --p 1.0 --seed "$seed" \
    --avoid-original true --secret-dir exp/secrets/text --exp-dir exp/transform_text/test data/test exp/tags/test/tags.conll data/test_text
fi

convert() {  # convert <method> <in-data> <out-data> <seed> [shifted|-] [config variant]
  local m=$1 c=${6:+_$6} opts=(--method "$1" --seed "$4" --resume true --nj "$nj" --cmd "$train_cmd")
  if [ "${5:-}" = shifted ]; then opts+=(--voice-config "conf/voice/${m}${c}_shifted${shifted_variant}.yaml")
  elif [ -n "$c" ]; then opts+=(--voice-config "conf/voice/${m}${c}.yaml"); fi
  [ "$m" = voicemask ] && opts+=(--target-data data/train_xv)   # the pool of pitch_mode target (else unused)
  done_ok "$3" || steps/transform_voice.sh "${opts[@]}" "$2" "exp/voice/$(basename "$3")" "$3"
}
convert_vtln() {  # convert_vtln <in-data> <max-targets> <pool-tag> <strategy>:<seed>:<out-data> ...: one pass
  local in=$1 T=$2 tag=$3
  shift 3
  steps/transform_voice_vtln_outputs.sh --nj "$nj" --cmd "$train_cmd" --max-targets "$T" \
    "$in" data/train_xv "exp/voice/vtln_pool_${tag}_s{seed}.npz" "$@"
}

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: voice conversion ($voice_configs) of the test set and of the attackers' data"
  vtln_st=$(for vc in $voice_configs; do [ "${vc%%:*}" = vtln ] && echo "${vc#*:}"; done; true)
  if [ -n "$vtln_st" ]; then
    convert_vtln data/test_trial 100 pub $(for st in $vtln_st; do echo "$st:$seed:data/test_trial_vtln$st"; done)
    for s in test_enroll train_xv; do
      convert_vtln data/$s 100 pub $(for st in $vtln_st; do echo "$st:$aseed:data/${s}_vtln${st}_a"; done)
      convert_vtln data/$s "$T_shift" shift \
        $(for st in $vtln_st; do echo "$st:$sseed:data/${s}_vtln${st}_ps"; done)
    done
  fi
  for vc in $voice_configs; do
    m=${vc%%:*}; v=$(vname "$m" "${vc#*:}")
    if [ "$m" != vtln ]; then
      # <method>:<variant>: conf/voice/<method>_<variant>.yaml (shifted: <method>_<variant>_shifted<sv>.yaml);
      # <method>:vtln<N>: the method applied on top of the VTLN S<N> outputs (each party chains its own)
      st=${vc#*:}; cv=; in=
      case $st in -) ;; vtln[123]) in=_$st ;; *) cv=$st ;; esac
      convert "$m" "data/test_trial$in" "data/test_trial_$v" "$seed" - "$cv"
      for s in test_enroll train_xv; do
        convert "$m" "data/$s${in:+${in}_a}" "data/${s}_${v}_a" "$aseed" - "$cv"
        if shifted_for "$vc"; then convert "$m" "data/$s${in:+${in}_ps}" "data/${s}_${v}_ps" "$sseed" shifted "$cv"; fi
      done
    fi
    # the published utility set is a part of the published (converted) trial set
    done_ok "data/test_wer_$v" || utils/subset_data_dir.sh --utt-list data/test_wer/utt2spk \
      "data/test_trial_$v" "data/test_wer_$v" >/dev/null
    cp data/test_trial/trials "data/test_trial_$v/trials"
  done
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: masking of the utility sets (converted voices, tagged words silenced) and the leak check"
  for vc in $voice_configs; do
    v=$(vname "${vc%%:*}" "${vc#*:}")
    done_ok "data/test_wer_${v}_masked" || steps/mask_words.sh --tags "$mask_tags" --seed "$seed" --on-untimed drop \
      --nj 1 --cmd "$train_cmd" "data/test_wer_$v" exp/tags/test/tags.conll exp/align/test/wrd_ali/ctm \
      "exp/mask/test_wer_$v" "data/test_wer_${v}_masked"
    steps/verify_masking.sh --tags "$mask_tags" --orig-data data/test_wer --results "$results" \
      --name "test_wer_$v (pocketsphinx CTM)" "data/test_wer_${v}_masked" exp/tags/test/tags.conll \
      exp/align/test/wrd_ali/ctm "exp/mask/test_wer_$v/verify"
  done
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: utility: pocketsphinx WER on the utility subset, original / converted / converted-and-masked"
  [ -n "$lms" ] || { lms="train"; $general_lm && lms="train general"; }
  if [[ " $lms " == *" train "* ]]; then steps/train_ngram_lm.sh --order 3 --not-from data/test data/train exp/lm_train; fi
  conds="test_wer"
  for vc in $voice_configs; do
    v=$(vname "${vc%%:*}" "${vc#*:}"); conds="$conds test_wer_$v"
    if [[ " $lms " == *" train "* ]]; then conds="$conds test_wer_${v}_masked"; fi
  done
  for lm in $lms; do
    lmarg=general; [ $lm = train ] && lmarg=exp/lm_train
    for c in $conds; do
      [ $lm = general ] && [[ $c == *_masked ]] && continue   # the general LM: original and converted only
      free_lane
      [ -s "exp/ps/decode_${lm}_$c/text" ] && continue   # decoded by an earlier invocation
      steps/decode_pocketsphinx.sh --lm "$lmarg" --nj 1 --cmd "$decode_cmd" "data/$c" "exp/ps/decode_${lm}_$c" \
        >/dev/null &
    done
  done
  wait_all "exp/ps/decode_*/log/decode.1.log"
  for lm in $lms; do
    for c in $conds; do
      steps/score.sh --results exp/ps/RESULTS.md "data/$c" "exp/ps/decode_${lm}_$c" | grep -E "^\|.*WER" || true
    done
  done
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  log "stage 6: x-vector attacks (original; per method ignorant, lazy-informed, informed, parameter-shifted)"
  xe=(); [ -n "$xvector_epochs" ] && xe=(--epochs "$xvector_epochs")
  steps/train_xvector.sh --xvector-config "$xvector_config" --seed "$seed" --cmd "$train_cmd" --num-threads "$nj" \
    "${xe[@]}" data/train_xv exp/xvector_original
  for s in train_xv test_enroll; do
    steps/extract_xvectors.sh --cmd "$train_cmd" exp/xvector_original data/$s exp/xvector_original/xvectors_$s \
      >exp/xvector_original/extract_$s.log 2>&1 &
  done
  wait_all "exp/xvector_original/extract_*.log"
  common=(--seed "$aseed" --xvector-config "$xvector_config" --nj 1 --num-threads 1 --cmd "$train_cmd" "${xe[@]}")
  attacks=()
  attack() {  # attack <scenario> <name> <method> <strategy> <train> <enroll> <trial> [attack.sh options]
    local sc=$1 name=$2 m=$3 st=$4 tr=$5 en=$6 te=$7
    shift 7
    attacks+=("$name")
    [ -f "exp/attack/$name/scores/metrics.json" ] && return 0
    free_lane
    steps/attack.sh "${common[@]}" --scenario "$sc" --method "$m" --strategy "$st" "$@" \
      "$tr" "$en" "$te" "exp/attack/$name" >"exp/attack/$name.log" 2>&1 &
  }
  mkdir -p exp/attack
  attack original original none - data/train_xv data/test_enroll data/test_trial --model exp/xvector_original
  for vc in $voice_configs; do
    m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
    opts=(--orig-trial data/test_trial --pitch-cache "exp/attack/pitch_$v.json")
    attack ignorant "ignorant_$v" "$m" "$st" data/train_xv data/test_enroll "data/test_trial_$v" \
      --model exp/xvector_original "${opts[@]}"
  done
  wait_all "exp/attack/ignorant_*.log"   # rho_F0 measured once per method, then read from the cache
  for vc in $voice_configs; do
    m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
    opts=(--orig-trial data/test_trial --pitch-cache "exp/attack/pitch_$v.json")
    attack lazy-informed "lazy-informed_$v" "$m" "$st" data/train_xv "data/test_enroll_${v}_a" "data/test_trial_$v" \
      --model exp/xvector_original "${opts[@]}"
    attack informed "informed_$v" "$m" "$st" "data/train_xv_${v}_a" "data/test_enroll_${v}_a" \
      "data/test_trial_$v" "${opts[@]}"
    if shifted_for "$vc"; then
      attack parameter-shifted "parameter-shifted_$v" "$m" "$st" "data/train_xv_${v}_ps" "data/test_enroll_${v}_ps" \
        "data/test_trial_$v" "${opts[@]}"
    fi
  done
  wait || true
  for name in "${attacks[@]}"; do
    [ -f "exp/attack/$name/scores/metrics.json" ] || {
      echo "$0: attack $name failed, see exp/attack/$name.log" >&2; tail -n 5 "exp/attack/$name.log" >&2; exit 1; }
  done
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  log "stage 7: report ($results)"
  [ -n "$lms" ] || { lms="train"; $general_lm && lms="train general"; }
  pydeid speechocean-report --results "$results" --voice-configs "$voice_configs" --lms "$lms" \
    --bootstrap "$bootstrap" --seed "$seed" --data data --exp exp
fi
log "done (stages $stage..$stop_stage); results in $results"
