#!/usr/bin/env bash
# Several VTLN outputs of one input in one pass (steps/transform_voice.sh --also): outputs that are already a valid
# data dir are skipped, the first remaining one is the main output and the others ride along, each with its own
# strategy, seed, plan and secrets in exp/voice/<basename of its out-data>.
#
# Usage: steps/transform_voice_vtln_outputs.sh [options] <in-data> <target-data> <pool-file> \
#          <strategy>:<seed>:<out-data> [<strategy>:<seed>:<out-data> ...]
#   --nj 1 --cmd run.pl --max-targets 100 --voice-config ""   passed to steps/transform_voice.sh (the config,
#   conf/voice/vtln*.yaml, applies to every output of the pass)
#   --ali-dir "" --target-ali-dir ""   phone alignments (steps/align.sh --phones true) of <in-data> and
#   <target-data>, for a config with classes phones (conf/voice/vtln_ph*.yaml)
#   <pool-file> may hold "{seed}" (one shared target pool per seed; see steps/transform_voice.sh --pool-file)
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
max_targets=100
voice_config=
ali_dir=
target_ali_dir=
help_message="Usage: $0 [--nj 1] [--cmd run.pl] [--max-targets 100] [--voice-config ""] [--ali-dir ""] [--target-ali-dir ""] <in-data> <target-data> <pool-file> <strategy>:<seed>:<out-data> ..."
. utils/parse_options.sh

if [ $# -lt 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
in=$1 tdata=$2 pool=$3
shift 3
first= also=()
for spec in "$@"; do
  IFS=: read -r st sd out <<<"$spec"
  [ -n "$st" ] && [ -n "$sd" ] && [ -n "$out" ] || { echo "$0: '$spec': expected <strategy>:<seed>:<out-data>" >&2; exit 1; }
  utils/validate_data_dir.sh "$out" >/dev/null 2>&1 && continue   # finished earlier
  if [ -z "$first" ]; then first=$spec; else also+=("$st:$sd:exp/voice/$(basename "$out"):$out"); fi
done
[ -n "$first" ] || exit 0
IFS=: read -r st sd out <<<"$first"
vc=(); [ -n "$voice_config" ] && vc=(--voice-config "$voice_config")
[ -n "$ali_dir" ] && vc+=(--ali-dir "$ali_dir")
[ -n "$target_ali_dir" ] && vc+=(--target-ali-dir "$target_ali_dir")
steps/transform_voice.sh --method vtln "${vc[@]}" --strategy "$st" --seed "$sd" --max-targets "$max_targets" --resume true \
  --nj "$nj" --cmd "$cmd" --target-data "$tdata" --pool-file "$pool" --also "${also[*]}" \
  "$in" "exp/voice/$(basename "$out")" "$out"
