#!/usr/bin/env bash
# egs/speechocean762/s5: de-identification measured on real voices (speechocean762: read English sentences of
# non-native adult speakers, the corpus's own train/test split, 30 + 30 speakers in the subset of ../shared/data).
# Privacy: x-vector and ECAPA-TDNN attackers trained from scratch on the train speakers and the pretrained GE2E
# encoder (resemblyzer's shipped weights; back-ends trained on the attacker's data), with Kaldi's energy VAD and
# without, EER (pooled/male/female, bootstrap 95 % CI) and linkability in the VoicePrivacy attacker scenarios
# semi-informed, lazy-informed, ignorant (+ parameter-shifted, informed-same-draws); rho_F0. Utility: WER of a pretrained
# recogniser (pocketsphinx en-us; a 3-gram LM of the training transcripts, and the wheel's general LM) on
# original vs converted vs converted-and-masked test speech, as the VoicePrivacy Challenge measures it.
#
#   ./run.sh [--stage N] [--stop-stage M] [--corpus-root DIR] [--size default|tiny] [--nj 2] [--seed 0]
#            [--attacker-extra-data ""|vctk] [--vctk-table true] [--general-lm true] [--corpus-lm true]
#            [--voice-configs "voicemask:- vtln:1 vtln:2 vtln:3 mcadams:- vtln:3_ufvphanycmnw frame_select:seg"] [--lms "general train"]
#            [--espnet true] [--neutral-voice frame_select:seg] [--asr-max-epoch N] [--lm-max-epoch N] [--per true]
#            [--attackers "xvector:conf/xvector/mini.yaml ecapa:conf/xvector/ecapa_mini.yaml ge2e:conf/xvector/ge2e.yaml"]
#            [--front-ends "energy none"] [--ecapa-epochs N]
#   --voice-configs: <method>:<strategy> for vtln, or <strategy>_<variant> (conf/voice/vtln_<variant>.yaml, the
#   parameter-shifted attacker with the same config and -T --vtln-shift-targets); for voicemask/mcadams "-"
#   (conf/voice/<method>.yaml), a config variant (conf/voice/<method>_<variant>.yaml, parameter-shifted
#   <method>_<variant>_shifted<sv>.yaml), vtln<N>[_<variant>]: the method applied on top of those VTLN
#   conversions (vtln:<N>[_<variant>] must be listed too), or <variant>+vtln<N>[_<variant>]: both
#   --lms: the pocketsphinx LMs of stage 5, the first the primary meter, the last also decodes the masked sets
#   (default from --general-lm/--corpus-lm: "train"; with --general-lm true: "general train")
#
#   0  data prep: data/train, data/test (genders, durations), data/test_{enroll,trial} (--num-enroll and
#      --trial-per-spk utterances per test speaker, same-gender non-targets), data/test_wer (the fixed utility
#      subset: --wer-per-spk trial utterances of each test speaker), data/train_xv (--xvector-train-per-spk
#      utterances of each train speaker, default 20: all of them; the original-trained attackers train on these),
#      data/train_xvc (--converted-train-per-spk of them: what the extra-row attackers parameter-shifted and
#      informed-same-draws convert and train on; the semi-informed attacker converts all of data/train_xv), data/train_vtln (--vtln-target-per-spk utterances of each train speaker: the VTLN target
#      voices), data/vctk_full (../shared/data/vctk_subset, 77 utterances; with --vctk-table true or
#      --attacker-extra-data vctk) and data/vctk (--vctk-per-spk of them: the VCTK table)
#   1  forced alignment of the utility subset data/test_wer (pocketsphinx en-us): exp/align/test_wer/wrd_ali/ctm
#      (the masking of stage 4 is the only user of the word times)
#   2  detection with the default detectors (spaCy md NER, grammars, gazetteer, cue names, categories: no training
#      needed; the upper-case transcripts are tagged lower-cased, --uncased-input) and text transformation of
#      data/test -> data/test_text
#   3  voice conversion with every method of --voice-configs: the published trial set (publisher seed --seed;
#      the utility set is its subset), and what the attackers need, converted from ORIGINAL audio: enrollment and
#      all of train_xv (data/train_xv_<v>_a) with the attacker's own seed (seed+1; lazy-informed, semi-informed);
#      enrollment + train_xvc with the publisher's seed (data/*_<v>_p: informed-same-draws) and with shifted
#      parameters and seed+2 (_ps: parameter-shifted: conf/voice/*_shifted.yaml, VTLN pool size -T --vtln-shift-targets); VTLN
#      targets: the train speakers (same gender), modelled on data/train_vtln; frame selection's matching set: all of
#      data/train_xv (phone alignments of every set it converts in exp/align_ph); data/vctk with the publisher's
#      seed (--vctk-table) and, for --attacker-extra-data vctk, with the attackers' seeds and parameters
#   4  masking of every converted utility set (tagged words silenced, removed from the text) + verify-masking
#   4b (--neutral-corpus true) the neutral corpus of the utility subset in both modes, from the stage-2 tags and the
#      --neutral-voice conversion (stage 3's, else converted here with the publisher's seed and pool): silence
#      (steps/mask_words.sh, verify-masking) and spoken pseudonyms (steps/mask_spoken.sh: each hidden entity said as
#      its data/test_text surrogate by an espeak voice matched to the speaker; steps/verify_spoken.sh); the
#      utterances with a hidden entity (the only ones where the modes differ) decoded by pocketsphinx (--neutral-lm)
#      in each mode and scored against that mode's own published (transformed) transcript, and the conversion alone
#      against the original text (--neutral-reference), with 95 % speaker-bootstrap intervals: exp/neutral/results.md
#      and a section of RESULTS.md
#      (--transcripts asr) also data/test_neutral_asr: the same utterances de-identified from Whisper's hypothesis
#      and word times instead of the reference and the forced alignment (steps/mask_from_asr.sh; verify-masking
#      against Whisper's own times: what Whisper missed or misheard is not checked)
#   5  utility: (--whisper true) the Whisper meter (--whisper-model, faster-whisper int8 on one core, loop guards;
#      docs/utility_meters.md) decodes the utility subset: original, every conversion, the masked sets of stage 4,
#      the stage-4b neutral corpus (its utterances of the subset, scored against its own published text), and with
#      --vctk-table the VCTK sample, original and converted: exp/utility/whisper{,_vctk}.md (WER with speaker-
#      bootstrap 95 % CI, the paired difference vs original speech, guard counts, the meter's own WER and RTF,
#      pocketsphinx's WER as the second column) and sections of RESULTS.md;
#      pocketsphinx decoding of the utility subset, original and converted, with the wheel's general LM
#      (the primary meter; --general-lm false: the corpus LM instead) and with a 3-gram LM of the training
#      transcripts (never the test's; --corpus-lm), which also decodes the converted-and-masked sets; with
#      --vctk-table true the same general-LM decoding of data/vctk, original and converted
#      (--per true) phone-loop decoding of the utility subset, original and converted, scored as phone error rate
#      against the CMU-dictionary pronunciation: exp/utility/per.tsv (PER with speaker-bootstrap 95 % CI, paired
#      difference vs original, the primary meter's WER, the meter's own PER and WER on original speech) and
#      exp/utility/per_pairs.tsv (paired differences between methods); docs/utility_meters.md
#   5b (--espnet true) the ESPnet ASR as the mini recipe trains it (conf/asr/small.yaml CTC + character LSTM LM of
#      its own transcripts) on the ORIGINAL training speakers (data/train minus --asr-dev-per-spk utterances per
#      speaker held out for validation) and on the NEUTRAL training data (the same utterances converted with
#      --neutral-voice by the publisher, --seed, targets as in stage 3; the words tagged by the grammars
#      silenced and removed, word times from a pocketsphinx alignment of the tagged utterances; verify-masking),
#      each decoded on the utility subset: original, converted (--neutral-voice), converted-and-masked
#   6  attacks, for every attacker of --attackers (x-vector: PLDA + cosine; ECAPA-TDNN: cosine + PLDA) and every
#      front-end of --front-ends (energy: Kaldi compute-vad, none), exp/attack/<model>_<front-end>/: original, and
#      per method semi-informed (trained on ALL of data/train_xv converted by the attacker), lazy-informed,
#      ignorant; for VTLN S1/S2 (one target per speaker) the semi-informed model enrolled on enrollment converted
#      with the publisher's draws (variant: enrollment and trials of a speaker share a target, as in one published
#      corpus); with the first attacker and --extra-rows-front-end the extra rows parameter-shifted and (--same-draws true)
#      informed-same-draws (converts with the publisher's seed, knows its draws), both on data/train_xvc
#      (--attacker-extra-data vctk: the VCTK speakers join every attacker's training data, original for the
#      original-trained attackers, converted by the attacker for the others; exp/attack_xvctk)
#   7  report: RESULTS.md (method x WER, EER per scenario with 95 % CI, rho_F0 of the primary attacker (the first
#      of --attackers with the first of --front-ends); the grid of every attacker and front-end with linkability;
#      the methods ranked under the strongest VAD attacker; VCTK table; ESPnet table; CPU time per stage)
# Every stage appends its wall and CPU seconds (user+sys of its processes) to exp/stage_times.tsv.
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
xvector_train_per_spk=20  # utterances of each train speaker the original-trained attackers train on: 20 = all
                          # (600); 4 gave the original-speech PLDA attacker 17.3 % EER, 20 gave 10.0 % (4 epochs)
converted_train_per_spk=4 # of these, the utterances the extra-row attackers (parameter-shifted,
                          # informed-same-draws) convert to train on: the run-time budget; the semi-informed
                          # attacker always converts all of them (VoicePrivacy 2024)
vtln_target_per_spk=4     # utterances of each train speaker that model the VTLN target voices
xvector_epochs=8     # original-speech PLDA attacker on 600 utterances: 4 epochs 10.0 %, 8 8.7 %, 12 7.3 % (the
                     # config's 8: the run-time budget); tiny: 2
ecapa_epochs=        # empty: the ECAPA config's (conf/xvector/ecapa_mini.yaml: 10); tiny: 2
attackers="xvector:conf/xvector/mini.yaml ecapa:conf/xvector/ecapa_mini.yaml ge2e:conf/xvector/ge2e.yaml"   # <model>:<config> (stage 6)
                          # ge2e: the pretrained encoder shipped in the resemblyzer wheel (nothing trained; cosine,
                          # LDA + whitening + cosine and PLDA back-ends): the strongest on these speakers (RESULTS.md)
front_ends="energy none"  # every attacker's front-end (training, enrolment, trials): energy = Kaldi compute-vad
                          # (the default of the configs), none = whole utterances
extra_rows_front_end=energy  # the front-end of the extra rows (parameter-shifted, informed-same-draws; the first
                             # attacker of --attackers only)
attacker_extra_data=      # vctk: the VCTK sample's speakers join every attacker's training data
voice_configs="voicemask:- vtln:1 vtln:2 vtln:3 mcadams:- vtln:3_ufvphanycmnw frame_select:seg"   # <method>:<strategy|variant|vtlnN> (stage 3); phone classes (bench/results/voice_real_unvoiced.md) and frame selection by phone segments (conf/voice/frame_select_seg.yaml; bench/results/voice_frame_select.md): the two best trade-offs on real voices, both need transcripts
shifted_variant=_b       # parameter-shifted values: conf/voice/<method>_shifted$shifted_variant.yaml ("" = the mini's)
vtln_shift_targets=10     # parameter-shifted VTLN: target pool size -T (the publisher uses all train speakers)
shifted_configs=all       # the --voice-configs entries that get the parameter-shifted attacker (all, or a list)
whisper=true              # stage 5: the Whisper meter (the primary utility figure; pocketsphinx the second column)
whisper_model=tiny.en     # tiny.en | base (bench/results/whisper_meter.md: how the default was chosen)
general_lm=false          # the wheel's general LM is pocketsphinx's LM (false: the corpus LM is: pocketsphinx is
                          # the second column beside Whisper, and the general LM costs 5x its CPU, ~15 CPU-min)
per=true                  # stage 5 also decodes phones (phone loop) and writes the PER table exp/utility/per.tsv
corpus_lm=true            # also decode original and converted speech with the 3-gram of the training transcripts
vctk_table=false          # the pocketsphinx table of the VCTK sample (original and converted, general LM; +13
                          # CPU-min: off in the 30-minute default)
same_draws=true           # the extra informed-same-draws row (the attacker converts with the publisher's seed)
espnet=false              # stage 5b: ESPnet ASR trained on original and on neutral training data (off by default:
                          # beyond the 30-minute budget, see RESULTS.md for its CPU time)
neutral_voice=frame_select:seg   # the published voices (stage 4b, and 5b's neutral training data: one of --voice-configs there; no chain): the strongest against the semi-informed attacker (README)
asr_config=conf/asr/small.yaml
asr_max_epoch=15          # the mini recipe's 15 of the small tier's 20 epochs; empty: the config's; tiny: 2
lm_config=conf/asr/lm.yaml
lm_max_epoch=             # empty: the config's (20); tiny: 2
asr_dev_per_spk=2         # utterances of each train speaker held out as the ASR's validation set (60 of 600)
vctk_root=                # default: $VCTK_SUBSET of db.sh
vctk_per_spk=4            # VCTK utterances per speaker (13 speakers, 9 of them with one utterance; 0: all 77)
lms=                      # stage 5/7 LMs (empty: from --general-lm/--corpus-lm); "general" alone skips the
                          # training-transcript LM (bench/voice_real.sh)
text_strategy="default=surrogate"   # values from outside the corpus, consistent per dialogue (docs/surrogates.md)
pseudonym_source=faker    # stage 2: transform-text --pseudonym-source (corpus: names of the corpus itself, never for a corpus to share)
detect_opts="--uncased-input true"   # stage 2: steps/tag_entities.sh options (default detectors; upper-case text)
neutral_corpus=true       # stage 4b: the neutral utility subset in both modes (silence, spoken pseudonyms)
neutral_lm=train          # stage 4b: the pocketsphinx LM of its WER (general | train: the stage-5 corpus LM)
neutral_reference=true    # stage 4b: also decode the converted voices (nothing hidden) of the same utterances
mask_tags=all   # every type the detectors can emit (a narrower list leaves the others in)
transcripts=reference     # stage 4b: reference (transcript + forced alignment) | asr: also the neutral set made from
                          # Whisper's hypothesis and word times (steps/mask_from_asr.sh -> data/test_neutral_asr)
xvector_config=conf/xvector/mini.yaml
bootstrap=1000            # bootstrap resamples (speakers) for the EER intervals

. ./db.sh
. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--corpus-root DIR] [--size default|tiny] [--nj 2] (see the header of $0)"
. utils/parse_options.sh

corpus_root=${corpus_root:-$SPEECHOCEAN}
vctk_root=${vctk_root:-$VCTK_SUBSET}
. utils/log.sh   # log <message>: "<UTC time> (run.sh:<line>) <message>"
. utils/recipe.sh   # done_ok <data-dir>, free_lane (at most $nj background jobs), wait_all <logs>, vname <m> <st>
# CPU seconds (user+sys) of this shell's finished children: bash `times` (second line "XmY.YYYs XmY.YYYs"), run
# in this shell (a $(...) subshell would start from zero) into a file
cpu_children() {
  mkdir -p exp; times >exp/.times
  awk 'NR==2 {t=0; for (i=1;i<=2;i++) {split($i,a,"m"); sub("s","",a[2]); t+=a[1]*60+a[2]} printf "%.1f", t}' exp/.times
}
t_stage= t_wall= t_cpu=
stage_begin() {  # stage_begin <n>: closes the previous stage's record
  stage_end; cpu_children >exp/.cpu0; t_stage=$1; t_wall=$(date +%s); t_cpu=$(cat exp/.cpu0)
}
stage_end() {
  [ -n "$t_stage" ] || return 0
  local c1; cpu_children >exp/.cpu1; c1=$(cat exp/.cpu1)
  [ -s exp/stage_times.tsv ] || printf 'stage\twall_s\tcpu_s\tfinished\n' >exp/stage_times.tsv
  awk -v s="$t_stage" -v w=$(( $(date +%s) - t_wall )) -v c0="$t_cpu" -v c1="$c1" \
    -v d="$(date -u +%FT%T)" 'BEGIN{printf "%s\t%d\t%.1f\t%s\n", s, w, c1 - c0, d}' >>exp/stage_times.tsv
  t_stage=
}
shifted_for() { [ "$shifted_configs" = all ] || [[ " $shifted_configs " == *" $1 "* ]]; }
results=RESULTS.md
aseed=$((seed + 1))   # the attackers' own draws
sseed=$((seed + 2))   # the parameter-shifted attacker's draws
T_shift=$vtln_shift_targets; [ $size = tiny ] && T_shift=2
[ $size = tiny ] && [ "$xvector_epochs" = 8 ] && xvector_epochs=2   # tiny: 2 unless set otherwise
[ $size = tiny ] && [ -z "$ecapa_epochs" ] && ecapa_epochs=2
for fe in $front_ends; do
  case $fe in energy|none) ;; *) echo "$0: unknown front-end '$fe' in --front-ends (known: energy none)" >&2; exit 1 ;; esac
done
case $extra_rows_front_end in energy|none) ;; *)
  echo "$0: --extra-rows-front-end must be energy or none, not '$extra_rows_front_end'" >&2; exit 1 ;; esac
for att in $attackers; do
  case ${att%%:*} in xvector|ecapa|ge2e) ;; *) echo "$0: unknown attacker '${att%%:*}' in --attackers (known: xvector ecapa ge2e)" >&2; exit 1 ;; esac
  [ -f "${att#*:}" ] || { echo "$0: --attackers $att: no config ${att#*:}" >&2; exit 1; }
done
case $size in default|tiny) ;; *) echo "$0: --size must be default or tiny, not '$size'" >&2; exit 1 ;; esac
for vc in $voice_configs; do
  m=${vc%%:*}; st=${vc#*:}
  case $m in voicemask|vtln|mcadams|frame_select) ;; *) echo "$0: unknown method in --voice-configs: $vc" >&2; exit 1 ;; esac
  if [ $m = vtln ]; then
    case $st in 1|2|3) ;; [123]_*) utils/voice_config.sh "conf/voice/vtln_${st#*_}.yaml" >/dev/null 2>&1 ||
      { echo "$0: --voice-configs $vc: no config conf/voice/vtln_${st#*_}.yaml" >&2; exit 1; } ;;
      *) echo "$0: --voice-configs $vc: vtln takes a target strategy 1, 2 or 3" >&2; exit 1 ;; esac
  else
    cv=$st; base=
    case $st in *+vtln[123]*) cv=${st%%+*}; base=${st#*+} ;; vtln[123]*) cv=-; base=$st ;; esac
    if [ -n "$base" ]; then
      [[ " $voice_configs " == *" vtln:${base#vtln} "* ]] ||
        { echo "$0: --voice-configs $vc chains on VTLN S${base#vtln}: add vtln:${base#vtln} to --voice-configs" >&2; exit 1; }
    fi
    if [ "$cv" != - ]; then
      for f in "conf/voice/${m}_$cv.yaml" "conf/voice/${m}_${cv}_shifted$shifted_variant.yaml"; do
        utils/voice_config.sh "$f" >/dev/null 2>&1 || { echo "$0: --voice-configs $vc: no config $f" >&2; exit 1; }
      done
    fi
  fi
done
if [ "$shifted_configs" != all ]; then   # a --shifted-configs entry not in --voice-configs would silently drop its attack
  for sc in $shifted_configs; do
    [[ " $voice_configs " == *" $sc "* ]] ||
      { echo "$0: --shifted-configs $sc is not one of --voice-configs ($voice_configs)" >&2; exit 1; }
  done
fi
case $transcripts in reference|asr) ;; *) echo "$0: --transcripts must be reference or asr, not '$transcripts'" >&2; exit 1 ;; esac
case $whisper_model in tiny.en|base) ;; *) echo "$0: --whisper-model must be tiny.en or base, not '$whisper_model'" >&2; exit 1 ;; esac
for b in whisper general_lm corpus_lm vctk_table same_draws espnet neutral_corpus neutral_reference per; do
  case ${!b} in true|false) ;; *) echo "$0: --${b//_/-} must be true or false, not '${!b}'" >&2; exit 1 ;; esac
done
if $espnet; then
  [[ " $voice_configs " == *" $neutral_voice "* ]] ||
    { echo "$0: --neutral-voice $neutral_voice is not one of --voice-configs ($voice_configs)" >&2; exit 1; }
  [[ ${neutral_voice#*:} == vtln[123] ]] &&
    { echo "$0: --neutral-voice $neutral_voice: a chained conversion cannot be the neutral voice" >&2; exit 1; }
  if [ $size = tiny ]; then   # 2 epochs unless set otherwise
    [ "$asr_max_epoch" = 15 ] && asr_max_epoch=2
    lm_max_epoch=${lm_max_epoch:-2}
  fi
  for n in asr_max_epoch lm_max_epoch asr_dev_per_spk; do
    case ${!n} in ''|*[!0-9]*) [ -z "${!n}" ] && [ $n != asr_dev_per_spk ] ||
      { echo "$0: --${n//_/-} must be a whole number, not '${!n}'" >&2; exit 1; } ;; esac
  done
  [ "$asr_dev_per_spk" -ge 1 ] || { echo "$0: --asr-dev-per-spk must be >= 1" >&2; exit 1; }
fi
if $neutral_corpus; then
  case ${neutral_voice%%:*}:${neutral_voice#*:} in
    vtln:[123]|vtln:[123]_*|voicemask:*|mcadams:*|frame_select:*) ;;
    *) echo "$0: --neutral-voice $neutral_voice: expected vtln:<1|2|3>[_variant], voicemask:<variant|->, mcadams:<variant|-> or frame_select:<variant|->" >&2; exit 1 ;;
  esac
  [[ ${neutral_voice#*:} == *vtln[123]* ]] &&
    { echo "$0: --neutral-voice $neutral_voice: a chained conversion cannot be the neutral voice" >&2; exit 1; }
  nst=${neutral_voice#*:} nf=   # a variant names a config that must exist (else stage 4b would fail late)
  case ${neutral_voice%%:*}:$nst in vtln:[123]_*) nf=conf/voice/vtln_${nst#*_}.yaml ;; vtln:*|*:-) ;;
    *) nf=conf/voice/${neutral_voice%%:*}_$nst.yaml ;; esac
  [ -z "$nf" ] || utils/voice_config.sh "$nf" >/dev/null 2>&1 ||
    { echo "$0: --neutral-voice $neutral_voice: no config $nf" >&2; exit 1; }
  case $neutral_lm in general|train) ;; *) echo "$0: --neutral-lm must be general or train, not '$neutral_lm'" >&2; exit 1 ;; esac
fi
case "$attacker_extra_data" in
  ""|none) attacker_extra_data= ;;
  vctk) ;;
  *) echo "$0: unknown --attacker-extra-data '$attacker_extra_data' (known: vctk)" >&2; exit 1 ;;
esac
use_vctk=false; { $vctk_table || [ -n "$attacker_extra_data" ]; } && use_vctk=true
xtag=${attacker_extra_data:+_x$attacker_extra_data}   # attackers with extra training data: exp/attack$xtag
plm=train; $general_lm && plm=general                   # the primary WER meter
if [ -z "$lms" ]; then lms=$plm; $corpus_lm && [ $plm = general ] && lms="general train"; fi
for lm in $lms; do
  case $lm in general|train) ;; *) echo "$0: unknown LM '$lm' in --lms (known: general train)" >&2; exit 1 ;; esac
done
mkdir -p exp
trap stage_end EXIT

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  stage_begin 0
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
  n=$xvector_train_per_spk; [ $size = tiny ] && n=8
  done_ok data/train_xv || utils/subset_data_dir.sh --per-spk "$n" data/train data/train_xv >/dev/null
  n=$converted_train_per_spk; [ $size = tiny ] && n=4
  done_ok data/train_xvc || utils/subset_data_dir.sh --per-spk "$n" data/train_xv data/train_xvc >/dev/null
  n=$vtln_target_per_spk; [ $size = tiny ] && n=4
  done_ok data/train_vtln || utils/subset_data_dir.sh --per-spk "$n" data/train data/train_vtln >/dev/null
  if $use_vctk; then
    # data/vctk_full: the 77 utterances (the attackers' extra data); data/vctk: the table's subset
    if [ $size = tiny ]; then   # 2 f + 2 m speakers, 1 utterance each
      local/speechocean762/prepare_vctk.sh "$vctk_root" data/vctk_full_all
      done_ok data/vctk_full || local/speechocean762/subset_speakers.sh --per-gender 2 --utts 2 data/vctk_full_all \
        data/vctk_full
      done_ok data/vctk || utils/subset_data_dir.sh --per-spk 1 data/vctk_full data/vctk >/dev/null
    else
      local/speechocean762/prepare_vctk.sh "$vctk_root" data/vctk_full
      n=$vctk_per_spk; [ "$n" -gt 0 ] || n=1000
      done_ok data/vctk || utils/subset_data_dir.sh --per-spk "$n" data/vctk_full data/vctk >/dev/null
    fi
  fi
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  stage_begin 1
  log "stage 1: forced alignment of the utility subset data/test_wer (pocketsphinx en-us)"
  [ -s exp/align/test_wer/wrd_ali/ctm ] && [ exp/align/test_wer/wrd_ali/ctm -nt data/test_wer/text ] ||
    steps/align.sh --backend pocketsphinx --phones false --nj "$nj" --cmd "$train_cmd" data/test_wer en-us \
      exp/align/test_wer
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  stage_begin 2
  log "stage 2: detection (default detectors) and text transformation of data/test"
  # kept on a rerun unless their inputs changed (other detectors, strategy or seed): then made again, and every
  # later step that reads them sees the change (utils/redo_on_new_inputs.sh)
  utils/redo_on_new_inputs.sh exp/tags/test_inputs exp/tags/test --file data/test/text --value="$detect_opts"
  [ -s exp/tags/test/tags.conll ] && [ exp/tags/test/tags.conll -nt data/test/text ] ||
    steps/tag_entities.sh $detect_opts --nj 1 --cmd "$decode_cmd" data/test - exp/tags/test
  utils/redo_on_new_inputs.sh exp/transform_text/test_inputs data/test_text --file exp/tags/test/tags.conll \
    --value="$text_strategy" --value="$seed" --value="$pseudonym_source"
  done_ok data/test_text || steps/transform_text.sh --strategy "$text_strategy" --p 1.0 --seed "$seed" \
    --pseudonym-source "$pseudonym_source" \
    --avoid-original true --secret-dir exp/secrets/text --exp-dir exp/transform_text/test data/test exp/tags/test/tags.conll data/test_text
fi

# the conversions (steps/convert_voice.sh): VTLN targets modelled on data/train_vtln, one target pool per party and
# seed (exp/voice/vtln_pool_<pub|shift>_s<seed>.npz); VoiceMask's pitch-target pool and frame selection's matching
# set: the train_xv speakers (all their utterances: the more target speech, the better the match)
ctargets="--target-data data/train_vtln --pitch-target-data data/train_xv --frame-target-data data/train_xv"
cvopts=(--nj "$nj" --cmd "$train_cmd" $ctargets)
vtln_opts() {  # vtln_opts <variant|-> <max-targets> <pool-tag>: a VTLN pass's options (config, -T, pool), one line
  local o="--max-targets $2 --pool-file exp/voice/vtln_pool_$3_s{seed}.npz"
  [ "$1" = - ] || o+=" --voice-config conf/voice/vtln_$1.yaml"
  echo "$o"
}
conf_opts() {  # conf_opts <method> <variant|""> [shifted]: the config of a voicemask/mcadams conversion
  local c=${2:+_$2}
  if [ "${3:-}" = shifted ]; then echo "--voice-config conf/voice/$1${c}_shifted$shifted_variant.yaml"
  elif [ -n "$c" ]; then echo "--voice-config conf/voice/$1$c.yaml"; fi
}
neutral_conversion() {  # --neutral-voice as steps/make_neutral.sh --voice "$nvoice" --convert-opts "$nopts"
  local var=- cv=
  if [ "$nm" = vtln ]; then
    [[ $nst == *_* ]] && var=${nst#*_}
    nvoice=vtln:${nst%%_*}; nopts="--nj $nj $ctargets $(vtln_opts "$var" 100 pub)"
  else
    [ "$nst" != - ] && cv=$nst
    nvoice=$nm:-; nopts="--nj $nj $ctargets $(conf_opts "$nm" "$cv")"
  fi
}
vtln_shifted() {  # vtln_shifted <strategy[_variant]>: does a parameter-shifted attack use these VTLN conversions?
  local vc
  for vc in $voice_configs; do
    case $vc in "vtln:$1"|*":vtln$1"|*"+vtln$1") shifted_for "$vc" && return 0 ;; esac
  done
  return 1
}

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  stage_begin 3
  log "stage 3: voice conversion ($voice_configs) of the test set and of the attackers' data"
  pub=(test_trial)
  # <source>:<output prefix>:<parties>: a = the attacker's own draws (lazy- and semi-informed), p = the publisher's
  # draws (informed-same-draws), s = shifted parameters. Semi-informed converts ALL its training utterances
  # (train_xv); the extra rows convert the --converted-train-per-spk subset train_xvc
  att=(test_enroll:test_enroll:aps train_xv:train_xv:a train_xvc:train_xv:ps)
  $vctk_table && pub+=(vctk)
  [ -n "$attacker_extra_data" ] && att+=(vctk_full:vctkx:as)   # every VCTK utterance (77), not the table's subset
  vtln_all=$(for vc in $voice_configs; do [ "${vc%%:*}" = vtln ] && echo "${vc#*:}"; done; true)
  # one pass per VTLN config (conf/voice/vtln.yaml, or vtln_<variant>.yaml for <strategy>_<variant>)
  for var in $(for st in $vtln_all; do [[ $st == *_* ]] && echo "${st#*_}" || echo -; done | sort -u); do
    vtln_st=$(for st in $vtln_all; do
      if [[ $st == *_* ]]; then [ "${st#*_}" = "$var" ] && echo "$st"; else [ "$var" = - ] && echo "$st"; fi
    done; true)
    for s in "${pub[@]}"; do
      steps/convert_voice.sh "${cvopts[@]}" $(vtln_opts "$var" 100 pub) vtln data/$s $(for st in $vtln_st; do echo "${st%%_*}:$seed:data/${s}_vtln$st"; done)
    done
    for sp in "${att[@]}"; do
      IFS=: read -r src s parties <<<"$sp"
      steps/convert_voice.sh "${cvopts[@]}" $(vtln_opts "$var" 100 pub) vtln data/$src $(for st in $vtln_st; do
        [[ $parties == *a* ]] && echo "${st%%_*}:$aseed:data/${s}_vtln${st}_a"
        [[ $parties == *p* ]] && $same_draws && echo "${st%%_*}:$seed:data/${s}_vtln${st}_p"; done; true)
      if [[ $parties == *s* ]]; then
        steps/convert_voice.sh "${cvopts[@]}" $(vtln_opts "$var" "$T_shift" shift) vtln data/$src \
          $(for st in $vtln_st; do vtln_shifted "$st" && echo "${st%%_*}:$sseed:data/${s}_vtln${st}_ps"; done; true)
      fi
    done
  done
  for vc in $voice_configs; do
    m=${vc%%:*}; v=$(vname "$m" "${vc#*:}")
    if [ "$m" != vtln ]; then
      # <method>:<variant>: conf/voice/<method>_<variant>.yaml (shifted: <method>_<variant>_shifted<sv>.yaml);
      # <method>:vtln<N>: the method applied on top of the VTLN S<N> outputs (each party chains its own)
      st=${vc#*:}; cv=; in=
      case $st in -) ;; *+vtln[123]*) cv=${st%%+*}; in=_${st#*+} ;; vtln[123]*) in=_$st ;; *) cv=$st ;; esac
      for s in "${pub[@]}"; do
        steps/convert_voice.sh "${cvopts[@]}" $(conf_opts "$m" "$cv") "$m" "data/$s$in" "-:$seed:data/${s}_$v"
      done
      for sp in "${att[@]}"; do
        IFS=: read -r src s parties <<<"$sp"
        [ -n "$in" ] && src=$s   # chained: the party's own VTLN output data/<prefix>_vtlnN_<a|p|ps>
        if [[ $parties == *a* ]]; then
          steps/convert_voice.sh "${cvopts[@]}" $(conf_opts "$m" "$cv") "$m" "data/$src${in:+${in}_a}" \
            "-:$aseed:data/${s}_${v}_a"
        fi
        if [[ $parties == *p* ]] && $same_draws; then
          steps/convert_voice.sh "${cvopts[@]}" $(conf_opts "$m" "$cv") "$m" "data/$src${in:+${in}_p}" \
            "-:$seed:data/${s}_${v}_p"
        fi
        if [[ $parties == *s* ]] && shifted_for "$vc"; then
          steps/convert_voice.sh "${cvopts[@]}" $(conf_opts "$m" "$cv" shifted) "$m" "data/$src${in:+${in}_ps}" \
            "-:$sseed:data/${s}_${v}_ps"
        fi
      done
    fi
    # the published utility set is a part of the published (converted) trial set
    done_ok "data/test_wer_$v" || utils/subset_data_dir.sh --utt-list data/test_wer/utt2spk \
      "data/test_trial_$v" "data/test_wer_$v" >/dev/null
    cp data/test_trial/trials "data/test_trial_$v/trials"
  done
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  stage_begin 4
  log "stage 4: masking of the utility sets (converted voices, tagged words silenced) and the leak check"
  ctm=exp/align/test_wer/wrd_ali/ctm
  for vc in $voice_configs; do
    v=$(vname "${vc%%:*}" "${vc#*:}")
    done_ok "data/test_wer_$v" || { log "no data/test_wer_$v (stage 3 not run): not masked"; continue; }
    steps/make_neutral.sh --source-data data/test_wer --seed "$seed" --tags "$mask_tags" --on-untimed drop --nj 1 \
      --publish false --cmd "$train_cmd" --results "$results" --name "test_wer_$v (pocketsphinx CTM)" "data/test_wer_$v" \
      exp/tags/test/tags.conll $ctm "exp/mask/test_wer_$v" "data/test_wer_${v}_masked"
  done
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ] && $neutral_corpus; then
  stage_begin 4b
  nm=${neutral_voice%%:*}; nst=${neutral_voice#*:}; nv=$(vname "$nm" "$nst")
  log "stage 4b: neutral corpus of data/test_wer + the test utterances with a hidden entity in both modes ($nv voices): silence and spoken pseudonyms, leak checks, WER"
  nd=exp/neutral
  mkdir -p $nd
  # the stage's set: the utility subset plus every test utterance with a hidden entity (where the modes differ)
  awk -v tags="$mask_tags" 'BEGIN {n = split(tags, a, ","); for (i = 1; i <= n; i++) t[a[i]] = 1}
    /^# id = / {id = $4} NF >= 2 && $2 ~ /^B-/ && (tags == "all" || substr($2, 3) in t) {print id}' \
    exp/tags/test/tags.conll | sort -u >$nd/entity_utts
  cut -d' ' -f1 data/test_wer/utt2spk | sort -u | sort -mu - $nd/entity_utts >$nd/utts
  src=data/test_neutral_src
  if ! done_ok $src || ! cmp -s <(cut -d' ' -f1 $src/utt2spk) $nd/utts; then
    rm -rf $src data/test_neutral_src_* data/test_neutral_{silence,spoken}* $nd/{silence,spoken,decode_*} \
      exp/secrets/neutral_spoken   # a new set (other tags): everything made from the old one goes
    utils/subset_data_dir.sh --utt-list $nd/utts data/test $src >/dev/null
  fi
  ctm=exp/align/test_neutral_src/wrd_ali/ctm
  [ -s $ctm ] && [ $ctm -nt $src/text ] ||
    steps/align.sh --backend pocketsphinx --phones false --nj 1 --cmd "$train_cmd" $src en-us exp/align/test_neutral_src
  conv=data/test_neutral_src_$nv   # the publisher's conversion (--seed, the stage-3 target pool)
  neutral_conversion
  steps/make_neutral.sh --voice "$nvoice" --convert-opts "$nopts" --source-data $src --seed "$seed" \
    --tags "$mask_tags" --on-untimed drop --nj 1 --cmd "$train_cmd" --results "$results" \
    --name "test_neutral_silence ($nv, pocketsphinx CTM)" "$conv" exp/tags/test/tags.conll $ctm $nd/silence \
    data/test_neutral_silence
  # the spoken fill refuses (one line, nothing written) when a surrogate of data/test_text would say an original;
  # it fills the working dir $nd/spoken/filled (original ids: checked and measured here), published after the check
  steps/mask_spoken.sh --tags "$mask_tags" --seed "$seed" --nj 1 --cmd "$train_cmd" --secret-dir exp/secrets/neutral_spoken \
    "$conv" exp/tags/test/tags.conll data/test_text/tags.conll $ctm $nd/spoken $nd/spoken/filled
  steps/verify_spoken.sh --tags "$mask_tags" --secret-dir exp/secrets/neutral_spoken --orig-data $src \
    --results "$results" --name "test_neutral_spoken ($nv, pocketsphinx CTM)" $nd/spoken/filled \
    exp/tags/test/tags.conll $ctm $nd/spoken/verify
  steps/publish_data.sh --seed "$seed" --orig-data "$src $conv" $nd/spoken/filled $nd/spoken data/test_neutral_spoken
  # the published dirs (data/test_neutral_{silence,spoken}) have pseudonymous ids: the WER below is measured on
  # the working dirs, same audio and text under the original ids
  if [ "$transcripts" = asr ]; then   # the same utterances de-identified from Whisper's hypothesis and word times
    steps/mask_from_asr.sh --nj 1 --cmd "$train_cmd" --model "$whisper_model" --tags "$mask_tags" --seed "$seed" \
      --results "$results" --name "test_neutral_asr ($nv, Whisper $whisper_model)" $src "$conv" $nd/asr \
      data/test_neutral_asr
  fi
  lmarg=general
  if [ "$neutral_lm" = train ]; then
    steps/train_ngram_lm.sh --order 3 --not-from data/test data/train exp/lm_train; lmarg=exp/lm_train
  fi
  # WER where the modes differ: the utterances with a hidden entity (the others are the same audio and text in
  # both modes); the conversion alone on them, against the original text, is the reference (--neutral-reference)
  decs="silence:$nd/silence/masked spoken:$nd/spoken/filled"
  $neutral_reference && decs+=" converted:data/test_neutral_src_$nv"
  for d in $decs; do
    m=${d%%:*}; full=${d#*:}; sub=${full}_ent
    if ! done_ok $sub || [ $sub/text -ot $full/text ]; then
      awk 'NR==FNR {k[$1]=1; next} ($1 in k) {print $1}' $full/utt2spk $nd/entity_utts >$nd/utts_$m
      rm -rf $sub; utils/subset_data_dir.sh --utt-list $nd/utts_$m $full $sub >/dev/null
    fi
    steps/decode_pocketsphinx.sh --lm "$lmarg" --nj 1 --cmd "$decode_cmd" $sub $nd/decode_${neutral_lm}_$m >/dev/null
    steps/score.sh --results $nd/RESULTS.asr.md $sub $nd/decode_${neutral_lm}_$m | grep -E "^\|.*WER" || true
  done
  pydeid neutral-results --exp $nd --lm "$neutral_lm" --voice "$nv" --conversion "$conv" --utt2spk $src/utt2spk \
    --tags exp/tags/test/tags.conll --spoken-tags $nd/spoken/filled/tags.conll --results "$results" \
    >$nd/results.md
  cat $nd/results.md
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  stage_begin 5
  log "stage 5: utility: Whisper ($($whisper && echo "$whisper_model" || echo off)) and pocketsphinx WER (LMs: $lms) on the utility subset, original / converted / converted-and-masked"
  if [[ " $lms " == *" train "* ]]; then
    steps/train_ngram_lm.sh --order 3 --not-from data/test data/train exp/lm_train
  fi
  # <lm>:<data>: every LM decodes original and converted speech, the last of $lms (the corpus LM, 4x faster) also
  # the masked sets (2 words masked in 412: the general LM would cost 5 decodings to say the same)
  decs=()
  for lm in $lms; do
    decs+=("$lm:test_wer")
    for vc in $voice_configs; do decs+=("$lm:test_wer_$(vname "${vc%%:*}" "${vc#*:}")"); done
  done
  lmm=${lms##* }
  for vc in $voice_configs; do   # the masked sets of stage 4 (bench/voice_real.sh skips it: none to decode)
    v=$(vname "${vc%%:*}" "${vc#*:}")
    if [ -d "data/test_wer_${v}_masked" ]; then decs+=("$lmm:test_wer_${v}_masked")
    else log "no data/test_wer_${v}_masked (stage 4 not run): its decoding is skipped"; fi
  done
  if $vctk_table; then
    decs+=(general:vctk)
    for vc in $voice_configs; do decs+=("general:vctk_$(vname "${vc%%:*}" "${vc#*:}")"); done
  fi
  if $whisper; then   # the primary meter first; its table is written once pocketsphinx's column is decoded
    wcs=(original:test_wer)
    for vc in $voice_configs; do
      v=$(vname "${vc%%:*}" "${vc#*:}"); wcs+=("$v:test_wer_$v")
      [ -d "data/test_wer_${v}_masked" ] && wcs+=("$v+masked:test_wer_${v}_masked")
    done
    # the neutral corpus of stage 4b, its utterances of the utility subset: measured on the working dirs (the same
    # audio and text as data/test_neutral_{silence,spoken}, under the original ids that data/test_wer shares)
    for m in silence:exp/neutral/silence/masked spoken:exp/neutral/spoken/filled; do
      full=${m#*:}; m=${m%%:*}; sub=data/test_neutral_${m}_wer
      done_ok $full || continue
      if ! done_ok $sub || [ $sub/text -ot $full/text ]; then
        awk 'NR==FNR {k[$1]=1; next} ($1 in k) {print $1}' data/test_wer/utt2spk $full/utt2spk >data/.wer_utts
        rm -rf $sub; utils/subset_data_dir.sh --utt-list data/.wer_utts $full $sub >/dev/null; rm -f data/.wer_utts
      fi
      wcs+=("neutral_$m:test_neutral_${m}_wer")
    done
    vcs=()
    if $vctk_table; then
      vcs=(original:vctk)
      for vc in $voice_configs; do v=$(vname "${vc%%:*}" "${vc#*:}"); vcs+=("$v:vctk_$v"); done
    fi
    mkdir -p exp/whisper
    wdecode() {  # wdecode <set> [<set whose identical audio lends its hypotheses>]
      local sa=(); [ -n "${2:-}" ] && sa=(--same-audio-as "data/$2 exp/whisper/decode_$2")
      steps/decode_whisper.sh --model "$whisper_model" --nj 1 --cmd "$decode_cmd" "${sa[@]}" "data/$1" \
        "exp/whisper/decode_$1" >"exp/whisper/decode_$1.log" 2>&1
    }
    # first the sets of their own audio; then the masked and neutral sets, whose utterances without a silenced word
    # are the conversion's audio sample for sample: they take its hypothesis (deterministic decoding) instead of a
    # decode, so the masked sets cost only their masked utterances
    for wc in "${wcs[@]}" "${vcs[@]}"; do
      c=${wc#*:}
      case $c in *_masked|test_neutral_*) continue ;; esac
      free_lane
      wdecode "$c" &
    done
    wait_all "exp/whisper/decode_*.log"
    nv=$(vname "${neutral_voice%%:*}" "${neutral_voice#*:}")
    for wc in "${wcs[@]}"; do
      c=${wc#*:}
      case $c in
        *_masked) free_lane; wdecode "$c" "${c%_masked}" & ;;
        test_neutral_*) free_lane; wdecode "$c" "$([ -d "data/test_wer_$nv" ] && echo "test_wer_$nv")" & ;;
      esac
    done
    wait_all "exp/whisper/decode_*.log"
  fi
  for d in "${decs[@]}"; do
    lm=${d%%:*}; c=${d#*:}
    lmarg=general; [ $lm = train ] && lmarg=exp/lm_train
    [ -s "exp/ps/decode_${lm}_$c/text" ] && continue   # decoded by an earlier invocation
    free_lane
    steps/decode_pocketsphinx.sh --lm "$lmarg" --nj 1 --cmd "$decode_cmd" "data/$c" "exp/ps/decode_${lm}_$c" \
      >/dev/null &
  done
  wait_all "exp/ps/decode_*/log/decode.1.log"
  for d in "${decs[@]}"; do
    lm=${d%%:*}; c=${d#*:}
    steps/score.sh --results exp/ps/RESULTS.md "data/$c" "exp/ps/decode_${lm}_$c" | grep -E "^\|.*WER" || true
  done
  if $whisper; then   # Whisper's table, pocketsphinx (the first of --lms) as the second column where it decoded
    wspec() {  # wspec <name> <set>: NAME=<whisper dir>[,<pocketsphinx dir>]
      local ps=exp/ps/decode_${lms%% *}_$2
      if [ -s "$ps/text" ]; then pydeid score-wer "data/$2" "$ps" >/dev/null; echo "$1=exp/whisper/decode_$2,$ps"
      else echo "$1=exp/whisper/decode_$2"; fi
    }
    pydeid whisper-table --results "$results" --key so-utility-whisper --bootstrap "$bootstrap" --seed "$seed" \
      --title "Utility under the Whisper meter ($whisper_model): the utility subset" \
      --ps-label "pocketsphinx (${lms%% *} LM)" \
      $(for wc in "${wcs[@]}"; do wspec "${wc%%:*}" "${wc#*:}"; done) exp/utility/whisper.md
    if $vctk_table; then
      pydeid whisper-table --results "$results" --key so-utility-whisper-vctk --bootstrap "$bootstrap" --seed "$seed" \
        --title "Utility under the Whisper meter ($whisper_model): the VCTK sample (native speech)" \
        --ps-label "pocketsphinx (general LM)" \
        $(for wc in "${vcs[@]}"; do
            c=${wc#*:}; ps=exp/ps/decode_general_$c
            if [ -s "$ps/text" ]; then pydeid score-wer "data/$c" "$ps" >/dev/null; echo "${wc%%:*}=exp/whisper/decode_$c,$ps"
            else echo "${wc%%:*}=exp/whisper/decode_$c"; fi
          done) exp/utility/whisper_vctk.md
    fi
  fi
  if $per; then
    # phone error rate of phone-loop decoding (no word LM) of the same utility sets: the meter that still ranks the
    # conversions where word WER saturates; exp/utility/per.tsv beside the primary WER meter (the first of --lms)
    pcs=(original:test_wer)
    for vc in $voice_configs; do v=$(vname "${vc%%:*}" "${vc#*:}"); pcs+=("$v:test_wer_$v"); done
    for pc in "${pcs[@]}"; do
      c=${pc#*:}
      free_lane
      steps/decode_phones.sh --nj 1 --cmd "$decode_cmd" "data/$c" "exp/ps/phones_$c" >"exp/ps/phones_$c.log" 2>&1 &
    done
    wait_all "exp/ps/phones_*.log"
    pydeid per-table --utt2spk data/test_wer/utt2spk --bootstrap "$bootstrap" --seed "$seed" \
      --pairs exp/utility/per_pairs.tsv \
      $(for pc in "${pcs[@]}"; do echo "${pc%%:*}=exp/ps/phones_${pc#*:},exp/ps/decode_${lms%% *}_${pc#*:}"; done) \
      exp/utility/per.tsv
  fi
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ] && $espnet; then
  stage_begin 5b
  nm=${neutral_voice%%:*}; nst=${neutral_voice#*:}; nv=$(vname "$nm" "$nst"); tier=$(basename "$asr_config" .yaml)
  log "stage 5b: ESPnet ASR ($tier) trained on original and on neutral ($nv voices, tagged words masked) training data"
  # the ASR's validation set: --asr-dev-per-spk utterances of each train speaker, held out of its training data
  done_ok data/dev_asr || utils/subset_data_dir.sh --per-spk "$asr_dev_per_spk" data/train data/dev_asr >/dev/null
  if ! done_ok data/train_asr; then
    awk 'NR==FNR {dev[$1]=1; next} !($1 in dev) {print $1}' data/dev_asr/utt2spk data/train/utt2spk >data/.asr_utts
    utils/subset_data_dir.sh --utt-list data/.asr_utts data/train data/train_asr >/dev/null
    rm -f data/.asr_utts
  fi
  # the neutral training data, as the mini's neutral corpus: the publisher's conversion of every train utterance
  # (--seed, the target pool of stage 3), the words the grammars tag silenced and removed from the text
  [ -s exp/tags/train/tags.conll ] && [ exp/tags/train/tags.conll -nt data/train/text ] ||
    steps/tag_entities.sh $detect_opts --nj 1 --cmd "$decode_cmd" data/train - exp/tags/train
  tctm=exp/align/train_tagged/wrd_ali/ctm   # word times of the utterances with a word to mask (the only users)
  if [ ! -f $tctm ] || [ $tctm -ot exp/tags/train/tags.conll ]; then
    awk -v tags="$mask_tags" 'BEGIN {n = split(tags, a, ","); for (i = 1; i <= n; i++) t[a[i]] = 1}
      /^# id = / {id = $4} NF >= 2 && $2 ~ /^[BI]-/ && (tags == "all" || substr($2, 3) in t) {print id}' exp/tags/train/tags.conll |
      sort -u >data/.tagged_utts
    if [ -s data/.tagged_utts ]; then
      rm -rf data/train_tagged
      utils/subset_data_dir.sh --utt-list data/.tagged_utts data/train data/train_tagged >/dev/null
      steps/align.sh --backend pocketsphinx --phones false --nj 1 --cmd "$train_cmd" data/train_tagged en-us \
        exp/align/train_tagged
    else
      mkdir -p "$(dirname $tctm)"; : >$tctm   # nothing to mask
    fi
    rm -f data/.tagged_utts
  fi
  neutral_conversion
  steps/make_neutral.sh --voice "$nvoice" --convert-opts "$nopts" --source-data data/train --seed "$seed" \
    --tags "$mask_tags" --on-untimed drop --nj 1 --cmd "$train_cmd" --results "$results" \
    --name "train_neutral (pocketsphinx CTM)" "data/train_$nv" exp/tags/train/tags.conll $tctm "exp/mask/train_$nv" \
    data/train_neutral
  for s in train_asr dev_asr; do   # the same split (an utterance dropped as untimed stays out)
    if ! done_ok "data/${s}_neutral"; then
      # data/train_neutral is published (pseudonymous ids): the split's ids through the secret id map
      pydeid map-ids --secret-dir exp/secrets data/train_neutral "data/$s/utt2spk" >data/.asr_utts
      utils/subset_data_dir.sh --utt-list data/.asr_utts data/train_neutral "data/${s}_neutral" >/dev/null
      rm -f data/.asr_utts
    fi
  done
  aopts=(--asr-config "$asr_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  lopts=(--lm-config "$lm_config" --seed "$seed" --cmd "$cuda_cmd")   # the LM of each model: its own transcripts
  [ -n "$lm_max_epoch" ] && lopts+=(--max-epoch "$lm_max_epoch")
  for spec in original:train_asr:dev_asr neutral:train_asr_neutral:dev_asr_neutral; do
    IFS=: read -r name tr dv <<<"$spec"
    free_lane   # one thread each, $nj side by side
    { steps/train_asr.sh "${aopts[@]}" "data/$tr" "data/$dv" "exp/asr_${tier}_$name" &&
      steps/train_lm.sh "${lopts[@]}" "exp/asr_${tier}_$name" "exp/lm_${tier}_$name"; } >"exp/asr_${tier}_$name.log" 2>&1 &
  done
  wait_all "exp/asr_${tier}_{original,neutral}.log"
  # each model on the utility subset: original, converted with the published method, converted and masked
  for model in original neutral; do
    for c in test_wer "test_wer_$nv" "test_wer_${nv}_masked"; do
      free_lane
      steps/decode_asr.sh --nj 1 --ctm false --cmd "$decode_cmd" --lm-exp "exp/lm_${tier}_$model" \
        "exp/asr_${tier}_$model" "data/$c" "exp/asr_${tier}_$model/decode_$c" >/dev/null &
    done
  done
  wait_all "exp/asr_${tier}_*/decode_test_wer*/log/decode.1.log"
  for model in original neutral; do
    for c in test_wer "test_wer_$nv" "test_wer_${nv}_masked"; do
      steps/score.sh "data/$c" "exp/asr_${tier}_$model/decode_$c" | grep -E "^\|.*WER" || true
    done
  done
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  stage_begin 6
  log "stage 6: attacks (attackers: $attackers; front-ends: $front_ends; original; per method semi-informed, lazy-informed, ignorant, + extra rows)${xtag:+, training data + $attacker_extra_data}"
  # the attackers' training data: train_xv (original or the attacker's conversion), + the extra speakers
  trainset() {  # trainset <suffix ("" original, _<v>_a, _<v>_ps)>: prints the data dir
    if [ -z "$attacker_extra_data" ]; then echo "data/train_xv$1"; return; fi
    local out="data/train_xv${1}_x$attacker_extra_data" extra="data/${attacker_extra_data}x$1"
    [ -n "$1" ] || extra=data/${attacker_extra_data}_full
    done_ok "$out" || utils/combine_data.sh "$out" "data/train_xv$1" "$extra" >/dev/null
    echo "$out"
  }
  attack() {  # attack <scenario> <name> <method> <strategy> <train> <enroll> <trial> [attack.sh options]
    local sc=$1 name=$2 m=$3 st=$4 tr=$5 en=$6 te=$7
    shift 7
    attacks+=("$adir/$name")
    [ -f "$adir/$name/scores/metrics.json" ] && return 0
    free_lane
    steps/attack.sh "${common[@]}" --scenario "$sc" --method "$m" --strategy "$st" "$@" \
      "$tr" "$en" "$te" "$adir/$name" >"$adir/$name.log" 2>&1 &
  }
  torig=$(trainset "")
  attacks=()
  # one attacker configuration after the other: <model>_<front-end> (x-vector + PLDA/cosine, ECAPA + cosine/PLDA;
  # energy VAD or none); exp/attack<tag>/<model>_<front-end>/<scenario>_<method>
  for fe in $front_ends; do
    for att in $attackers; do
      am=${att%%:*}; acfg=${att#*:}
      adir=exp/attack$xtag/${am}_$fe; xorig=$adir/xvector_original
      xe=(); ep=$xvector_epochs; [ $am = ecapa ] && ep=$ecapa_epochs
      [ -n "$ep" ] && xe=(--epochs "$ep")
      mkdir -p "$adir"
      # one thread: on the shared 2-core machine (load 33) 2 torch threads took 550 s per epoch, 1 thread 45 s
      free_lane
      steps/train_xvector.sh --xvector-config "$acfg" --vad "$fe" --seed "$seed" --cmd "$train_cmd" --num-threads 1 \
        "${xe[@]}" "$torig" "$xorig" >"$adir/train_original.log" 2>&1 &
      tpid=$!
      common=(--seed "$aseed" --xvector-config "$acfg" --vad "$fe" --nj 1 --num-threads 1 --cmd "$train_cmd" "${xe[@]}")
      # the pretrained encoder (nothing trained unless its config fine-tunes): its back-ends, incl. LDA + whitening
      [ $am = ge2e ] && common+=(--backends cosine,lda,plda)
      for vc in $voice_configs; do   # semi-informed first: VPC 2024 ranks by it; all training utterances converted
        m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
        opts=(--orig-trial data/test_trial --pitch-cache "exp/attack$xtag/pitch_$v.json")
        attack semi-informed "semi-informed_$v" "$m" "$st" "$(trainset "_${v}_a")" "data/test_enroll_${v}_a" \
          "data/test_trial_$v" "${opts[@]}"
      done
      wait $tpid || { utils/job_failed.sh "$0: training $xorig failed" "$adir/train_original.log"; exit 1; }
      attack original original none - "$torig" data/test_enroll data/test_trial --model "$xorig"
      for vc in $voice_configs; do
        m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
        opts=(--orig-trial data/test_trial --pitch-cache "exp/attack$xtag/pitch_$v.json")
        attack ignorant "ignorant_$v" "$m" "$st" "$torig" data/test_enroll "data/test_trial_$v" --model "$xorig" "${opts[@]}"
        attack lazy-informed "lazy-informed_$v" "$m" "$st" "$torig" "data/test_enroll_${v}_a" "data/test_trial_$v" \
          --model "$xorig" "${opts[@]}"
      done
      wait_all "$adir/*.log"   # the semi-informed models exist: the variant rows below use them
      for vc in $voice_configs; do
        m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
        opts=(--orig-trial data/test_trial --pitch-cache "exp/attack$xtag/pitch_$v.json")
        # speaker-level draws (VTLN S1, S2: one target per speaker and seed): enrolment published in one corpus with
        # the trials (the publisher's draws: each speaker's enrolment and trials share a target), semi-informed model
        if [ $m = vtln ] && [[ $st == [12] || $st == [12]_* ]] && $same_draws && [ -z "$attacker_extra_data" ]; then
          attack semi-informed "semi-informed-shared-target_$v" "$m" "$st" "$(trainset "_${v}_a")" \
            "data/test_enroll_${v}_p" "data/test_trial_$v" --model "$adir/semi-informed_$v/xvector_nnet" "${opts[@]}"
        fi
        # the extra rows: the first attacker with one front-end (the run-time budget)
        [ "$fe" = "$extra_rows_front_end" ] && [ "$att" = "${attackers%% *}" ] || continue
        if shifted_for "$vc"; then
          attack parameter-shifted "parameter-shifted_$v" "$m" "$st" "$(trainset "_${v}_ps")" \
            "data/test_enroll_${v}_ps" "data/test_trial_$v" "${opts[@]}"
        fi
        if $same_draws && [ -z "$attacker_extra_data" ]; then
          attack informed-same-draws "informed-same-draws_$v" "$m" "$st" "data/train_xv_${v}_p" \
            "data/test_enroll_${v}_p" "data/test_trial_$v" "${opts[@]}"
        fi
      done
    done
  done
  wait || true
  for d in "${attacks[@]}"; do
    [ -f "$d/scores/metrics.json" ] || { utils/job_failed.sh "$0: attack $d failed" "$d.log"; exit 1; }
  done
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  stage_begin 7
  log "stage 7: report ($results)"
  amodels=$(for att in $attackers; do echo "${att%%:*}"; done | xargs)
  ropts=(--results "$results" --voice-configs "$voice_configs" --lms "$lms" --bootstrap "$bootstrap" --seed "$seed"
         --data data --exp exp --attack-tag "$xtag" --attackers "$amodels" --front-ends "$front_ends"
         --primary "${attackers%%:*}_${front_ends%% *}")
  $vctk_table && ropts+=(--vctk-data data/vctk)
  $same_draws && [ -z "$attacker_extra_data" ] && ropts+=(--same-draws)
  $espnet && ropts+=(--espnet "$(basename "$asr_config" .yaml):$(vname "${neutral_voice%%:*}" "${neutral_voice#*:}")")
  pydeid speechocean-report "${ropts[@]}"
fi
stage_end
log "done (stages $stage..$stop_stage); results in $results"
