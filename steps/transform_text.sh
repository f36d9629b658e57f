#!/usr/bin/env bash
# De-identify a data dir's text: every tagged entity is replaced with probability p by its type's strategy
# (seed 000 algorithm); prints the differential-privacy epsilon of eq. (2) for the policy used, or says that it is
# infinite / not covered. Writes <out-data> with the transformed text and tags.conll (types kept, so a tagger can
# train on it); wav.scp (optional: text-only data dirs are accepted), utt2spk etc. are copied unchanged; CTM and other CoNLL files (original words) are not.
#
# Usage: steps/transform_text.sh [options] <data> <tags.conll> <out-data>
#   <tags.conll>: gold tags or steps/tag_entities.sh output (sentence ids = utterance ids)
# Options:
#   --strategy "default=surrogate"   per-type strategies (pydeid transform-text -h); the default draws every value
#                                    from outside the corpus (faker names, gazetteer places, generated numbers,
#                                    letters, e-mails), never an entity word of <tags.conll>, consistent within a
#                                    dialogue (docs/surrogates.md); same_type, full_entity, corpus_same_type ... draw
#                                    from the corpus and move real values between utterances (a warning says so)
#   --p 1.0
#   --seed ""                        empty: the surrogates are drawn from the publisher's key in --secret-dir
#                                    (random at the first run, reused after); N: replayable by anyone knowing N
#   --secret-dir exp/secrets/text    pseudonym maps and the key (mode 0600, refused inside <out-data>)
#   --overwrite-map false            true: a rerun into the same <out-data> with another --seed may replace the map
#                                    the first run wrote (refused otherwise)
#   --pool-conll ""                  corpus whose type frequencies are the replacement pool (default: <tags.conll>)
#   --dialogue-mode auto             consistency scope: <data>/utt2dialogue, else utterance id minus speaker prefix
#                                    and last '-' field (mini: spk003-tr001-04 -> tr001)
#   --avoid-original true            false: seed 000's independent policy (finite epsilon of eq. 2; a draw may give
#                                    the original back by chance: for the epsilon sweep, never for a corpus to share)
#   --pseudonym-source faker  --exemplars ""  --gold-tags ""   (corpus: pseudonymize draws real names of the corpus)
#   --exp-dir ""                     logs and report.json (default exp/transform_text/<basename of out-data>)
#   --cmd "$train_cmd"
set -euo pipefail

strategy="default=surrogate"
p=1.0
seed=
secret_dir=exp/secrets/text
overwrite_map=false
pool_conll=
dialogue_mode=auto
avoid_original=true
pseudonym_source=faker
exemplars=
gold_tags=
exp_dir=
cmd=${train_cmd:-run.pl}
help_message="Usage: $0 [options] <data> <tags.conll> <out-data>  (see the header of $0)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
tags=$2
out=$3
[ -n "$exp_dir" ] || exp_dir=exp/transform_text/$(basename "$out")
seed=$(utils/publisher_seed.sh "$seed" surrogates "$secret_dir" "$data" "$out") || exit 1

if [ -f "$data/wav.scp" ]; then
  pydeid validate-data-dir "$data" >/dev/null
else
  [ -s "$data/text" ] || { echo "$0: $data/text: missing or empty (a text-only data dir needs at least text)" >&2; exit 1; }
fi
[ -f "$tags" ] || { echo "$0: no tags file $tags" >&2; exit 1; }
opts=(--strategy "$strategy" --p "$p" --seed "$seed" --secret-dir "$secret_dir" --dialogue-mode "$dialogue_mode"
      --pseudonym-source "$pseudonym_source" --report "$exp_dir/report.json")
[ -n "$pool_conll" ] && opts+=(--pool-conll "$pool_conll")
case "$avoid_original" in
  true) opts+=(--avoid-original) ;;
  false) opts+=(--no-avoid-original) ;;
  *) echo "$0: --avoid-original $avoid_original: must be true or false" >&2; exit 1 ;;
esac
case "$overwrite_map" in
  true) opts+=(--overwrite-map) ;;
  false) ;;
  *) echo "$0: --overwrite-map $overwrite_map: must be true or false" >&2; exit 1 ;;
esac
[ -n "$exemplars" ] && opts+=(--exemplars "$exemplars")
[ -n "$gold_tags" ] && opts+=(--gold-tags "$gold_tags")

# options, secret placement and an earlier map's seed checked here, so a refusal is one line (not a job log)
pydeid transform-text --check "${opts[@]}" "$data" "$tags" "$out" || exit 1
mkdir -p "$exp_dir/log"
$cmd "$exp_dir/log/transform.log" pydeid transform-text "${opts[@]}" "$data" "$tags" "$out" \
  || { utils/job_failed.sh "$0: transformation failed" "$exp_dir/log/transform.log"; exit 1; }
grep -E "epsilon|leak rate|dialogue scope|WARNING" "$exp_dir/log/transform.log" | grep -v '^#' || true
echo "$0: done: $out (report: $exp_dir/report.json)"
