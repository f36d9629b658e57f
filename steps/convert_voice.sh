#!/usr/bin/env bash
# Convert the voices of one data dir with one method into one or more outputs: the conversion call every recipe
# makes (egs/*/s5/run.sh keep only their choices: method, seeds, targets, configs, pool names). Outputs that are
# already a valid data dir are skipped; each output's plan and secrets go to exp/voice/<basename of its out-data>.
#   vtln: every output in ONE pass (each utterance analysed once; steps/transform_voice_vtln_outputs.sh), a
#         <strategy>_<variant> output with the config conf/voice/vtln_<variant>.yaml, phone-class configs aligned
#         into --phone-ali-root first
#   voicemask, mcadams, frame_select: one steps/transform_voice.sh run per output (strategy "-": the method's default);
#         a frame_select config with match segments aligned into --phone-ali-root first
#
# Usage: steps/convert_voice.sh [options] <method> <in-data> [<strategy>:<seed>:<out-data> ...]
#   <method>: voicemask | vtln | mcadams | frame_select (pydeid transform-voice checks it); <strategy>: vtln 1 | 2 | 3 [_<variant>],
#   the others "-" (or a --strategy value for steps/transform_voice.sh)
#   --nj 1 --cmd run.pl
#   --voice-config ""      YAML of method parameters (default: conf/voice/<method>.yaml)
#   --target-data ""       vtln: the target voices (required by vtln, unused by the other methods)
#   --pitch-target-data "" voicemask: the speakers of its `pitch_mode: target` pool (unused by the other methods)
#   --frame-target-data "" frame_select: the target voices and their matching set (required by frame_select)
#   --pool-file exp/voice/vtln_pool_s{seed}.npz   vtln: the target pool shared by the runs of a seed
#   --frame-pool-file ""   frame_select: the matching set shared by the outputs of one config and target data
#                          (default exp/voice/frame_pool_<config>_<target data>.npz; rebuilt when its key differs)
#   --max-targets 100      vtln: target pool size (-T)
#   --phone-ali-root exp/align_ph   vtln with classes phones, frame_select with match segments: where the input
#                          and target voices are aligned (steps/align_phones_for_vtln.sh, skipped when current)
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
voice_config=
target_data=
pitch_target_data=
frame_target_data=
pool_file="exp/voice/vtln_pool_s{seed}.npz"
frame_pool_file=
max_targets=100
phone_ali_root=exp/align_ph
help_message="Usage: $0 [--nj 1] [--cmd run.pl] [--voice-config \"\"] [--target-data \"\"] [--pitch-target-data \"\"] [--frame-target-data \"\"] [--pool-file F] [--frame-pool-file F] [--max-targets 100] [--phone-ali-root exp/align_ph] <method> <in-data> <strategy>:<seed>:<out-data> ..."
. utils/parse_options.sh

if [ $# -lt 2 ]; then
  echo "$help_message" >&2
  exit 1
fi
method=$1 in=$2
shift 2
for spec in "$@"; do
  IFS=: read -r st sd out <<<"$spec"
  [ -n "$st" ] && [ -n "$sd" ] && [ -n "$out" ] || { echo "$0: '$spec': expected <strategy>:<seed>:<out-data>" >&2; exit 1; }
  # one output per exp folder: a/test and b/test would share exp/voice/test and the second replace the first's plan
  utils/claim_exp_dir.sh "exp/voice/$(basename "$out")" "$out" || exit 1
done
[ $# -gt 0 ] || exit 0   # no outputs asked (a recipe's empty list): nothing to do

if [ "$method" = vtln ]; then
  [ -n "$target_data" ] || { echo "$0: vtln needs --target-data (the target voices)" >&2; exit 1; }
  steps/transform_voice_vtln_outputs.sh --nj "$nj" --cmd "$cmd" --max-targets "$max_targets" \
    ${voice_config:+--voice-config "$voice_config"} --phone-ali-root "$phone_ali_root" \
    "$in" "$target_data" "$pool_file" "$@"
  exit 0
fi
if [ "$method" = frame_select ] && [ -z "$frame_target_data" ]; then
  echo "$0: frame_select needs --frame-target-data (the target voices)" >&2; exit 1
fi
ali=()   # frame_select with match segments: the phone alignments of the input and of the target voices
if [ "$method" = frame_select ]; then
  fconf=${voice_config:-conf/voice/frame_select.yaml}
  if utils/voice_config_needs_phones.sh frame_select "$fconf"; then
    a=$phone_ali_root/$(basename "$in") ta=$phone_ali_root/$(basename "$frame_target_data")
    steps/align_phones_for_vtln.sh --nj "$nj" --cmd "$cmd" "$in" "$a"
    [ "$ta" = "$a" ] || steps/align_phones_for_vtln.sh --nj "$nj" --cmd "$cmd" "$frame_target_data" "$ta"
    ali=(--ali-dir "$a" --target-ali-dir "$ta")
  else
    [ $? -eq 1 ] || exit 1   # a broken config: its one-line error, never "no phones"
  fi
fi
cfg=${voice_config:-conf/voice/$method.yaml}
inputs=(--data "$in" --value "$method")   # what a finished output was made from (besides its strategy and seed)
# its transcript too: the output carries it (another text strategy upstream must not leave the old text here)
[ -f "$in/text" ] && inputs+=(--file "$in/text")
[ -f "$cfg" ] && inputs+=(--file "$cfg")
[ "$method" = voicemask ] && [ -n "$pitch_target_data" ] && inputs+=(--data "$pitch_target_data")
[ "$method" = frame_select ] && inputs+=(--data "$frame_target_data")
[ ${#ali[@]} -gt 0 ] && inputs+=(--file "${ali[1]}/phn_ali/ctm" --file "${ali[3]}/phn_ali/ctm")   # the alignments
# frame_select: one matching set per config and target data, shared by its outputs (reused while its key matches)
fpool=${frame_pool_file:-exp/voice/frame_pool_$(basename "${fconf:-x}" .yaml)_$(basename "$frame_target_data").npz}
for spec in "$@"; do
  IFS=: read -r st sd out <<<"$spec"
  # finished earlier: kept while made from the same audio, config, targets, strategy and seed; else made again
  # (with a new plan and matching set), never kept stale
  x=exp/voice/$(basename "$out")
  utils/redo_on_new_inputs.sh --also "$x/secrets" --also "$x/frame_pool.npz" "$x/inputs" "$out" "${inputs[@]}" \
    --value="$st:$sd"
  utils/validate_data_dir.sh "$out" >/dev/null 2>&1 && continue
  opts=(--method "$method" --seed "$sd" --resume true --nj "$nj" --cmd "$cmd")
  [ "$st" = - ] || opts+=(--strategy "$st")
  [ -n "$voice_config" ] && opts+=(--voice-config "$voice_config")
  [ "$method" = voicemask ] && [ -n "$pitch_target_data" ] && opts+=(--target-data "$pitch_target_data")
  [ "$method" = frame_select ] && opts+=(--target-data "$frame_target_data" "${ali[@]}" --pool-file "$fpool")
  steps/transform_voice.sh "${opts[@]}" "$in" "exp/voice/$(basename "$out")" "$out"
done
