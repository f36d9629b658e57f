#!/usr/bin/env bash
# The first --per-gender female and male speakers of a data dir (in spk2gender order), --utts utterances each:
#   local/speechocean762/subset_speakers.sh [--per-gender 3] [--utts 8] <src-data> <dest-data>
set -euo pipefail
per_gender=3
utts=8
help_message="Usage: $0 [--per-gender N] [--utts K] <src-data> <dest-data>"
. utils/parse_options.sh
if [ $# -ne 2 ]; then echo "$help_message" >&2; exit 1; fi
src=$1; dest=$2
[ -s "$src/spk2gender" ] || { echo "$0: $src/spk2gender is missing" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{ awk '$2=="f"' "$src/spk2gender" | head -n "$per_gender"; awk '$2=="m"' "$src/spk2gender" | head -n "$per_gender"; } \
  | awk '{print $1}' | LC_ALL=C sort >"$tmp/spk"
utils/subset_data_dir.sh --spk-list "$tmp/spk" "$src" "$tmp/spk_data" >/dev/null
utils/subset_data_dir.sh --per-spk "$utts" "$tmp/spk_data" "$dest"
