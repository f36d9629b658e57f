#!/usr/bin/env bash
# Convert the voices of a Kaldi data dir (VoiceMask, VTLN-based conversion or McAdams) into a new data dir whose
# wav.scp points at the converted audio (<out-data>/wav/<utt>.wav, absolute paths); text, utt2spk, tags.conll,
# words.ctm, utt2gender... are carried over unchanged. The per-utterance targets/parameters are a secret:
# <exp-dir>/secrets/voice_plan.json (mode 0600), never inside <out-data>.
#
# Usage: steps/transform_voice.sh [options] <in-data> <exp-dir> <out-data>
#   --nj 1                  parallel jobs (whole speakers per job, utils/split_data.sh)
#   --cmd "$train_cmd"
#   --method voicemask      voicemask | vtln | mcadams | frame_select
#   --strategy 3            vtln targets: 1 fixed, 2 per source speaker, 3 per utterance
#   --target-selection ""   target-based methods: random_per_utterance | per_speaker | per_gender_pseudo |
#                           pooled_pseudo (pydeid.voice.target_selection; overrides --strategy and the config's)
#   --max-targets 100       vtln target pool size (-T)
#   --target-gender ""      vtln: targets of the source speaker's gender (same) or of the whole pool (any);
#                           default: the config's target_gender, else same
#   --target-data ""        data dir of the target speakers (required by vtln and frame_select)
#   --seed ""               empty: drawn from the publisher's key in <exp-dir>/secrets (random at the first run,
#                           reused after); N: same inputs + seed -> identical audio, whatever --nj (replayable)
#   --resume false          keep the plan and the wavs already written (rerun after an interruption)
#   --targets-file ""       reuse the plan (mapping/parameters) of a previous run
#   --pool-file ""          vtln, frame_select: share the target pool (matching set) between runs (reused when built from the same target
#                           data, seed, -T and settings; built there otherwise)
#   --voice-config ""       YAML of method parameters (conf/voice/<method>.yaml)
#   --ali-dir ""            vtln with classes phones (conf/voice/vtln_ph*.yaml), frame_select with match segments
#                           (conf/voice/frame_select_seg.yaml): the phone alignment of <in-data>
#                           (steps/align.sh --phones true; <ali-dir>/phn_ali/ctm)
#   --target-ali-dir ""     the same options: the phone alignment of --target-data
#   --f0-method ""          dio (default) | harvest
#   --frame-period ""       WORLD frame period in ms (default 10 for voicemask, 5 for vtln)
#   --also ""               vtln: more outputs of the same <in-data> converted in the same pass (each utterance
#                           analysed once for all: ~2/3 of a conversion), a space-separated list of
#                           <strategy>:<seed>:<exp-dir>:<out-data>; each gets its own plan, secrets and pool
#                           (a "{seed}" in --pool-file is replaced by each output's seed)
set -euo pipefail

nj=1
cmd=${train_cmd:-run.pl}
method=voicemask
strategy=3
target_selection=
max_targets=100
target_gender=
target_data=
seed=
resume=false
targets_file=
pool_file=
voice_config=
ali_dir=
target_ali_dir=
f0_method=
frame_period=
also=
help_message="Usage: $0 [options] <in-data> <exp-dir> <out-data>  (see the header of $0 for options)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then
  echo "$help_message" >&2
  exit 1
fi
data=$1
dir=$2
out=$3

pydeid validate-data-dir "$data" >/dev/null
utils/claim_exp_dir.sh "$dir" "$out" || exit 1   # the exp dir holds this output's secret plan, no other's
seed=$(utils/publisher_seed.sh "$seed" voice-plan "$dir/secrets" "$data" "$out") || exit 1
common=(--method "$method" --max-targets "$max_targets")
[ -n "$target_gender" ] && common+=(--target-gender "$target_gender")
[ -n "$target_selection" ] && common+=(--target-selection "$target_selection")
[ -n "$target_data" ] && common+=(--target-data "$target_data")
[ -n "$voice_config" ] && common+=(--config "$voice_config")
[ -n "$ali_dir" ] && common+=(--ali-dir "$ali_dir")
[ -n "$target_ali_dir" ] && common+=(--target-ali-dir "$target_ali_dir")
[ -n "$f0_method" ] && common+=(--f0-method "$f0_method")
[ -n "$frame_period" ] && common+=(--frame-period "$frame_period")
[ "$resume" = true ] && common+=(--resume)
opts=("${common[@]}" --strategy "$strategy" --seed "$seed" --exp-dir "$dir")
[ -n "$targets_file" ] && opts+=(--targets-file "$targets_file")
[ -n "$pool_file" ] && opts+=(--pool-file "${pool_file//\{seed\}/$seed}")

mkdir -p "$dir/log"
pydeid transform-voice "${opts[@]}" --part plan "$data" "$out" >"$dir/log/plan.log" 2>&1 || {
  utils/job_failed.sh "$0: planning failed" "$dir/log/plan.log"; exit 1; }
# the other outputs of the same pass: each planned with its own strategy, seed and secrets
also_opts=(); also_outs=()
for spec in $also; do
  IFS=: read -r a_strategy a_seed a_dir a_out <<<"$spec"
  [ "$method" = vtln ] && [ -n "$a_out" ] || {
    echo "$0: --also '$spec': expected <strategy>:<seed>:<exp-dir>:<out-data> with --method vtln" >&2; exit 1; }
  utils/claim_exp_dir.sh "$a_dir" "$a_out" || exit 1
  a_opts=("${common[@]}" --strategy "$a_strategy" --seed "$a_seed" --exp-dir "$a_dir")
  [ -n "$pool_file" ] && a_opts+=(--pool-file "${pool_file//\{seed\}/$a_seed}")
  mkdir -p "$a_dir/log"
  pydeid transform-voice "${a_opts[@]}" --part plan "$data" "$a_out" >"$a_dir/log/plan.log" 2>&1 || {
    utils/job_failed.sh "$0: planning failed" "$a_dir/log/plan.log"; exit 1; }
  if [ "$resume" != true ] && [ -d "$a_out/wav" ]; then rm -rf "$a_out/wav"; fi
  also_opts+=(--also "$a_dir=$a_out"); also_outs+=("$a_dir=$a_out")
done

nspk=$(wc -l <"$data/spk2utt")
[ "$nj" -gt "$nspk" ] && nj=$nspk
if [ "$nj" -gt 1 ]; then
  sdata=$data/split$nj
  [ -d "$sdata/$nj" ] && [ ! "$sdata" -ot "$data/utt2spk" ] || utils/split_data.sh "$data" "$nj"
  split_opt=(--split-data "$sdata/JOB")
else
  split_opt=()
fi
# Jobs always resume: the plan is fixed and every wav is written atomically, so a job rerun by $cmd after a
# failure only converts what is missing; without --resume the wavs of a former run are discarded first.
if [ "$resume" != true ] && [ -d "$out/wav" ]; then rm -rf "$out/wav"; fi
$cmd JOB=1:$nj "$dir/log/transform.JOB.log" \
  pydeid transform-voice "${opts[@]}" --resume --part convert "${split_opt[@]}" "${also_opts[@]}" "$data" "$out" || {
    utils/job_failed.sh "$0: conversion failed (rerun with --resume true to convert only what is missing)" "$dir/log"/transform.*.log; exit 1; }

for pair in "$dir=$out" "${also_outs[@]}"; do
  a_dir=${pair%%=*}; a_out=${pair#*=}
  pydeid transform-voice --method "$method" --exp-dir "$a_dir" --part assemble "$data" "$a_out" \
    >"$a_dir/log/assemble.log" 2>&1 || {
    utils/job_failed.sh "$0: assembling $a_out failed" "$a_dir/log/assemble.log"; exit 1; }
  pydeid validate-data-dir "$a_out" >/dev/null
done
echo "$0: converted voices ($method) in $out; secret plan in $dir/secrets/voice_plan.json"
