#!/usr/bin/env bash
# Several VTLN outputs of one input in one pass (steps/transform_voice.sh --also): outputs that are already a valid
# data dir are skipped, the first remaining one is the main output and the others ride along, each with its own
# strategy, seed, plan and secrets in exp/voice/<basename of its out-data>.
#
# Usage: steps/transform_voice_vtln_outputs.sh [options] <in-data> <target-data> <pool-file> \
#          <strategy>[_<variant>]:<seed>:<out-data> [<strategy>[_<variant>]:<seed>:<out-data> ...]
#   --nj 1 --cmd run.pl --max-targets 100 --voice-config ""   passed to steps/transform_voice.sh (the config,
#   conf/voice/vtln*.yaml, applies to every output of the pass)
#   --config-dir conf/voice   an output <strategy>_<variant> (run.sh --voice-configs vtln:3_phanycmnw) takes the
#                             config <config-dir>/vtln_<variant>.yaml (not with --voice-config); outputs of
#                             different variants are converted in one pass per variant
#   --ali-dir "" --target-ali-dir ""   phone alignments (steps/align.sh --phones true) of <in-data> and
#   <target-data>, for a config with classes phones (utils/vtln_config_has_phones.sh)
#   --phone-ali-root ""       for a config with classes phones and no --ali-dir / --target-ali-dir: align <in-data>
#                             and <target-data> into <phone-ali-root>/<basename> (steps/align_phones_for_vtln.sh,
#                             skipped when current); the recipes pass exp/align_ph
#   <pool-file> may hold "{seed}" (one shared target pool per seed; see steps/transform_voice.sh --pool-file); with
#   --phone-ali-root and a config with classes phones, a pool file whose name lacks "_ph" gets "_ph" before its
#   "_s{seed}" (else before its extension): vtln_pool_s{seed}.npz -> vtln_pool_ph_s{seed}.npz, the k-means and the
#   phone-class pools of a seed side by side instead of rebuilding each other
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
max_targets=100
voice_config=
config_dir=conf/voice
ali_dir=
target_ali_dir=
phone_ali_root=
help_message="Usage: $0 [--nj 1] [--cmd run.pl] [--max-targets 100] [--voice-config \"\"] [--config-dir conf/voice] [--ali-dir \"\"] [--target-ali-dir \"\"] [--phone-ali-root \"\"] <in-data> <target-data> <pool-file> <strategy>[_<variant>]:<seed>:<out-data> ..."
. utils/parse_options.sh

if [ $# -lt 4 ]; then
  echo "$help_message" >&2
  exit 1
fi
in=${1%/} tdata=${2%/} pool=$3
shift 3
first= also=() variants=()
for spec in "$@"; do
  IFS=: read -r st sd out <<<"$spec"
  [ -n "$st" ] && [ -n "$sd" ] && [ -n "$out" ] || { echo "$0: '$spec': expected <strategy>:<seed>:<out-data>" >&2; exit 1; }
  case ${st%%_*} in 1|2|3) ;; *) echo "$0: '$spec': the strategy must be 1, 2 or 3 (optionally _<variant>)" >&2; exit 1 ;; esac
  if [[ $st == *_* ]]; then
    v=${st#*_}
    [ -z "$voice_config" ] || { echo "$0: '$spec': a variant (_$v) and --voice-config $voice_config exclude each other" >&2; exit 1; }
    utils/voice_config.sh "$config_dir/vtln_$v.yaml" >/dev/null 2>&1 || { echo "$0: '$spec': no config $config_dir/vtln_$v.yaml for the variant '$v'" >&2; exit 1; }
    case " ${variants[*]} " in *" $v "*) ;; *) variants+=("$v") ;; esac
  else
    case " ${variants[*]} " in *" - "*) ;; *) variants+=(-) ;; esac
  fi
done
common=(--nj "$nj" --cmd "$cmd" --max-targets "$max_targets" --config-dir "$config_dir" --ali-dir "$ali_dir"
        --target-ali-dir "$target_ali_dir" --phone-ali-root "$phone_ali_root")
if [ ${#variants[@]} -gt 1 ] || { [ ${#variants[@]} -eq 1 ] && [ "${variants[0]}" != - ]; }; then
  for v in "${variants[@]}"; do   # one pass per variant, with its config
    specs=()
    for spec in "$@"; do
      st=${spec%%:*}
      if [ "$v" = - ]; then [[ $st == *_* ]] || specs+=("$spec")
      else [ "${st#*_}" = "$v" ] && specs+=("${st%%_*}:${spec#*:}"); fi
    done
    vc=(); [ "$v" = - ] || vc=(--voice-config "$(utils/voice_config.sh "$config_dir/vtln_$v.yaml")")
    "$0" "${common[@]}" "${vc[@]}" "$in" "$tdata" "$pool" "${specs[@]}"
  done
  exit 0
fi

inputs=(--data "$in" --data "$tdata" --value "vtln $max_targets")   # what a finished output was made from
cfg=${voice_config:-$config_dir/vtln.yaml}
[ -f "$cfg" ] && inputs+=(--file "$cfg")
[ -f "$in/text" ] && inputs+=(--file "$in/text")   # the outputs carry the input's transcript
for spec in "$@"; do
  IFS=: read -r st sd out <<<"$spec"
  # finished earlier: kept while made from the same audio, config, targets, strategy and seed; else made again
  x=exp/voice/$(basename "$out")
  utils/redo_on_new_inputs.sh --also "$x/secrets" --also "$x/vtln_targets.npz" "$x/inputs" "$out" "${inputs[@]}" \
    --value="$st:$sd"
  utils/validate_data_dir.sh "$out" >/dev/null 2>&1 && continue
  if [ -z "$first" ]; then first=$spec; else also+=("$st:$sd:exp/voice/$(basename "$out"):$out"); fi
done
[ -n "$first" ] || exit 0
IFS=: read -r st sd out <<<"$first"
vc=(); [ -n "$voice_config" ] && vc=(--voice-config "$voice_config")
phones=false   # a broken config stops here (exit 2, its one-line error), it never reads as "no phones"
if [ -n "$voice_config" ]; then
  utils/vtln_config_has_phones.sh "$voice_config" && phones=true || [ $? -eq 1 ] || exit 1
fi
if $phones && [ -z "$ali_dir$target_ali_dir" ] && [ -n "$phone_ali_root" ]; then
  # phone classes: the phone alignments of the input and of the target voices, made here when missing or stale
  ali_dir=$phone_ali_root/$(basename "$in") target_ali_dir=$phone_ali_root/$(basename "$tdata")
  steps/align_phones_for_vtln.sh --nj "$nj" --cmd "$cmd" "$in" "$ali_dir"
  [ "$target_ali_dir" = "$ali_dir" ] || steps/align_phones_for_vtln.sh --nj "$nj" --cmd "$cmd" "$tdata" "$target_ali_dir"
  base=$(basename "$pool")
  if [[ $base != *_ph* ]]; then
    case $base in
      *"_s{seed}"*) base=${base/_s\{seed\}/_ph_s\{seed\}} ;;
      *.*) base=${base%.*}_ph.${base##*.} ;;
      *) base=${base}_ph ;;
    esac
    pool=$(dirname "$pool")/$base
  fi
fi
[ -n "$ali_dir" ] && vc+=(--ali-dir "$ali_dir")
[ -n "$target_ali_dir" ] && vc+=(--target-ali-dir "$target_ali_dir")
steps/transform_voice.sh --method vtln "${vc[@]}" --strategy "$st" --seed "$sd" --max-targets "$max_targets" --resume true \
  --nj "$nj" --cmd "$cmd" --target-data "$tdata" --pool-file "$pool" --also "${also[*]}" \
  "$in" "exp/voice/$(basename "$out")" "$out"
