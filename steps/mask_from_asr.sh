#!/usr/bin/env bash
# The masking chain from a recogniser instead of reference transcripts: <src-data> transcribed by Whisper
# (steps/transcribe.sh: the normalised hypothesis and its word times), sensitive words detected in the hypothesis
# (steps/tag_entities.sh), silenced at the recogniser's word times in the audio of <converted-data> (the same
# utterances, e.g. converted voices; its text replaced by the hypothesis) and removed from the text
# (steps/mask_words.sh), together with the words Whisper was unsure of (--hide-below-conf, pydeid whisper-unsure:
# tagged like entities, so silenced and removed from the text the same way), checked against those times
# (steps/verify_masking.sh: zero leaks or it stops). With
# --gold-tags/--gold-ctm (words really spoken, e.g. the mini corpus's), the audio entity recall against them
# (pydeid audio-entity-recall). The reference text of <src-data>, if any, is used by nothing but that scoring.
# What the recogniser missed or misheard is not checked by the verification: only the recall measures it.
#
# Usage: steps/mask_from_asr.sh [options] <src-data> <converted-data> <exp-dir> <out-data>
#   --model tiny.en  --words-from whisper  --case keep   steps/transcribe.sh (keep: Whisper's capitals, which the
#                                       detectors read)
#   --detectors ""  --ner-model -  --detect-opts ""   steps/tag_entities.sh (detectors, flair model dir, more opts)
#   --hide-below-conf 0.7  --hide-next 0   also hide the untagged words whose Whisper word probability is below
#                                       this, and this many words either side of them and of each entity
#                                       (pydeid whisper-unsure; 0 0: the detectors' tags only). 0.7 0: chosen on
#                                       mini_dev (bench/results/audio_entity_recall.md)
#   --tags all  --pad 0.1  --seed 0         steps/mask_words.sh
#   --gold-tags ""  --gold-ctm ""           score the audio entity recall against these
#   --results ""  --name ""                 RESULTS.md rows (verify-masking, audio-entity-recall)
#   --nj 1  --cmd "$train_cmd"
# Writes <exp-dir>/transcribe (hypothesis, wrd_ali/ctm), <exp-dir>/hyp_data, <exp-dir>/tags (the detectors' tags,
# tags.conll, and with the unsure words, hide.conll), <exp-dir>/conv_hyp
# (<converted-data> with the hypothesis as text), <exp-dir>/mask, <exp-dir>/verify, <exp-dir>/recall.json; <out-data>.
set -euo pipefail
nj=1
cmd=${train_cmd:-run.pl}
model=tiny.en
words_from=whisper
case=keep
detectors=
ner_model=-
detect_opts=
tags=all
hide_below_conf=0.7
hide_next=0
pad=0.1
seed=0
gold_tags=
gold_ctm=
results=
name=
help_message="Usage: $0 [options] <src-data> <converted-data> <exp-dir> <out-data>  (see the header of $0)"
. utils/parse_options.sh
if [ $# -ne 4 ]; then echo "$help_message" >&2; exit 1; fi
src=$1 conv=$2 dir=$3 out=$4
. utils/recipe.sh   # done_ok
for d in "$src" "$conv"; do
  utils/validate_data_dir.sh --no-text "$d" >/dev/null
done
{ [ -z "$gold_tags" ] && [ -z "$gold_ctm" ]; } || { [ -s "$gold_tags" ] && [ -s "$gold_ctm" ]; } ||
  { echo "$0: --gold-tags and --gold-ctm go together and must exist (got '$gold_tags', '$gold_ctm')" >&2; exit 1; }
name=${name:-$(basename "$out") (Whisper $model, words from $words_from, hide below $hide_below_conf, next $hide_next)}
case $hide_below_conf in ''|*[!0-9.]*|*.*.*)
  echo "$0: --hide-below-conf must be a number in [0, 1], not '$hide_below_conf'" >&2; exit 1 ;; esac
case $hide_next in ''|*[!0-9]*) echo "$0: --hide-next must be a whole number, not '$hide_next'" >&2; exit 1 ;; esac
if awk -v p="$hide_below_conf" 'BEGIN {exit !(p > 0)}' && [ "$words_from" != whisper ]; then
  echo "$0: --hide-below-conf needs Whisper's word probabilities: use --words-from whisper or --hide-below-conf 0" >&2
  exit 1
fi
mkdir -p "$dir"
steps/transcribe.sh --words-from "$words_from" --model "$model" --case "$case" --nj "$nj" "$src" "$dir/transcribe" "$dir/hyp_data"
ctm=$dir/transcribe/wrd_ali/ctm
read -r -a dopts <<<"$detect_opts"
[ -n "$detectors" ] && dopts+=(--detectors "$detectors")
[ -s "$dir/tags/tags.conll" ] && [ "$dir/tags/tags.conll" -nt "$dir/hyp_data/text" ] ||
  steps/tag_entities.sh "${dopts[@]}" --nj "$nj" --cmd "$cmd" "$dir/hyp_data" "$ner_model" "$dir/tags"
# what the masking hides: the detectors' entities and the words the recogniser was unsure of (replaced only when
# it changes, so that a rerun with the same options keeps the masked data)
tags_hide=$dir/tags/hide.conll
pydeid whisper-unsure --below "$hide_below_conf" --next "$hide_next" "$dir/tags/tags.conll" "$ctm" "$tags_hide.new"
if cmp -s "$tags_hide.new" "$tags_hide"; then rm "$tags_hide.new"; else mv "$tags_hide.new" "$tags_hide"; fi
# the converted audio with the hypothesis as its text (the masking removes the tagged words from it)
if ! done_ok "$dir/conv_hyp" || [ "$dir/conv_hyp/text" -ot "$dir/hyp_data/text" ]; then
  rm -rf "$dir/conv_hyp.tmp"; mkdir -p "$dir/conv_hyp.tmp"
  for f in wav.scp utt2spk spk2utt utt2gender spk2gender utt2dur segments; do
    [ -f "$conv/$f" ] && cp "$conv/$f" "$dir/conv_hyp.tmp/$f"
  done
  awk 'NR==FNR {k[$1]=1; next} ($1 in k)' "$conv/utt2spk" "$dir/hyp_data/text" >"$dir/conv_hyp.tmp/text"
  cmp -s <(cut -d' ' -f1 "$dir/conv_hyp.tmp/text") <(cut -d' ' -f1 "$conv/utt2spk") ||
    { echo "$0: $dir/hyp_data/text does not hold every utterance of $conv/utt2spk" >&2; rm -rf "$dir/conv_hyp.tmp"; exit 1; }
  rm -rf "$dir/conv_hyp"; mv "$dir/conv_hyp.tmp" "$dir/conv_hyp"
fi
# the hidden words changed since <out-data> was written (other --hide-* options): mask every utterance again
[ -f "$out/text" ] && [ "$out/text" -ot "$tags_hide" ] && rm -rf "$out" "$dir/mask"
done_ok "$out" || steps/mask_words.sh --tags "$tags" --pad "$pad" --seed "$seed" --on-untimed drop --nj "$nj" \
  --cmd "$cmd" "$dir/conv_hyp" "$tags_hide" "$ctm" "$dir/mask" "$out"
steps/verify_masking.sh --tags "$tags" --orig-data "$src" --results "$results" --name "$name, checked on its own CTM" \
  "$out" "$tags_hide" "$ctm" "$dir/verify"
if [ -n "$gold_tags" ]; then
  pydeid audio-entity-recall --pad "$pad" --tags "$tags" --json "$dir/recall.json" ${results:+--results "$results"} \
    --name "$name" "$gold_tags" "$gold_ctm" "$dir/conv_hyp" "$tags_hide" "$ctm"
fi
