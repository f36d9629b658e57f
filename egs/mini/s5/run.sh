#!/usr/bin/env bash
# egs/mini/s5: the embedded recipe (`make demo`). Synthetic VerbMobil-style dialogues -> neutral corpus, then what
# was gained and lost: privacy (x-vector EER in three attacker scenarios) and utility (ESPnet WER, NER F1).
# Runs end to end on a laptop CPU. Every stage is idempotent and can be restarted with --stage / --stop-stage.
# Results: RESULTS.md (one section per table) and exp/ (models, logs, DET curves).
#
#   0  corpus: synthesize data/mini_{train,dev,test,test_enroll,test_trial} (gold tags, gold word CTM)
#   1  forced alignment of mini_test (pocketsphinx en-us), word-boundary accuracy against the gold CTM
#   2  entity taggers: train flair BiLSTM-CRF on mini_train, tag mini_test (cased, and lower-cased like ASR output);
#      beside it, the NER-utility cells (a tagger trained on each strategy's transformed mini_train)
#   3  text transformation of every set (DP epsilon, leak rate), and the train-on-transformed NER utility table
#   4  voice conversion: VoiceMask, VTLN strategies 1/2/3, McAdams of the published test set; the attackers' own
#      conversions of ORIGINAL training and enrolment audio (pydeid attack-plan): own seed (lazy-informed,
#      informed), shifted parameters (parameter-shifted), the publisher's seed (informed-same-draws)
#   5  masking: the neutral corpus (VTLN strategy 3 voices, sensitive words silenced and removed), leak checks
#      with the gold CTM (must be zero) and with the aligner's CTM (reported); with --transcripts asr the test
#      set's chain runs from Whisper instead of the reference: its hypothesis (steps/transcribe.sh) tagged by the
#      stage-2 taggers plus the words Whisper was unsure of (--hide-below-conf, --hide-next), masked at Whisper's
#      word times, checked on them, and its audio entity recall measured against the gold tags and times (the
#      reference is used only for this scoring)
#   6  ASR (ESPnet, small tier, character LM of the same transcripts) trained on original data and on the neutral
#      corpus side by side; seed 004 table 9: each decoded on the test set transformed like its training data
#      (WER on transformed references), plus the neutral model on the original test set (second row)
#   6w (--whisper true) the pretrained Whisper meter (tiny.en) on --whisper-per-spk utterances per test speaker of
#      the original and the neutral mini_test: WER with 95 % intervals and the paired difference (exp/utility/whisper.md)
#   6b (--spoken-pseudonyms true) the neutral corpus with spoken surrogates instead of silence, its ESPnet model,
#      silence vs spoken table (local/mini/spoken_pseudonyms.sh)
#   7  x-vector attacks: original, ignorant, lazy-informed, informed, parameter-shifted, informed-same-draws for
#      every conversion (seed 004 tables 2-4; EER with 95 % bootstrap CIs and trial counts)
#   8  (--tables full) speaker-adversarial ASR encoder (gradient reversal, alpha 0.5 and 2.0 side by side; alpha 0
#      is the stage-6 model trained on original data) and the x-vector attacker on its outputs: seed 004 table 1
#      (~3.5 min of the demo's 17 on 2 idle cores: beyond the 15-minute budget; --adversarial true adds it to a demo)
#   9  report: summary tables in RESULTS.md, list of plots, the tables this run left to --tables full
#  10  (--tables full) seed 004 tables 6-7 complete: the NER-utility cells of every strategy x 4 variants x 3
#      seeds (seed 002's protocol), last because they are the long part (72 cells, resumable per cell)
set -euo pipefail

stage=0
stop_stage=100
seed=0
size=default         # corpus size: tiny | default (local/mini/prepare_data.sh has finer options)
category_turns=0     # N > 0: the last N turns of each dialogue carry seed 004 A.1 sensitive categories (HEALTH, AGE,
                     # CREDENTIAL, ADDRESS, IP ...), gold-tagged; the taggers add the categories detector and the
                     # category types not named in --text-strategy get --category-strategy
category_strategy=surrogate   # a whole same-category phrase or a generated value, never the original (word-by-word
                              # same_type would turn "high blood pressure" into "blood diabetes diabetes")
nj=2
ner_config=conf/text/ner_cpu.yaml
text_strategy="default=surrogate"   # values from outside the corpus, consistent per dialogue (docs/surrogates.md)
text_p=1.0
text_avoid_original=true   # never draw the original as its own surrogate (no leak by chance; outside the DP lemma)
text_eps_sweep="same_type@0.5 same_type@0.9 full_entity@0.9 redact@0.9 same_type@1.0"   # strategy@p
text_eps_tagged="same_type@1.0 same_type@0.9"   # on mini_test with the tagger's tags: epsilon at p x recall
ner_utility_epochs=15
ner_utility_strategies=none,placeholder,same_type,single_same_type,full_entity
ner_utility_variants=cased-punct   # all four: cased-punct,cased-nopunct,uncased-punct,uncased-nopunct
ner_utility_seeds=                 # comma list; empty: --seed alone (mean +- std needs several)
tables=demo          # demo: the tables that fit the 15-minute budget; full: also seed 004 tables 6-7 complete (four
                     # variants, every strategy row incl. multi-word NEs with placeholders) with seed 002's protocol
                     # over 3 seeds (stage 10, last: 72 NER cells of ~65 CPU-s each), the parameter-shifted and
                     # informed-same-draws attacks, and seed 004 table 1 (stage 8: the speaker-adversarial
                     # encoders, --adversarial, and the x-vector attacker on their outputs, --phi-attack)
voice_configs="voicemask:- vtln:1 vtln:2 vtln:3 mcadams:-"   # method:strategy pairs for the attack tables
neutral_voice=vtln:3                                          # the voice of the neutral corpus (seed 004 sec. 5.2)
attack_scenarios="ignorant lazy-informed informed"   # README: scenarios (--tables full adds parameter-shifted and
                     # informed-same-draws: ~170 s of CPU more, beyond the 15-minute demo)
attacker_seed=            # the attackers' own draws; empty: --seed + 1 (informed-same-draws uses --seed)
xvector_train_per_spk=2   # utterances per speaker (x 48 speakers) converted for the informed attackers' training
asr_config=conf/asr/small.yaml
asr_max_epoch=15     # the demo's 15-minute budget: 15 of the small tier's 20 epochs (dev CER 29.6 vs 28.5 %, WER
                     # 42.3 vs 39.2 %; ~1 min less over stages 6 and 8); empty: the config's
lm_config=conf/asr/lm.yaml
lm_max_epoch=        # empty: the config's (20; 12 epochs cost 5.6 points of WER on mini_test, measured)
xvector_config=conf/xvector/mini.yaml
adversarial=         # stage 8 (seed 004 table 1); empty: on with --tables full, off with --tables demo
whisper=true         # stage 6w: the Whisper meter (tiny.en, pretrained, never trained here) on original and neutral
whisper_per_spk=4    # mini_test utterances per test speaker it decodes (4 x 8 speakers, twice: ~1 CPU-min)
spoken_pseudonyms=false  # stage 6b: neutral corpus with spoken surrogates + its ASR (~30 CPU-min; beyond the demo
                         # budget): local/mini/spoken_pseudonyms.sh, table 'spoken-pseudonyms'
adversarial_alphas="0 0.5 2.0"   # alpha 0 is the stage-6 model trained on original data (same gradients)
phi_attack=false     # stage 8: seed 004 table 1's x-vector attacker trained on the encoder outputs phi_alpha(X) and
                     # on filterbanks (pydeid asr-phi-attack; --tables full turns it on)
mask_tags=all        # entity types hidden: all = every type the detectors can emit (categories, EMAIL, PHONE ...)
transcripts=reference  # the test set's chain in stage 5: reference (transcript + forced alignment) | asr (Whisper's
                       # hypothesis and word times, steps/transcribe.sh; the reference only scores it)
whisper_model=tiny.en  # --transcripts asr: the Whisper model of the chain
hide_below_conf=0.7    # --transcripts asr: also hide the words of Whisper word probability below this
hide_next=0            # --transcripts asr: and this many words either side of them and of each entity

. ./path.sh
. ./cmd.sh
help_message="Usage: $0 [--stage N] [--stop-stage M] [--seed 0] [--size tiny|default] [--nj 2] [--tables demo|full] (see the header of $0)"
. utils/parse_options.sh

case $transcripts in reference|asr) ;; *) echo "$0: --transcripts must be reference or asr, not '$transcripts'" >&2
                                    exit 1 ;; esac
case $category_turns in ''|*[!0-9]*) echo "$0: --category-turns must be a whole number >= 0, got '$category_turns'" >&2
                                     exit 1 ;; esac
tag_detectors=flair,grammar
if [ "$category_turns" -gt 0 ]; then
  tag_detectors+=,categories
  text_strategy=$(local/mini/category_strategy.sh "$text_strategy" "$category_strategy")
fi

case $tables in
  demo) [ -n "$adversarial" ] || adversarial=false ;;
  full) [ -n "$adversarial" ] || adversarial=true
        ner_full_strategies=none,placeholder,placeholder_entity,same_type,single_same_type,full_entity
        ner_full_variants=cased-punct,cased-nopunct,uncased-punct,uncased-nopunct
        ner_full_seeds=$seed,$((seed + 1)),$((seed + 2))
        phi_attack=true
        for sc in parameter-shifted informed-same-draws; do
          case " $attack_scenarios " in *" $sc "*) ;; *) attack_scenarios+=" $sc" ;; esac
        done ;;
  *) echo "$0: --tables must be demo or full, got '$tables'" >&2; exit 1 ;;
esac
case $whisper in true|false) ;; *) echo "$0: --whisper must be true or false, got '$whisper'" >&2; exit 1 ;; esac
case $whisper_per_spk in ''|*[!0-9]*|0) echo "$0: --whisper-per-spk must be a whole number >= 1, got '$whisper_per_spk'" >&2; exit 1 ;; esac
case $adversarial in true|false) ;; *) echo "$0: --adversarial must be true or false, got '$adversarial'" >&2; exit 1 ;; esac
nuopts=(--ner-config "$ner_config" --variants "$ner_utility_variants" --max-epochs "$ner_utility_epochs"
        --seed "$seed" --cmd "$train_cmd")
[ -n "$ner_utility_seeds" ] && nuopts+=(--seeds "$ner_utility_seeds")

. utils/log.sh   # log <message>: "<UTC time> (run.sh:<line>) <message>"
. utils/recipe.sh   # done_ok <data-dir>, free_lane (at most $nj background jobs), wait_all <logs>, vname <m> <st>
results=RESULTS.md
[ -n "$attacker_seed" ] || attacker_seed=$((seed + 1))
attack_plan() {  # the attackers' conversions (always of original audio) and attacks (pydeid.attack.scenarios)
  pydeid attack-plan --scenarios "original $attack_scenarios" --voice-configs "$voice_configs" --seed "$seed" \
    --attacker-seed "$attacker_seed" --train data/mini_train_xv --enroll data/mini_test_enroll \
    --trial data/mini_test_trial --model exp/xvector_original
}
sets="mini_train mini_dev mini_test"
nmethod=${neutral_voice%%:*}; nstrat=${neutral_voice#*:}

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: synthesize the mini corpus (espeak-ng dialogues, gold tags and word timings)"
  # a run from the start writes a new RESULTS.md: no section of an earlier run (or of a renamed table) survives;
  # the committed copy is in git, later --stage N reruns update their own sections
  rm -f "$results"
  local/mini/prepare_data.sh --seed "$seed" --size "$size" --nj "$nj" --category-turns "$category_turns" data
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: forced alignment of mini_test (pocketsphinx), accuracy against the gold CTM"
  steps/align.sh --backend pocketsphinx --nj "$nj" --cmd "$train_cmd" \
    --gold-ctm data/mini_test/words.ctm --results "$results" data/mini_test en-us exp/align/mini_test
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: entity taggers (flair BiLSTM-CRF, offline): mini_train's, tagging mini_test; the NER-utility cells"
  # independent jobs (one thread each), $nj at a time: the tagger (then its tagging of mini_test), and one tagger
  # per text strategy trained on mini_train transformed by it, tested on the original mini_test (stage 3's table)
  tag_test() {  # the trained tagger on mini_test, cased and lower-cased (ASR-like), one job each
    local variant d lc
    for variant in cased lc; do
      d=exp/tags/mini_test_$variant
      [ -s $d/tags.conll ] && [ $d/tags.conll -nt exp/ner/tagger.pt ] && continue
      lc=false; [ $variant = lc ] && lc=true
      steps/tag_entities.sh --detectors "$tag_detectors" --lowercase-input $lc --nj 1 --cmd "$decode_cmd" \
        data/mini_test exp/ner $d &&
        pydeid text-metrics --pred $d/tags.conll --data data/mini_test --json $d/metrics.json \
          data/mini_test/tags.conll || return 1
    done
  }
  { [ -f exp/ner/tagger.pt ] || steps/train_ner.sh --ner-config "$ner_config" --seed "$seed" --cmd "$train_cmd" \
      data/mini_train data/mini_dev exp/ner; } && tag_test &
  for st in ${ner_utility_strategies//,/ }; do
    free_lane
    steps/ner_utility.sh "${nuopts[@]}" --cells-only true --strategies "$st" \
      data/mini_train data/mini_dev data/mini_test exp/ner_utility &
  done
  wait_all "exp/ner/log/train.log, exp/tags/mini_test_*/log/*.log or exp/ner_utility/log/cells.*.log"
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: text transformation ($text_strategy, p=$text_p) and NER utility of the strategies"
  topts=(--strategy "$text_strategy" --p "$text_p" --seed "$seed" --avoid-original "$text_avoid_original"
         --secret-dir exp/secrets/text)
  # a transformed set is kept on a rerun unless its tags or options changed: then made again (not the old text)
  for s in mini_train mini_dev; do   # gold tags: the corpus a data owner would publish
    utils/redo_on_new_inputs.sh "exp/transform_text/${s}_inputs" "data/${s}_text" --file "data/$s/tags.conll" \
      "${topts[@]/#/--value=}"
    done_ok "data/${s}_text" || steps/transform_text.sh "${topts[@]}" --exp-dir "exp/transform_text/$s" \
      --gold-tags "data/$s/tags.conll" "data/$s" "data/$s/tags.conll" "data/${s}_text"
  done
  # the test set with the tagger's own tags: the leak rate against gold shows what detection misses
  utils/redo_on_new_inputs.sh exp/transform_text/mini_test_inputs data/mini_test_text \
    --file exp/tags/mini_test_cased/tags.conll "${topts[@]/#/--value=}"
  done_ok data/mini_test_text || steps/transform_text.sh "${topts[@]}" --exp-dir exp/transform_text/mini_test \
    --gold-tags data/mini_test/tags.conll data/mini_test exp/tags/mini_test_cased/tags.conll data/mini_test_text
  # differential privacy of the seed 000 algorithm: epsilon of eq. (2) for policies and replacement probabilities
  # (seed 000's independent policy, --avoid-original false: the sweep measures it, it publishes nothing)
  eps_args=()
  for sp in $text_eps_sweep; do
    st=${sp%%@*}; p=${sp#*@}; o=exp/text_eps/${st}_p$p
    done_ok $o/data || steps/transform_text.sh --strategy "default=$st" --p "$p" --seed "$seed" --avoid-original false \
      --secret-dir exp/secrets/text_eps --exp-dir $o --gold-tags data/mini_train/tags.conll \
      data/mini_train data/mini_train/tags.conll $o/data >/dev/null
    eps_args+=(--transform "mini_train, $st, p=$p=$o/report.json")
  done
  # with automatic tags a missed token is never replaced: epsilon at p_eff = p x the tagger's recall on gold
  for sp in $text_eps_tagged; do
    st=${sp%%@*}; p=${sp#*@}; o=exp/text_eps/mini_test_tagged_${st}_p$p
    done_ok $o/data || steps/transform_text.sh --strategy "default=$st" --p "$p" --seed "$seed" --avoid-original false \
      --secret-dir exp/secrets/text_eps --exp-dir $o --gold-tags data/mini_test/tags.conll \
      data/mini_test exp/tags/mini_test_cased/tags.conll $o/data >/dev/null
    eps_args+=(--transform "mini_test (tagger's tags), $st, p=$p=$o/report.json")
  done
  pydeid text-results --results "$results" \
    --tagging "flair+grammar, cased input=exp/tags/mini_test_cased/metrics.json" \
    --tagging "flair+grammar, lower-cased input (ASR-like)=exp/tags/mini_test_lc/metrics.json" \
    --transform "mini_train (gold tags)=exp/transform_text/mini_train/report.json" \
    --transform "mini_dev (gold tags)=exp/transform_text/mini_dev/report.json" \
    --transform "mini_test (tagger's tags)=exp/transform_text/mini_test/report.json" \
    "${eps_args[@]}"
  steps/ner_utility.sh "${nuopts[@]}" --strategies "$ner_utility_strategies" --results "$results" --nj "$nj" \
    data/mini_train data/mini_dev data/mini_test exp/ner_utility
fi

# the conversions (steps/convert_voice.sh): VTLN targets are the mini_dev speakers, one target pool per seed shared
# by every VTLN run of that seed; voicemask and mcadams take their config's defaults (no strategy, no target pool)
vtln_targets=(--target-data data/mini_dev --pool-file "exp/voice/vtln_pool_s{seed}.npz")
cvopts=(--nj "$nj" --cmd "$train_cmd" "${vtln_targets[@]}")
vstrat() { [ "$1" = vtln ] && echo "$2" || echo -; }   # the strategy of a conversion spec: VTLN's, else none

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: voice conversion ($voice_configs); VTLN targets: the mini_dev speakers"
  # the informed attackers train on a per-speaker subset of mini_train (original audio), converted by themselves
  [ -d data/mini_train_xv ] || utils/subset_data_dir.sh --per-spk "$xvector_train_per_spk" data/mini_train data/mini_train_xv
  # the parameter-shifted attacker's own VTLN target pool: 2 female + 2 male mini_train speakers (not the
  # publisher's mini_dev targets)
  if [ ! -d data/mini_train_vtlnpool ]; then
    { awk '$2=="f"{print $1}' data/mini_train/spk2gender | head -n 2
      awk '$2=="m"{print $1}' data/mini_train/spk2gender | head -n 2; } | LC_ALL=C sort >data/.vtlnpool_spk
    utils/subset_data_dir.sh --spk-list data/.vtlnpool_spk data/mini_train data/mini_train_vtlnpool >/dev/null
    rm -f data/.vtlnpool_spk
  fi
  # the published test set: every VTLN output in one pass; converted as a whole (as its owner would), the
  # trial part is its subset
  vtln_strategies=$(for vc in $voice_configs; do [ "${vc%%:*}" = vtln ] && echo "${vc#*:}"; done; true)
  steps/convert_voice.sh "${cvopts[@]}" vtln data/mini_test \
    $(for st in $vtln_strategies; do echo "$st:$seed:data/mini_test_vtln$st"; done)
  for vc in $voice_configs; do
    m=${vc%%:*}; st=${vc#*:}; v=$(vname "$m" "$st")
    steps/convert_voice.sh "${cvopts[@]}" "$m" data/mini_test "$(vstrat "$m" "$st"):$seed:data/mini_test_$v"
    done_ok "data/mini_test_trial_$v" || utils/subset_data_dir.sh --utt-list data/mini_test_trial/utt2spk \
      "data/mini_test_$v" "data/mini_test_trial_$v" >/dev/null
    cp data/mini_test_trial/trials "data/mini_test_trial_$v/trials"
  done
  # the attackers' own conversions, always of ORIGINAL audio (mini_train_xv, mini_test_enroll): own seed
  # (lazy-informed, informed), shifted parameters (parameter-shifted), the publisher's seed (informed-same-draws)
  mkdir -p exp
  attack_plan >exp/attack_plan.txt
  mapfile -t plan <exp/attack_plan.txt
  for line in "${plan[@]}"; do
    read -r -a f <<<"$line"
    case ${f[0]} in   # pydeid attack-plan lines: vtln <shifted> <src> <spec>... | convert <m> <st> <seed> <shifted> <src> <out>
      vtln) vopts=()   # the parameter-shifted attacker's own target pool
            [ "${f[1]}" = 1 ] && vopts=(--target-data data/mini_train_vtlnpool
                                        --pool-file "exp/voice/vtln_pool_shift_s{seed}.npz")
            steps/convert_voice.sh "${cvopts[@]}" "${vopts[@]}" vtln "${f[2]}" "${f[@]:3}" ;;
      convert) vopts=(); [ "${f[4]}" = 1 ] && vopts=(--voice-config "conf/voice/${f[1]}_shifted.yaml")
               steps/convert_voice.sh "${cvopts[@]}" "${vopts[@]}" "${f[1]}" "${f[5]}" \
                 "$(vstrat "${f[1]}" "${f[2]}"):${f[3]}:${f[6]}" ;;
    esac
  done
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  v=$(vname "$nmethod" "$nstrat")
  log "stage 5: the neutral corpus: $v voices, tagged words silenced and removed from the text"
  for s in mini_train mini_dev mini_test; do
    # converted, gold-tagged words masked with the gold CTM: every tagged interval must be silent (a leak stops)
    steps/make_neutral.sh --voice "$nmethod:$(vstrat "$nmethod" "$nstrat")" --convert-opts "${vtln_targets[*]}" \
      --source-data "data/$s" --seed "$seed" --tags "$mask_tags" --nj "$nj" --cmd "$train_cmd" --results "$results" \
      --name "$s (gold CTM)" "data/${s}_$v" "data/$s/tags.conll" "data/$s/words.ctm" "exp/mask/$s" "data/${s}_neutral"
  done
  # with the aligner's CTM (what a real corpus gets) the leaks are measured against the gold timings
  done_ok data/mini_test_neutral_ali || steps/mask_words.sh --tags "$mask_tags" --seed "$seed" --on-untimed drop \
    --nj "$nj" --cmd "$train_cmd" "data/mini_test_$v" data/mini_test/tags.conll exp/align/mini_test/wrd_ali/ctm \
    exp/mask/mini_test_ali data/mini_test_neutral_ali
  # against the CTM used for masking it must be zero (the masking itself), against gold it measures the aligner
  steps/verify_masking.sh --tags "$mask_tags" --orig-data data/mini_test --results "$results" \
    --name "mini_test (pocketsphinx CTM, checked on it)" \
    data/mini_test_neutral_ali data/mini_test/tags.conll exp/align/mini_test/wrd_ali/ctm exp/mask/mini_test_ali/verify_self
  steps/verify_masking.sh --tags "$mask_tags" --orig-data data/mini_test --results "$results" \
    --name "mini_test (pocketsphinx CTM, checked on gold)" --fail-on-leak false \
    data/mini_test_neutral_ali data/mini_test/tags.conll data/mini_test/words.ctm exp/mask/mini_test_ali/verify
  if [ "$transcripts" = asr ]; then
    log "stage 5 (--transcripts asr): the test set's chain from Whisper $whisper_model: transcribe, tag, mask, verify, recall"
    steps/mask_from_asr.sh --nj "$nj" --model "$whisper_model" --tags "$mask_tags" --seed "$seed" \
      --hide-below-conf "$hide_below_conf" --hide-next "$hide_next" \
      --detectors "$tag_detectors" --ner-model exp/ner --results "$results" \
      --gold-tags data/mini_test/tags.conll --gold-ctm data/mini_test/words.ctm \
      data/mini_test "data/mini_test_$v" exp/asr_chain/mini_test data/mini_test_neutral_asr
  fi
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  log "stage 6: ASR ($asr_config) on original and on neutral data, decoded on the original test set"
  tier=$(basename "$asr_config" .yaml)
  aopts=(--asr-config "$asr_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  # the two trainings (one thread each) side by side; the LM of each model reads only its own transcripts
  lopts=(--lm-config "$lm_config" --seed "$seed" --cmd "$cuda_cmd")
  [ -n "$lm_max_epoch" ] && lopts+=(--max-epoch "$lm_max_epoch")
  train_asr_lm() {  # <train-data> <valid-data> <name>
    steps/train_asr.sh "${aopts[@]}" "$1" "$2" "exp/asr_${tier}_$3" &&
      steps/train_lm.sh "${lopts[@]}" "exp/asr_${tier}_$3" "exp/lm_${tier}_$3"
  }
  decode() {  # decode <model> <set> <jobs>; the decode dir is kept when current (stage 8 reuses the original's)
    steps/decode_asr.sh --nj "$3" --cmd "$decode_cmd" --lm-exp "exp/lm_${tier}_$1" \
      "exp/asr_${tier}_$1" "data/$2" "exp/asr_${tier}_$1/decode_$2"
  }
  # seed 004 table 9: each model decoded on the test set prepared like its training data (the neutral model on
  # the neutral mini_test: converted voices, entities silenced, references with the entities removed); the neutral
  # model on the original test set is a second, labelled row. Each lane decodes its own model's test set as soon
  # as that model is trained; the third decoding then splits over both lanes (--nj $nj), instead of running alone
  # on one while the other idles.
  { train_asr_lm data/mini_train data/mini_dev original && decode original mini_test 1; } &
  pid=$!
  { train_asr_lm data/mini_train_neutral data/mini_dev_neutral neutral && decode neutral mini_test_neutral 1; } ||
    { wait $pid || true; exit 1; }
  wait $pid
  decode neutral mini_test "$nj"
  steps/score.sh --results "$results" --title "ASR ($tier + LM) trained on original data, decoded on the original mini_test" \
    data/mini_test "exp/asr_${tier}_original/decode_mini_test"
  steps/score.sh --results "$results" --title "ASR ($tier + LM) trained on neutral data, decoded on the original mini_test" \
    data/mini_test "exp/asr_${tier}_neutral/decode_mini_test"
  steps/score.sh --results "$results" \
    --title "ASR ($tier + LM) trained on neutral data, decoded on the neutral mini_test (transformed references)" \
    data/mini_test_neutral "exp/asr_${tier}_neutral/decode_mini_test_neutral"
  pydeid asr-wer-table --results "$results" \
    --title "WER (%) of ASR trained on original and transformed data (seed 004 table 9)" \
    --note "Rows as seed 004 section 5.2 defines them: original = trained on original data, decoded on the original mini_test; transformed = trained on the neutral corpus, decoded on the neutral mini_test (converted voices, entities silenced) and scored against its transformed references (entities removed). The third row is the harsher measure the demo reported before: the neutral model on the original test set, whose entity words it never heard." \
    "original:$tier=exp/asr_${tier}_original/decode_mini_test" \
    "transformed:$tier=exp/asr_${tier}_neutral/decode_mini_test_neutral" \
    "transformed model on the original test set:$tier=exp/asr_${tier}_neutral/decode_mini_test"
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ] && $whisper; then
  log "stage 6w: the Whisper meter (tiny.en) on $whisper_per_spk utterances per test speaker, original and neutral mini_test"
  # the same utterances in both conditions (the neutral set may have dropped an untimed one): a paired difference.
  # The neutral side is make_neutral's working dir: the audio and text of the published data/mini_test_neutral
  # under the original ids that data/mini_test shares (the published ids are keyed pseudonyms)
  wo=data/mini_test_whisper; wn=data/mini_test_neutral_whisper; nw=exp/mask/mini_test/masked
  done_ok $nw || { echo "$0: stage 6w: no $nw (run stage 5 first)" >&2; exit 1; }
  if ! done_ok $wn || [ $wn/text -ot $nw/text ]; then
    rm -rf $wo $wn
    utils/subset_data_dir.sh --per-spk "$whisper_per_spk" data/mini_test $wo >/dev/null
    awk 'NR==FNR {k[$1]=1; next} ($1 in k) {print $1}' $wo/utt2spk $nw/utt2spk >data/.whisper_utts
    utils/subset_data_dir.sh --utt-list data/.whisper_utts $nw $wn >/dev/null
    rm -f data/.whisper_utts
  fi
  for s in mini_test_whisper mini_test_neutral_whisper; do
    steps/decode_whisper.sh --model tiny.en --nj "$nj" --cmd "$decode_cmd" data/$s exp/whisper/decode_$s
  done
  pydeid whisper-table --results "$results" --key mini-utility-whisper \
    --title "Utility under the Whisper meter (tiny.en, pretrained): original vs neutral mini_test" \
    original=exp/whisper/decode_mini_test_whisper neutral=exp/whisper/decode_mini_test_neutral_whisper \
    exp/utility/whisper.md >/dev/null
  log "Whisper table: exp/utility/whisper.md (neutral: converted voices, entities silenced, scored against the transformed references)"
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ] && $spoken_pseudonyms; then
  log "stage 6b: spoken pseudonyms (neutral corpus with spoken surrogates, its ASR, silence vs spoken table)"
  local/mini/spoken_pseudonyms.sh --seed "$seed" --nj "$nj" --neutral-voice "$neutral_voice" \
    --mask-tags "$mask_tags" --text-strategy "$text_strategy" --asr-config "$asr_config" \
    --asr-max-epoch "$asr_max_epoch" --lm-config "$lm_config" --lm-max-epoch "$lm_max_epoch" --results "$results"
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  log "stage 7: x-vector attacks (original, $attack_scenarios) for $voice_configs"
  steps/train_xvector.sh --xvector-config "$xvector_config" --seed "$seed" --cmd "$train_cmd" --num-threads "$nj" \
    data/mini_train exp/xvector_original
  # the original and ignorant attackers share this model and the embeddings of its training and enrollment data:
  # made once here (one job each, as steps/attack.sh then finds them), before the attacks run side by side
  for s in mini_train mini_test_enroll; do
    steps/extract_xvectors.sh --cmd "$train_cmd" exp/xvector_original data/$s exp/xvector_original/xvectors_$s \
      >exp/xvector_original/extract_$s.log 2>&1 &
  done
  wait_all "exp/xvector_original/extract_*.log"
  # every attack: one thread, one extraction job; $nj attacks at a time
  common=(--seed "$seed" --xvector-config "$xvector_config" --nj 1 --num-threads 1 --cmd "$train_cmd")
  attacks=()
  attack() {  # attack <scenario> <name> <method> <strategy> <train> <enroll> <trial> [attack.sh options]
    local sc=$1 name=$2 m=$3 st=$4 tr=$5 en=$6 te=$7
    shift 7
    attacks+=("$name")
    [ -f "exp/attack/$name/scores/metrics.json" ] && return 0
    free_lane
    steps/attack.sh "${common[@]}" --scenario "$sc" --method "$m" --strategy "$st" "$@" "$tr" "$en" "$te" \
      "exp/attack/$name" </dev/null >"exp/attack/$name.log" 2>&1 &
  }
  mkdir -p exp/attack
  attack_plan >exp/attack_plan.txt
  mapfile -t plan <exp/attack_plan.txt
  for line in "${plan[@]}"; do
    read -r kind sc name m st tr model en te <<<"$line"
    [ "$kind" = attack ] || continue
    opts=()
    # rho_F0 (original vs converted trials) is the conversion's: measured once, kept for the other attacks
    [ "$m" != none ] && opts=(--orig-trial data/mini_test_trial --pitch-cache "exp/attack/pitch_$(basename "$te").json")
    [ "$model" != - ] && opts+=(--model "$model")
    [ "$tr" = - ] && tr=data/mini_train
    attack "$sc" "$name" "$m" "$st" "$tr" "$en" "$te" "${opts[@]}"
  done
  wait
  for name in "${attacks[@]}"; do
    [ -f "exp/attack/$name/scores/metrics.json" ] || {
      utils/job_failed.sh "$0: attack $name failed" "exp/attack/$name.log"; exit 1; }
    grep -E "scores cosine pooled:" "exp/attack/$name.log" || true
  done
  # cosine: the informed attackers train on 96 utterances, too few for a PLDA (both backends are in the tables)
  pydeid attack-table --results "$results" --backend cosine $(printf "exp/attack/%s/scores " "${attacks[@]}")
fi

if [ $stage -le 8 ] && [ $stop_stage -ge 8 ] && $adversarial; then
  log "stage 8: speaker-adversarial ASR encoder (alpha $adversarial_alphas)"
  tier=$(basename "$asr_config" .yaml)
  aopts=(--alphas "$adversarial_alphas" --asr-config "$asr_config" --results "$results" --cmd "$cuda_cmd"
         --baseline-exp "exp/asr_${tier}_original" --lm-exp "exp/lm_${tier}_original" --train-jobs "$nj" --nj "$nj"
         --probe-threads "$nj")
  [ -n "$asr_max_epoch" ] && aopts+=(--max-epoch "$asr_max_epoch")
  steps/train_asr_adversarial.sh "${aopts[@]}" data/mini_train data/mini_dev data/mini_test \
    data/mini_test_enroll data/mini_test_trial exp/asr_$tier
  if $phi_attack; then   # the x-vector attacker on each representation (alpha 0 = the stage-6 original model)
    pm=()
    for a in $adversarial_alphas; do
      if [ "$(awk -v a="$a" 'BEGIN{print (a + 0 == 0)}')" = 1 ]; then pm+=(--model "phi_$a=exp/asr_${tier}_original")
      else pm+=(--model "phi_$a=exp/asr_${tier}_adv$a"); fi
    done
    $train_cmd --num-threads "$nj" exp/asr_${tier}_phi_attack/log/phi_attack.log \
      pydeid asr-phi-attack --num-threads "$nj" "${pm[@]}" --train-data data/mini_train --enroll data/mini_test_enroll \
      --trial data/mini_test_trial --xvector-config "$xvector_config" --seed "$seed" --results "$results" \
      exp/asr_${tier}_phi_attack || { utils/job_failed.sh "$0: the ASR PHI attack failed" "exp/asr_${tier}_phi_attack/log/phi_attack.log"; exit 1; }
  fi
fi

if [ $stage -le 9 ] && [ $stop_stage -ge 9 ]; then
  log "stage 9: report"
  # what this run left out is named in the summary, with where the committed figures of a full run are
  full="with ./run.sh --tables full (figures of a committed run: section tables-full of git's RESULTS.md)"
  notrun=()
  $adversarial || notrun+=(--not-run "Speaker information in ASR representations (seed 004 table 1)=stage 8, $full")
  if [ "$tables" = demo ]; then
    notrun+=(--not-run "NER utility, seed 004 tables 6-7 complete (four variants, every strategy row, 3 seeds)=stage 10, $full")
    case " $attack_scenarios " in *" parameter-shifted "*) ;; *)
      notrun+=(--not-run "Privacy: x-vector attacker, parameter-shifted and informed-same-draws=stages 4 and 7, $full") ;;
    esac
  fi
  pydeid report-summary --results "$results" --exp exp "${notrun[@]}"
fi
if [ $stage -le 10 ] && [ $stop_stage -ge 10 ] && [ "$tables" = full ]; then
  log "stage 10: NER utility, seed 004 tables 6-7 complete ($ner_full_strategies x $ner_full_variants x seeds $ner_full_seeds)"
  # the demo's cells (first seed) are reused; $nj lanes of strategies side by side, each cell resumable
  steps/ner_utility.sh --ner-config "$ner_config" --max-epochs "$ner_utility_epochs" --seed "$seed" --cmd "$train_cmd" \
    --strategies "$ner_full_strategies" --variants "$ner_full_variants" --seeds "$ner_full_seeds" \
    --results "$results" --nj "$nj" data/mini_train data/mini_dev data/mini_test exp/ner_utility
  pydeid report-summary --results "$results" --exp exp
fi
log "done (stages $stage..$stop_stage); results in $results"
