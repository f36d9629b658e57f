#!/usr/bin/env bash
# Audio entity recall (bench/results/audio_entity_recall.md): the share of gold sensitive words whose audio the
# chain hides when it runs from Whisper's hypothesis (steps/transcribe.sh -> steps/tag_entities.sh -> the
# intervals steps/mask_words.sh would silence), beside the same chain from the reference transcripts
# (steps/tag_entities.sh on the reference + the pocketsphinx forced alignment). Gold: the mini corpus's tags and
# word times (its generator); the VCTK sample's "Stella", "Bob", "Wednesday" (rule in
# bench/audio_entity_recall.py) timed by the forced aligner on the REFERENCE transcript.
#   bench/audio_entity_recall.sh [--stage 0] [--model tiny.en] [--sets "mini_dev mini_test vctk"] [--pads "0.1"]
#                                [--hides "0.7:0"]   (the Whisper chains also scored with the words of word
#                                probability < P and N neighbours hidden: steps/mask_from_asr.sh --hide-below-conf P
#                                --hide-next N; the mini_dev grid of the results: --sets mini_dev --hides "0.3:0 ...")
# Run from the repository root; work files in bench/work/aer (resumable: every step skips finished outputs).
# The committed figures: --sets "mini_dev mini_test" for both chains, --sets vctk for the reference chain only; the
# VCTK Whisper chain is the egs/wavdir/s5 run on the same recordings (bench/wavdir_recall.py), so its Whisper
# decoding is not repeated here.
set -euo pipefail
stage=0
model=tiny.en
sets="mini_dev mini_test vctk"
pads="0.1"
hides="0.7:0"       # the default of steps/mask_from_asr.sh, chosen on mini_dev
words_from="whisper align"
case=keep           # steps/transcribe.sh --case: keep Whisper's capitals (the detectors read case)
w=bench/work/aer
. ./path.sh
. ./cmd.sh
. utils/parse_options.sh
export PYDEID_SHARED_DATA=${PYDEID_SHARED_DATA:-/work/shared/data}
mkdir -p $w/exp
if [ $stage -le 0 ]; then
  local/mini/prepare_data.sh --seed 0 --size default --nj 1 $w/mini >$w/exp/mini_prep.log 2>&1
  local/speechocean762/prepare_vctk.sh "$PYDEID_SHARED_DATA/vctk_subset" $w/vctk >/dev/null
fi
src() { case $1 in vctk) echo $w/vctk ;; *) echo $w/mini/$1 ;; esac; }
if [ $stage -le 1 ]; then   # the reference chain: forced alignment + detection on the reference transcript
  for s in $sets; do
    d=$(src $s)
    [ -s $w/exp/align_$s/wrd_ali/ctm ] || steps/align.sh --phones false --nj 1 $d en-us $w/exp/align_$s >/dev/null
    [ -s $w/exp/tags_ref_$s/tags.conll ] || steps/tag_entities.sh --nj 1 $d - $w/exp/tags_ref_$s >/dev/null
  done
fi
if [ $stage -le 2 ]; then   # the ASR chain: Whisper's hypothesis and word times, detection on the hypothesis
  for s in $sets; do
    d=$(src $s)
    for wf in $words_from; do
      a=asr_${model}_${wf}_$s
      first=$w/exp/asr_${model}_${words_from%% *}_$s   # one decoding serves every --words-from
      if [ $w/exp/$a != $first ] && [ -s $first/results.jsonl ] && [ ! -s $w/exp/$a/results.jsonl ]; then
        mkdir -p $w/exp/$a; cp $first/results.jsonl $w/exp/$a/results.jsonl
      fi
      [ -s $w/exp/$a/wrd_ali/ctm ] || steps/transcribe.sh --words-from $wf --model $model --case $case --nj 1 \
        $d $w/exp/$a $w/data/$a >$w/exp/$a.log 2>&1
      [ -s $w/exp/tags_$a/tags.conll ] || steps/tag_entities.sh --nj 1 $w/data/$a - $w/exp/tags_$a >/dev/null
    done
  done
fi
if [ $stage -le 3 ]; then
  for s in $sets; do
    d=$(src $s)
    gold_tags=$d/tags.conll; gold_ctm=$d/words.ctm
    if [ $s = vctk ]; then   # gold tags by rule on the reference transcript (bench/audio_entity_recall.py)
      gold_tags=$w/exp/gold_vctk.conll; gold_ctm=$w/exp/align_$s/wrd_ali/ctm
      python bench/audio_entity_recall.py --write-vctk-gold $d/text $gold_tags
    fi
    chains=(--chain "reference=$d:$w/exp/tags_ref_$s/tags.conll:$w/exp/align_$s/wrd_ali/ctm")
    for wf in $words_from; do
      a=asr_${model}_${wf}_$s
      [ -s $w/exp/$a/wrd_ali/ctm ] && chains+=(--chain "whisper $model, words from $wf=$w/data/$a:$w/exp/tags_$a/tags.conll:$w/exp/$a/wrd_ali/ctm")
    done
    hopts=()
    for h in $hides; do hopts+=(--hide "$h"); done
    for pad in $pads; do
      python bench/audio_entity_recall.py "${hopts[@]}" --set $s --pad $pad --gold-data $d --gold-tags $gold_tags --gold-ctm $gold_ctm "${chains[@]}" --json $w/exp/aer_${model}_${s}_pad$pad.json
    done
  done
fi
