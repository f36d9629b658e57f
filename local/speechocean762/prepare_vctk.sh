#!/usr/bin/env bash
# Kaldi data dir of the VCTK sample of ../shared/data/vctk_subset (13 speakers, 77 read utterances, 48 kHz .flac):
#   local/speechocean762/prepare_vctk.sh <vctk-root> <data-dir>
# From <vctk-root>/manifest.tsv (utt_id speaker gender duration_s path transcript ...): wav.scp (absolute paths),
# text (the transcript as given: cased, punctuated; the scoring normalises it), utt2spk, spk2utt, spk2gender,
# utt2gender, utt2dur. Used by egs/speechocean762/s5 for the pocketsphinx utility table on VCTK and, with
# --attacker-extra-data vctk, as more attacker training speakers. Idempotent: a data dir that validates is kept.
set -euo pipefail
if [ $# -ne 2 ]; then echo "Usage: $0 <vctk-root> <data-dir>" >&2; exit 1; fi
root=$1; data=$2
man=$root/manifest.tsv
[ -s "$man" ] || { echo "$0: $man not found (the VCTK sample: VCTK_SUBSET in db.sh)" >&2; exit 1; }
if [ -s "$data/utt2dur" ] && utils/validate_data_dir.sh "$data" >/dev/null 2>&1; then
  echo "$0: $data exists and validates; kept"; exit 0
fi
root=$(cd "$root" && pwd -P)
hdr=$(head -n 1 "$man")
[ "$(echo "$hdr" | cut -f1-6)" = "$(printf 'utt_id\tspeaker\tgender\tduration_s\tpath\ttranscript')" ] || {
  echo "$0: $man:1: expected the columns utt_id speaker gender duration_s path transcript, got: $hdr" >&2; exit 1; }
tmp=$data.tmp; rm -rf "$tmp"; mkdir -p "$tmp"; trap 'rm -rf "$tmp"' EXIT   # no partial output
awk -F'\t' -v root="$root" -v man="$man" -v d="$tmp" 'NR > 1 {
    if (NF < 6 || $1 == "" || $2 == "" || ($3 != "f" && $3 != "m") || $4 !~ /^[0-9.]+$/ || $6 == "") {
      printf "%s:%d: expected <utt_id> <speaker> <f|m> <duration_s> <path> <transcript>\n", man, NR > "/dev/stderr"; exit 1 }
    if (index($1, $2) != 1) { printf "%s:%d: utterance id %s does not start with its speaker %s\n", man, NR, $1, $2 > "/dev/stderr"; exit 1 }
    print $1, root "/" $5 > d "/wav.scp"; print $1, $6 > d "/text"; print $1, $2 > d "/utt2spk"
    print $1, $3 > d "/utt2gender"; print $1, $4 > d "/utt2dur"; print $2, $3 > d "/spk2gender.all"
  }' "$man"
for f in wav.scp text utt2spk utt2gender utt2dur; do LC_ALL=C sort -o "$tmp/$f" "$tmp/$f"; done
LC_ALL=C sort -u "$tmp/spk2gender.all" >"$tmp/spk2gender"; rm "$tmp/spk2gender.all"
[ "$(cut -d' ' -f1 "$tmp/spk2gender" | uniq -d | head -n 1)" = "" ] || {
  echo "$0: $man: a speaker has two genders" >&2; exit 1; }
utils/utt2spk_to_spk2utt.pl "$tmp/utt2spk" >"$tmp/spk2utt"
while read -r utt path; do [ -f "$path" ] || { echo "$0: $man: audio of $utt not found: $path" >&2; exit 1; }; done <"$tmp/wav.scp"
utils/validate_data_dir.sh "$tmp" >/dev/null
rm -rf "$data"; mv "$tmp" "$data"
echo "$data: $(wc -l <"$data/utt2spk") utterances, $(wc -l <"$data/spk2utt") speakers from $man"
