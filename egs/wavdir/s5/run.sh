#!/usr/bin/env bash
# egs/wavdir/s5: de-identification of a plain folder of recordings WITHOUT transcripts, end to end. A Whisper
# recogniser writes the transcripts and word times; the chain (detect, replace, convert, silence or re-speak,
# verify) runs on that hypothesis. What the recogniser missed or misheard is NOT checked: exp/report.md says so.
#
#   ./run.sh --wav-dir DIR [--stage N] [--stop-stage M] [--nj 2] [--seed N] [--spk-from file|dirname]
#            [--model tiny.en] [--words-from whisper|align] [--voice vtln:3] [--target-data DIR]
#            [--fill silence|spoken] [--pad 0.1] [--tags all] [--hide-below-conf P] [--hide-next N]
#
#   0  data dir from the folder (pydeid make-wavdir-data): every audio file (any libsndfile format, rate, channel
#      count) mixed down to mono and resampled to 16 kHz into exp/wavdir/audio (the working area, never published),
#      pseudonymous ids (spk0001-0001: one speaker per recording, or per folder with --spk-from dirname), the id ->
#      file map a 0600 secret (exp/secrets/wavdir_map.json) -> data/wavdir (no text)
#   1  transcription (steps/transcribe.sh, Whisper --model, word times --words-from) -> data/asr (text = the
#      normalised hypothesis) and exp/transcribe/wrd_ali/ctm
#   2  detection on the hypothesis (steps/tag_entities.sh, the default detectors) -> exp/tags/tags.conll; the
#      words Whisper was unsure of added (pydeid whisper-unsure, --hide-below-conf, --hide-next) ->
#      exp/tags/hide.conll, what the later stages hide; replacement (steps/transform_text.sh, surrogates from
#      outside the corpus) -> data/asr_text
#   3  voice conversion of data/asr (steps/convert_voice.sh, --voice; VTLN targets: --target-data, default the
#      synthetic voices of the embedded mini corpus built into data/vtln_targets) -> data/asr_<voice>
#   4  silence (steps/mask_words.sh -> exp/mask/masked) or re-speak (steps/mask_spoken.sh, surrogates of stage 2
#      -> exp/mask_spoken/spoken) the detected words, timed by the stage-1 CTM: working dirs, published in stage 5
#   5  verification and publication with keyed pseudonymous ids (steps/make_neutral.sh: verify-masking against the
#      stage-1 CTM, then steps/publish_data.sh -> data/neutral; for the spoken fill steps/verify_spoken.sh, then
#      steps/publish_data.sh) and a scan of the published dir for the original file names and paths, then
#      exp/report.md (mode 0600: it lists the words left for review) stating what was checked against what
# The neutral corpus is data/neutral (wav.scp -> data/neutral/wav/*.wav, text, utt2spk, spk2utt).
# Random draws (surrogates, voice plan, masking noise, spoken fill, published ids) all derive from the publisher's
# key exp/secrets/publisher.key (random at the first run, 0600, reused on a rerun: reruns are identical, and nobody
# without the file can replay the draws). --seed N draws from N instead: reproducible experiments that anyone who
# knows N can replay (the report says which). exp/draws_from records which, and a rerun with the other refuses.
# Every stage resumes per utterance; a stage's outputs are reused when valid.
set -euo pipefail

stage=0
stop_stage=100
wav_dir=
spk_from=file       # file: one speaker per recording; dirname: one speaker per folder of recordings
nj=2
seed=              # empty: the publisher's key (exp/secrets/publisher.key); N: replayable draws (experiments)
model=tiny.en       # the Whisper model (pydeid.asr.whisper: tiny.en, base)
words_from=whisper  # word times: whisper (its word timestamps) | align (the forced aligner on the hypothesis)
voice=vtln:3        # <method>:<strategy>: vtln:3 (the README's recommendation without transcripts), voicemask:-,
                    # mcadams:-, vtln:3_phone_classes (aligned on the HYPOTHESIS: see README)
target_data=        # VTLN target voices (a data dir); empty: the embedded mini corpus's synthetic voices
fill=silence        # silence (steps/mask_words.sh) | spoken (steps/mask_spoken.sh: the surrogates said by espeak)
pad=0.1             # seconds added on both sides of each hidden word (the masks' --pad)
tags=all            # entity types hidden: all = every type the detectors can emit
hide_below_conf=0.7 # also hide the words whose Whisper word probability is below this (tagged PER; needs
                    # --words-from whisper; 0.7: chosen on mini_dev, bench/results/audio_entity_recall.md)
hide_next=0         # and this many words either side of each of them and of each detected entity
text_strategy="default=surrogate"   # steps/transform_text.sh --strategy
detect_opts=        # more steps/tag_entities.sh options

. ./path.sh
. ./cmd.sh
help_message="Usage: $0 --wav-dir DIR [--stage N] [--stop-stage M] [--nj 2] [--seed N] [--model tiny.en] [--voice vtln:3] [--fill silence|spoken] (see the header of $0)"
. utils/parse_options.sh
[ $# -eq 0 ] || { echo "$help_message" >&2; exit 1; }

. utils/log.sh      # log <message>
. utils/recipe.sh   # done_ok, vname
case $fill in silence|spoken) ;; *) echo "$0: --fill must be silence or spoken, not '$fill'" >&2; exit 1 ;; esac
case $words_from in whisper|align) ;; *) echo "$0: --words-from must be whisper or align, not '$words_from'" >&2; exit 1 ;; esac
case $hide_below_conf in ''|*[!0-9.]*|*.*.*)
  echo "$0: --hide-below-conf must be a number in [0, 1], not '$hide_below_conf'" >&2; exit 1 ;; esac
if awk -v p="$hide_below_conf" 'BEGIN {exit !(p > 0)}' && [ "$words_from" != whisper ]; then
  echo "$0: --hide-below-conf needs Whisper's word probabilities: use --words-from whisper or --hide-below-conf 0" >&2
  exit 1
fi
case $spk_from in file|dirname) ;; *) echo "$0: --spk-from must be file or dirname, not '$spk_from'" >&2; exit 1 ;; esac
case ${voice%%:*} in vtln|voicemask|mcadams) ;; *)
  echo "$0: --voice '$voice': expected vtln:<1|2|3>[_variant], voicemask:- or mcadams:-" >&2; exit 1 ;; esac
[[ $voice == *:* ]] || { echo "$0: --voice '$voice': expected <method>:<strategy>" >&2; exit 1; }
for n in nj hide_next; do
  case ${!n} in ''|*[!0-9]*) echo "$0: --${n//_/-} must be a whole number, not '${!n}'" >&2; exit 1 ;; esac
done
case $seed in *[!0-9]*) echo "$0: --seed must be a whole number or empty (the publisher's key), not '$seed'" >&2
                        exit 1 ;; esac
vm=${voice%%:*}; vs=${voice#*:}
v=$(vname "$vm" "$vs")
ctm=exp/transcribe/wrd_ali/ctm
hide=exp/tags/hide.conll   # the detectors' entities and the words Whisper was unsure of: what is hidden
mkdir -p exp
# the draws of one run dir come from one source: a rerun with another --seed (or the key after a seed) would mix
# draws in data/neutral and misstate them in the report. Recorded before the first draw (stage 2 on).
if [ -n "$seed" ]; then draws="seed $seed"; else draws="publisher's key"; fi
if [ $stage -le 5 ] && [ $stop_stage -ge 2 ]; then
  redraw="remove data/asr_text data/asr_* data/neutral exp/transform_text exp/voice exp/mask exp/mask_spoken"
  redraw+=" exp/draws_from to draw again"
  if [ -f exp/draws_from ]; then
    [ "$(cat exp/draws_from)" = "$draws" ] || { echo "$0: exp/ holds draws from the $(cat exp/draws_from), this" \
      "run asks for the $draws: rerun with the same --seed (empty: the key), or $redraw" >&2; exit 1; }
  elif [ -e data/asr_text ] || [ -e exp/voice ] || [ -e exp/mask ]; then   # drawn before the record was kept
    echo "$0: data/asr_text, exp/voice or exp/mask predate exp/draws_from (drawn with --seed 0, the default then):" \
      "rerun with --seed 0, or $redraw" >&2; exit 1
  else
    echo "$draws" >exp/draws_from
  fi
fi

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: data dir from the recordings of ${wav_dir:-<none>} (16 kHz mono working copies, pseudonymous ids)"
  [ -n "$wav_dir" ] || { echo "$0: stage 0 needs --wav-dir DIR (a folder of recordings)" >&2; exit 1; }
  [ -d "$wav_dir" ] || { echo "$0: --wav-dir $wav_dir: not a directory" >&2; exit 1; }
  pydeid make-wavdir-data --spk-from "$spk_from" --audio-dir exp/wavdir/audio \
    --secret exp/secrets/wavdir_map.json "$wav_dir" data/wavdir
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: transcription (Whisper $model, word times from $words_from)"
  utils/validate_data_dir.sh --no-text data/wavdir >/dev/null
  # --case keep: Whisper's capitals stay (punctuation removed, numbers spelled): the detectors read case
  steps/transcribe.sh --words-from "$words_from" --model "$model" --case keep --nj "$nj" data/wavdir exp/transcribe \
    data/asr
  # each recording is its own dialogue (surrogates consistent within it, dialogue context read within it)
  [ -f data/asr/utt2dialogue ] || cp data/wavdir/utt2dialogue data/asr/utt2dialogue
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: detection on the hypothesis and replacement ($text_strategy)"
  read -r -a dopts <<<"$detect_opts"
  [ -s exp/tags/tags.conll ] && [ exp/tags/tags.conll -nt data/asr/text ] ||
    steps/tag_entities.sh "${dopts[@]}" --nj "$nj" --cmd "$decode_cmd" data/asr - exp/tags
  # replaced only when it changes, so that the later stages' outputs stay valid on a rerun
  pydeid whisper-unsure --below "$hide_below_conf" --next "$hide_next" exp/tags/tags.conll $ctm $hide.new
  if cmp -s $hide.new $hide; then rm $hide.new; else mv $hide.new $hide; fi
  # the surrogates from the publisher's key in exp/secrets (or --seed); their map beside it (0600)
  done_ok data/asr_text && [ data/asr_text/text -nt $hide ] ||
    steps/transform_text.sh --strategy "$text_strategy" --seed "$seed" --secret-dir exp/secrets \
      --exp-dir exp/transform_text data/asr $hide data/asr_text
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: voice conversion ($voice)"
  copts=()
  if [ "$vm" = vtln ]; then
    if [ -z "$target_data" ]; then   # synthetic target voices: no real person's voice is published by the pool
      # a fixed seed: these are public synthetic voices (the embedded mini corpus), not a draw of the voice plan;
      # which of them an utterance gets is drawn from the voice-plan seed below
      done_ok data/vtln_targets/mini_train ||
        local/mini/prepare_data.sh --seed 0 --size tiny --nj "$nj" data/vtln_targets >exp/vtln_targets.log 2>&1 ||
        { utils/job_failed.sh "$0: building the synthetic VTLN targets failed" exp/vtln_targets.log; exit 1; }
      target_data=data/vtln_targets/mini_train
    fi
    copts=(--target-data "$target_data" --pool-file "exp/voice/vtln_pool_s{seed}.npz")
  fi
  # the voice-plan seed of the publisher's key in exp/secrets (or --seed): the one steps/make_neutral.sh derives
  vseed=$(utils/publisher_seed.sh "$seed" voice-plan exp/secrets data/asr data/neutral) || exit 1
  steps/convert_voice.sh --nj "$nj" --cmd "$train_cmd" "${copts[@]}" "$vm" data/asr \
    "$([ "$vm" = vtln ] && echo "$vs" || echo -):$vseed:data/asr_$v"
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: the detected words hidden ($fill) in data/asr_$v, timed by $ctm"
  # the hidden words changed since data/neutral was written (other --hide-* options): every utterance again
  for t in data/neutral/text exp/mask/masked/text exp/mask_spoken/spoken/text; do
    [ -f $t ] && [ $t -ot $hide ] && rm -rf data/neutral exp/mask exp/mask_spoken
  done
  if [ $fill = silence ]; then
    # into the working dir that steps/make_neutral.sh (stage 5) verifies and publishes as data/neutral
    done_ok exp/mask/masked || steps/mask_words.sh --tags "$tags" --pad "$pad" --seed "$seed" \
      --secret-dir exp/secrets --nj "$nj" --cmd "$train_cmd" data/asr_$v $hide $ctm exp/mask exp/mask/masked
  else
    # into a working dir too: it holds the tags, the CTM and the fill's config (its seed); stage 5 publishes it
    done_ok exp/mask_spoken/spoken || steps/mask_spoken.sh --tags "$tags" --pad "$pad" --seed "$seed" --nj "$nj" \
      --cmd "$train_cmd" --secret-dir exp/secrets data/asr_$v $hide \
      data/asr_text/tags.conll $ctm exp/mask_spoken exp/mask_spoken/spoken
  fi
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: verification of data/neutral and the report exp/report.md"
  if [ $fill = silence ]; then
    steps/make_neutral.sh --source-data data/asr --seed "$seed" --secret-dir exp/secrets --tags "$tags" --nj "$nj" \
      --cmd "$train_cmd" data/asr_$v $hide $ctm exp/mask data/neutral
    verify=exp/mask/verify/verify.txt
  else
    steps/verify_spoken.sh --tags "$tags" --secret-dir exp/secrets --orig-data data/asr \
      exp/mask_spoken/spoken $hide $ctm exp/mask_spoken/verify
    steps/publish_data.sh --secret-dir exp/secrets --seed "$seed" --orig-data "data/asr_$v data/asr" \
      exp/mask_spoken/spoken exp/mask_spoken data/neutral
    verify=exp/mask_spoken/verify/verify.txt
  fi
  idopt=(--id-secret-dir exp/secrets)   # published: keyed pseudonymous ids
  pydeid wavdir-report --secret exp/secrets/wavdir_map.json --asr-data data/asr --tags $hide \
    --verify "$verify" --model "$model" --words-from "$words_from" --voice "$voice" --fill "$fill" --pad "$pad" \
    --hidden-types "$tags" --transcribe-dir exp/transcribe "${idopt[@]}" --seed "$seed" --key-dir exp/secrets \
    data/neutral exp/report.md
fi
log "done (stages $stage..$stop_stage); the neutral corpus: data/neutral; what was checked: exp/report.md"
