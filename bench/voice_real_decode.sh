#!/usr/bin/env bash
# bench/voice_real_decode.sh: the pocketsphinx general-LM decodes of bench/voice_real.sh (which sources it), run in
# its work directory with path.sh sourced. Also a command, for decodes queued by hand in a work directory:
#   (cd <work> && . ./path.sh && <repo>/bench/voice_real_decode.sh test_trial test_trial_vtln3 ...)
# decode_general <data name>: decode + score data/<name> into exp/ps/decode_general_<name> unless scored already;
# a trial set data/test_trial<suffix> whose utility subset data/test_wer<suffix> was decoded from the very same files
# decodes only its other utterances (data/test_trial<suffix>_rest) and merges both
# (bench/voice_real_merge_decodes.py): pocketsphinx decodes every utterance on its own, and the 60 subset hypotheses
# of whole-trial-set decodes were identical to the subset decodes' (original and VTLN S3), so the merge is the whole
# decode at 40 % less CPU. Decodes run at nice 19: ~0.3 (original) to ~0.65 (converted) CPU-s per audio second.
bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

decode_general() {  # decode_general <data name>: general-LM decode + score of data/<name> unless scored already
  local d=exp/ps/decode_general_$1
  [ -s "$d/scoring/per_utt" ] && return 0
  # a trial set whose utility subset is decoded already: only the other utterances (pocketsphinx decodes each
  # utterance on its own: the 60 subset hypotheses of a whole-trial-set decode were identical, original and VTLN S3)
  if [[ $1 == test_trial* ]] && subset_decoded "${1#test_trial}"; then
    trial_from_subset "${1#test_trial}"
  else
    # the decoder's CPU (~0.5-0.6 CPU-s per audio second) yields to everything else on the shared machine
    nice -n 19 steps/decode_pocketsphinx.sh --lm general --nj 1 "data/$1" "$d" >/dev/null
  fi
  steps/score.sh --results "exp/ps/RESULTS_$([[ $1 == test_trial* ]] && echo trial || echo subset).md" "data/$1" "$d" \
    >/dev/null
}
subset_decoded() {  # subset_decoded <suffix>: exp/ps/decode_general_test_wer<suffix> decoded the very files of
                    # data/test_trial<suffix> (each subset file byte-identical to the trial set's of that utterance)
  local u p q
  [ -s "exp/ps/decode_general_test_wer$1/text" ] && [ -s "data/test_wer$1/wav.scp" ] || return 1
  [ "$(wc -l <"exp/ps/decode_general_test_wer$1/text")" = "$(wc -l <"data/test_wer$1/wav.scp")" ] || return 1
  while read -r u p; do
    q=$(awk -v u="$u" '$1 == u {print $2}' "data/test_trial$1/wav.scp")
    [ -n "$q" ] && [ -f "$p" ] && cmp -s "$p" "$q" || return 1
  done <"data/test_wer$1/wav.scp"
}
trial_from_subset() {  # trial_from_subset <suffix>: decode the trial utterances outside the subset, merge both
  local s=$1 d=exp/ps/decode_general_test_trial$1 sub=exp/ps/decode_general_test_wer$1
  local r=exp/ps/decode_general_test_trial${1}_rest
  mkdir -p "$d"
  awk 'NR == FNR {s[$1]; next} !($1 in s) {print $1}' "data/test_wer$s/wav.scp" "data/test_trial$s/wav.scp" \
    >"$d/rest_utts"
  [ -s "data/test_trial${s}_rest/wav.scp" ] ||
    utils/subset_data_dir.sh --utt-list "$d/rest_utts" "data/test_trial$s" "data/test_trial${s}_rest" >/dev/null
  nice -n 19 steps/decode_pocketsphinx.sh --lm general --nj 1 "data/test_trial${s}_rest" "$r" >/dev/null
  python "$bench/voice_real_merge_decodes.py" "$sub" "$r" "data/test_trial$s" "$d"   # checks, then its json
  sort "$sub/text" "$r/text" >"$d/text"
  cp "$r/textnorm.json" "$d/textnorm.json"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then   # run, not sourced
  set -euo pipefail
  [ $# -gt 0 ] || { echo "Usage: $0 <data name> ...  (in a bench/voice_real.sh work directory)" >&2; exit 1; }
  for c in "$@"; do
    [ -s "data/$c/wav.scp" ] || { echo "$0: data/$c/wav.scp: no such file (run in the work directory)" >&2; exit 1; }
    decode_general "$c"
  done
fi
