#!/usr/bin/env bash
# bench/voice_real.sh: the real-voice benchmark of the voice conversions (issue 19).
#
# speechocean762 (../shared/data/speechocean762_adults; 30 train + 30 test speakers): drives
# egs/speechocean762/s5/run.sh (stages 0-3 and 5-6 with --lms general: the masking and training-transcript LM
# decodings of the recipe's own report are skipped) in a work directory, so that every method of --voice-configs (the
# recipe's five and the issue-19 candidates) gets every attacker scenario (ignorant, lazy-informed, informed,
# parameter-shifted, informed-same-draws: x-vector attackers trained on the train speakers, PLDA and cosine, EER with
# speaker-bootstrap 95 % intervals), rho_F0, and pocketsphinx WER with the wheel's general LM, original vs
# converted, on two sets (--wer-set): the 60-utterance / 412-word utility subset (data/test_wer, the recipe's meter
# and the comparison with earlier sessions) and the whole published trial set (data/test_trial, 150 utterances: the
# subset is a part of it; ~1.65 CPU-s of decoding per utterance, ~250 CPU-s per method, run at nice 19).
# --copysynth true adds the floor row "WORLD analysis-synthesis, no conversion" (bench/voice_real_copysynth.py: what
# the resynthesis alone costs), with its ignorant attack (its EER and rho_F0) and its decodes on both sets.
# Then, on the same files:
#   - the COMPRISE voice transformation tool's VoiceMask (bench/comprise/convert_with_comprise.py, run from its
#     own checkout): the published trial set (150 utterances; the utility subset is a part of it), and with
#     --comprise-informed true (default) the attackers' enrolment (150) and training (data/train_xvc, 120) utterances
#     converted by the tool with its own draws; its ignorant, lazy-informed and informed attackers trained as
#     pydeid's, on the same trials (the differences paired), general-LM WER, rho_F0. Cost on this machine: ~0.7 CPU-s per
#     utterance, plus ~345 CPU-s for the F0 analysis of its target pool (600 utterances), done once
#     (exp/comprise/pool_train_xv.json)
#   - vctk_subset (13 speakers, too few for an EER; --vctk-per-spk 1: 13 utterances): general-LM WER and rho_F0
#     (a phone-class VTLN config aligns the prompts first: bench/voice_real_vctk.py)
#   - RTF per method on one core (taskset -c 0), process CPU time / audio seconds (bench/voice_real_rtf.py; VTLN's
#     pool: data/train_vtln as in the recipe; a phone-class config with its alignment's CPU time beside)
# Report: bench/results/voice_real.md and voice_real.json (bench/voice_real_report.py), with the command lines and
# per-stage CPU seconds of every invocation (<work>/invocations.log).
#
#   bench/voice_real.sh [--stage 0] [--stop-stage 100] [--work bench/work/voice_real] [--nj 1]
#       [--voice-configs "<run.sh --voice-configs>"] [--shifted-configs all|"<subset>"|""] [--same-draws true]
#       [--wer-set both|subset|trial] [--copysynth true]
#       [--reuse-run DIR [--reuse-configs auto|"<subset of --voice-configs>"]] [--comprise-tool DIR]
#       [--comprise-informed true] [--comprise true]
#       [--vctk true] [--vctk-configs "<subset of --voice-configs>"] [--vctk-per-spk 1] [--rtf-utts 12]
#
# The settings that fit one session on the shared 2-core machine (about 45 CPU-minutes; the report says what ran):
#   bench/voice_real.sh --reuse-run /work/so_run
# --reuse-run: a finished egs/speechocean762/s5 run of the same data, seed and attacker settings (read only; the same
# trials and training lists are checked): its original-speech attacker (exp/xvector_original, exp/attack/original),
# the original decode and, for the --reuse-configs methods (auto: every --voice-configs entry whose attacks of every
# scenario and general-LM decode it holds; the recipe's default run holds its five methods), their attack scores and
# decodes are copied into the work directory instead of being recomputed (with --wer-set trial|both also their
# converted trial sets data/test_trial_<v>, to be decoded here, and their trial-set decodes when it holds them). Without it, everything is computed here
# (the recipe's five methods took 2,124 CPU-s in stages 3, 5 and 6 of the lead's run, its exp/stage_times.tsv).
#
# Stages: 0 recipe stages 0-6, the copy synthesis, the trial-set decodes | 1 COMPRISE tool conversions |
#         2 its attacks and decodings | 3 vctk_subset | 4 RTF | 5 report. Every stage skips what is already there
#         (rerun to resume).
set -euo pipefail
{ # the whole script is read before it runs: editing it during a (long) run cannot change that run

stage=0
stop_stage=100
root=$(cd "$(dirname "$0")/.." && pwd -P)
work=$root/bench/work/voice_real
nj=1
# the recipe's five methods (VTLN S3 first: the paired differences' baseline), then the issue-19 candidates:
# vtln:3_avg (pseudo-targets averaged over 8 pool speakers), vtln:3_jitter (per-utterance warp and pitch offsets),
# vtln:3_any (targets of any gender), mcadams:mild+vtln3_jitter (then McAdams alpha ~ U(0.85, 0.95))
voice_configs="vtln:3 voicemask:- vtln:1 vtln:2 mcadams:- vtln:3_avg vtln:3_jitter vtln:3_any mcadams:mild+vtln3_jitter"
shifted_configs=all      # the --voice-configs entries that get the parameter-shifted attacker (run.sh --shifted-configs)
comprise_tool=/work/comprise_tool/vtln_based_transformers
comprise_informed=true   # the tool's lazy-informed and informed attackers (~270 more utterances converted by it)
comprise=true            # false: skip stages 1-2 (the tool's conversions and their attacks/decodes)
same_draws=true          # run.sh --same-draws: the extra informed-same-draws attacker
wer_set=both             # the WER sets decoded: subset (data/test_wer, 60 utterances), trial (data/test_trial, all
                         # 150 published trial utterances), both
copysynth=true           # the floor row: WORLD analysis-synthesis with no conversion (ignorant attack, WER, rho_F0)
reuse_run=
reuse_configs=auto       # with --reuse-run: the --voice-configs entries whose attacks and decode it holds
vctk=true
vctk_configs="vtln:3 vtln:3_avg vtln:3_jitter vtln:3_any mcadams:mild+vtln3_jitter voicemask:- mcadams:- vtln:1 vtln:2"
                     # methods converted on vctk_subset, in this order ("": --voice-configs)
vctk_per_spk=1       # vctk_subset utterances per speaker (13 speakers, 96 s of audio: ~60 CPU-s of decoding per
                     # method; 0: all 77, 572 s, ~340 CPU-s per method)
rtf_utts=12
seed=0
out=$root/bench/results/voice_real

cd "$root"
. ./path.sh
cmdline="$0 $*"
. utils/parse_options.sh
[ $# -eq 0 ] || { echo "Usage: $0 [options]  (see the header of $0)" >&2; exit 1; }
case $wer_set in subset|trial|both) ;; *) echo "$0: --wer-set must be subset, trial or both, got '$wer_set'" >&2; exit 1 ;; esac
for b in copysynth:"$copysynth" comprise:"$comprise" vctk:"$vctk" same-draws:"$same_draws"; do
  case ${b#*:} in true|false) ;; *) echo "$0: --${b%%:*} must be true or false, got '${b#*:}'" >&2; exit 1 ;; esac
done
. utils/log.sh   # log <message>: "<UTC time> (voice_real.sh:<line>) <message>"

mkdir -p "$work"
work=$(cd "$work" && pwd -P)
for f in cmd.sh conf local path.sh steps utils; do ln -sfn "$root/$f" "$work/$f"; done
ln -sfn "$root/egs/speechocean762/s5/run.sh" "$work/run.sh"
if [ -n "${PYDEID_SHARED_DATA:-}" ]; then   # the tests' variable names the shared data folder too
  SPEECHOCEAN=${SPEECHOCEAN:-$PYDEID_SHARED_DATA/speechocean762_adults}
  VCTK_SUBSET=${VCTK_SUBSET:-$PYDEID_SHARED_DATA/vctk_subset}
fi
. "$root/egs/speechocean762/s5/db.sh"
so=${SPEECHOCEAN_ABS:-$(cd "$root/egs/speechocean762/s5" && cd "$SPEECHOCEAN" 2>/dev/null && pwd -P || true)}
vc_root=${VCTK_ABS:-$(cd "$root/egs/speechocean762/s5" && cd "$VCTK_SUBSET" 2>/dev/null && pwd -P || true)}
[ -n "$so" ] && [ -d "$so/WAVE" ] || { echo "$0: speechocean762 subset not found (db.sh SPEECHOCEAN=$SPEECHOCEAN)" >&2; exit 1; }
printf 'SPEECHOCEAN=%s\nVCTK_SUBSET=%s\n' "$so" "$vc_root" >"$work/db.sh"
cd "$work"
# invocations.log (read by the report): every command line, then the CPU seconds (user+sys) of each stage's processes
echo "$(date -u '+%Y-%m-%dT%H:%M') $cmdline" >>invocations.log
cpu_now() {  # sets $cpu: bash `times` of this shell's finished children (run here: a $(...) subshell starts at 0)
  times >.times
  cpu=$(awk 'NR==2 {t=0; for (i=1;i<=2;i++) {split($i,a,"m"); sub("s","",a[2]); t+=a[1]*60+a[2]} printf "%.0f", t}' .times)
}
cpu_now; cpu0=$cpu
stage_cpu() {  # stage_cpu <stage>: appends the CPU seconds since the previous call
  cpu_now
  echo "  $(date -u '+%H:%M') stage $1: $((cpu - cpu0)) CPU-s" >>invocations.log
  cpu0=$cpu
}

# the COMPRISE tool's pool: the same train speakers pydeid's VTLN and VoiceMask-target draw from
comprise_convert() {  # comprise_convert <in-data> <out-data> <seed>
  [ -s "$2/wav.scp" ] && return 0
  nice -n 5 python "$root/bench/comprise/convert_with_comprise.py" --tool "$comprise_tool" --method voicemask \
    --targets data/train_xv --n-targets 100 --seed "$3" --pool-cache exp/comprise/pool_train_xv.json --timing "exp/comprise/$(basename "$2").timing.json" \
    "$1" "$2" >"exp/comprise/$(basename "$2").log" 2>&1 || {
      echo "$0: the COMPRISE tool failed on $1, see exp/comprise/$(basename "$2").log" >&2; exit 1; }
}

reuse() {  # copy the original attacker, decodes and --reuse-configs results of --reuse-run into the work dir
  local r f vc v x
  r=$(reuse_dir "$1")
  [ -f "$r/exp/xvector_original/embedding_model.ckpt" ] && [ -f "$r/exp/attack/original/scores/metrics.json" ] ||
    { echo "$0: --reuse-run $1: no trained original attacker (exp/xvector_original, exp/attack/original)" >&2; exit 1; }
  for f in test_trial/trials train_xv/wav.scp test_enroll/wav.scp test_wer/text; do
    cmp -s "$r/data/$f" "data/$f" || { echo "$0: --reuse-run $1: data/$f differs from this run's" >&2; exit 1; }
  done
  mkdir -p exp/attack exp/ps
  for x in exp/xvector_original exp/attack/original exp/ps/decode_general_test_wer; do
    [ -e "$x" ] || cp -a "$r/$x" "$x"
  done
  for vc in $reuse_configs; do
    v=$(vname "$vc")
    for x in "$r"/exp/attack/*_"$v" "$r/exp/ps/decode_general_test_wer_$v"; do
      [ -e "$x" ] || { echo "$0: --reuse-configs $vc: $x not in --reuse-run" >&2; exit 1; }
      [ -e "${x#$r/}" ] || cp -a "$x" "${x#$r/}"
    done
    [ "$wer_set" != subset ] || continue
    # the trial-set meter: the published converted trial set (decoded here unless --reuse-run decoded it)
    [ -e "$r/exp/ps/decode_general_test_trial_$v" ] && [ ! -e "exp/ps/decode_general_test_trial_$v" ] &&
      cp -a "$r/exp/ps/decode_general_test_trial_$v" "exp/ps/decode_general_test_trial_$v"
    copy_data "$r/data/test_trial_$v" "data/test_trial_$v"
    # its utility subset (names the trial set's files): the trial-set decode then decodes only the other utterances
    copy_data "$r/data/test_wer_$v" "data/test_wer_$v"
  done
  [ "$wer_set" = subset ] || [ -e exp/ps/decode_general_test_trial ] || [ ! -e "$r/exp/ps/decode_general_test_trial" ] ||
    cp -a "$r/exp/ps/decode_general_test_trial" exp/ps/decode_general_test_trial
}
copy_data() {  # copy_data <src-data> <dst-data>: a converted data dir (and its audio) of --reuse-run's data/
  [ -s "$2/wav.scp" ] && return 0
  [ -s "$1/wav.scp" ] || { echo "$0: --reuse-run: no $1/wav.scp" >&2; exit 1; }
  local src dst rdata
  src=$(cd "$1" && pwd -P); mkdir -p "$2"; dst=$(cd "$2" && pwd -P); rdata=$(cd "$1/.." && pwd -P)
  cp -a "$src/." "$dst/"
  # audio under the run's data/ is now under this work dir's data/ (copied first); audio elsewhere stays where it is
  sed -i "s| $rdata/| $(dirname "$dst")/|" "$dst/wav.scp"
}
vname() { local m=${1%%:*} st=${1#*:}; [ "$st" = - ] && echo "$m" || echo "$m$st"; }
. "$root/bench/voice_real_decode.sh"   # decode_general: the general-LM decodes (a trial set reuses its subset's)
# --reuse-configs auto: the --voice-configs entries whose every attack (and general-LM decode) --reuse-run holds
reuse_dir() { [ -d "$1/egs/speechocean762/s5/exp/xvector_original" ] && echo "$1/egs/speechocean762/s5" || echo "$1"; }
if [ -n "$reuse_run" ] && [ "$reuse_configs" = auto ]; then
  reuse_configs=
  for vc in $voice_configs; do
    v=$(vname "$vc") ok=true
    for sc in ignorant lazy-informed informed $([ "$shifted_configs" = all ] || [[ " $shifted_configs " == *" $vc "* ]] &&
        echo parameter-shifted) $([ "$same_draws" = true ] && echo informed-same-draws); do
      [ -f "$(reuse_dir "$reuse_run")/exp/attack/${sc}_$v/scores/metrics.json" ] || ok=false
    done
    [ -s "$(reuse_dir "$reuse_run")/exp/ps/decode_general_test_wer_$v/scoring/per_utt" ] || ok=false
    ! $ok || reuse_configs+=" $vc"
  done
fi
[ "$reuse_configs" != auto ] || reuse_configs=
for vc in $reuse_configs; do
  [[ " $voice_configs " == *" $vc "* ]] || { echo "$0: --reuse-configs $vc is not one of --voice-configs" >&2; exit 1; }
done
# run.sh's methods: the others, with the VTLN conversions a chained method starts from
run_configs=
for vc in $voice_configs; do
  [[ " $reuse_configs " == *" $vc "* ]] && continue
  b=${vc#*:}; b=${b#*+}
  if [[ ${vc%%:*} != vtln && $b == vtln[123]* ]] && [[ " $run_configs " != *" vtln:${b#vtln} "* ]]; then
    run_configs+=" vtln:${b#vtln}"
  fi
  [[ " $run_configs " == *" $vc "* ]] || run_configs+=" $vc"
done
log "methods run here:${run_configs:- none}${reuse_run:+; reused from $reuse_run:${reuse_configs:- none}}"
echo "  methods run here:${run_configs:- none}${reuse_run:+; copied from $reuse_run (read only):${reuse_configs:- none}}" \
  >>invocations.log
run_shifted=$shifted_configs
if [ "$shifted_configs" != all ]; then
  run_shifted=$(for vc in $shifted_configs; do [[ " $run_configs " == *" $vc "* ]] && echo "$vc"; done; true)
fi

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: egs/speechocean762/s5 stages 0-3, 6, 5 (${run_configs# }; general LM only, no masking)${reuse_run:+; from $reuse_run:$reuse_configs}"
  ro=(--nj "$nj" --seed "$seed" --voice-configs "${run_configs# }" --shifted-configs "$run_shifted"
      --same-draws "$same_draws")
  nice -n 5 ./run.sh --stage 0 --stop-stage 3 "${ro[@]}"
  [ -z "$reuse_run" ] || reuse "$reuse_run"
  # privacy first (stage 6, the attacks), then utility (stage 5: the general LM decodes at RTF ~0.5)
  nice -n 5 ./run.sh --stage 6 --stop-stage 6 "${ro[@]}"
  if [ "$copysynth" = true ]; then   # the floor: WORLD analysis-synthesis of the published trial set, unchanged
    nice -n 5 python "$root/bench/voice_real_copysynth.py" data/test_trial data/test_trial_copysynth >/dev/null
    [ -s data/test_wer_copysynth/wav.scp ] || utils/subset_data_dir.sh --utt-list data/test_wer/utt2spk \
      data/test_trial_copysynth data/test_wer_copysynth >/dev/null
    [ -f exp/attack/ignorant_copysynth/scores/metrics.json ] ||
      nice -n 5 steps/attack.sh --seed $((seed + 1)) --xvector-config conf/xvector/mini.yaml --epochs 8 --nj 1 \
        --num-threads 1 --scenario ignorant --method copysynth --model exp/xvector_original --orig-trial data/test_trial \
        --pitch-cache exp/attack/pitch_copysynth.json data/train_xv data/test_enroll data/test_trial_copysynth \
        exp/attack/ignorant_copysynth >exp/attack/ignorant_copysynth.log 2>&1 ||
      { echo "$0: attack ignorant_copysynth failed, see exp/attack/ignorant_copysynth.log" >&2; exit 1; }
  fi
  if [ "$wer_set" != trial ]; then
    nice -n 5 ./run.sh --stage 5 --stop-stage 5 --lms general "${ro[@]}"
    [ "$copysynth" = false ] || decode_general test_wer_copysynth
  fi
  if [ "$wer_set" != subset ]; then   # the whole published trial set: original, every method, the copy synthesis
    log "stage 0: general-LM decodes of the 150-utterance trial set (--wer-set $wer_set)"
    decode_general test_trial
    for vc in $voice_configs $([ "$copysynth" = true ] && echo copysynth:-); do
      v=$(vname "$vc")
      [ -s "data/test_trial_$v/wav.scp" ] || { echo "$0: no data/test_trial_$v to decode (--wer-set $wer_set)" >&2; exit 1; }
      decode_general "test_trial_$v"
    done
  fi
  stage_cpu 0
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ] && [ "$comprise" = true ]; then
  log "stage 1: the COMPRISE tool's VoiceMask on the published trial set${comprise_informed:+ (informed: $comprise_informed)}"
  [ -d "$comprise_tool/voice_transformation" ] || {
    echo "$0: no COMPRISE tool checkout at $comprise_tool (--comprise-tool <checkout>/vtln_based_transformers)" >&2
    exit 1; }
  mkdir -p exp/comprise
  comprise_convert data/test_trial data/test_trial_comprise "$seed"
  # the utility subset: the same converted files (as run.sh takes data/test_wer_<v> from data/test_trial_<v>)
  [ -s data/test_wer_comprise/wav.scp ] ||
    utils/subset_data_dir.sh --utt-list data/test_wer/wav.scp data/test_trial_comprise data/test_wer_comprise >/dev/null
  if [ "$comprise_informed" = true ]; then
    comprise_convert data/test_enroll data/test_enroll_comprise_a $((seed + 1))
    comprise_convert data/train_xvc data/train_xv_comprise_a $((seed + 1))
  fi
  stage_cpu 1
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ] && [ "$comprise" = true ]; then
  log "stage 2: attacks and general-LM decoding of the COMPRISE tool's output"
  cp data/test_trial/trials data/test_trial_comprise/trials
  # the settings of run.sh's attackers of pydeid's methods (seed+1, conf/xvector/mini.yaml, 8 epochs), so that
  # the tool's rows and pydeid's are paired on the same trials with attackers trained alike
  common=(--seed $((seed + 1)) --xvector-config conf/xvector/mini.yaml --epochs 8 --nj 1 --num-threads 1
          --method comprise-voicemask --orig-trial data/test_trial --pitch-cache exp/attack/pitch_comprise.json)
  tool_attack() {  # tool_attack <scenario> <train> <enroll> [attack.sh options]
    local sc=$1 tr=$2 en=$3; shift 3
    [ -f "exp/attack/${sc}_comprise/scores/metrics.json" ] ||
      nice -n 5 steps/attack.sh "${common[@]}" --scenario "$sc" "$@" "$tr" "$en" data/test_trial_comprise \
        "exp/attack/${sc}_comprise" >"exp/attack/${sc}_comprise.log" 2>&1 ||
      { echo "$0: attack ${sc}_comprise failed, see exp/attack/${sc}_comprise.log" >&2; exit 1; }
  }
  tool_attack ignorant data/train_xv data/test_enroll --model exp/xvector_original
  if [ "$comprise_informed" = true ]; then
    tool_attack lazy-informed data/train_xv data/test_enroll_comprise_a --model exp/xvector_original
    tool_attack informed data/train_xv_comprise_a data/test_enroll_comprise_a
  fi
  [ "$wer_set" = trial ] || decode_general test_wer_comprise
  [ "$wer_set" = subset ] || decode_general test_trial_comprise
  stage_cpu 2
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ] && [ "$vctk" = true ]; then
  log "stage 3: vctk_subset: general-LM WER and rho_F0 per method"
  [ -d "$vc_root/wav" ] || { echo "$0: vctk_subset not found (db.sh VCTK_SUBSET=$VCTK_SUBSET)" >&2; exit 1; }
  nice -n 5 python "$root/bench/voice_real_vctk.py" --vctk "$vc_root" --voice-configs "${vctk_configs:-$voice_configs}" \
    --targets data/train_xv --vtln-targets data/train_vtln --per-spk "$vctk_per_spk" --seed "$seed" --work vctk
  stage_cpu 3
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: RTF per method on one core (taskset -c 0)"
  # the methods no earlier run timed (exp/rtf*.json; the report takes each method's latest), in a file of their own
  untimed=$(python -c '
import json, sys
timed = {m for f in sys.argv[2:] for m in json.load(open(f)).get("methods", {})}
vn = lambda vc: vc.split(":")[0] + ("" if vc.split(":", 1)[1] == "-" else vc.split(":", 1)[1])
print(" ".join(vc for vc in sys.argv[1].split() if vn(vc) not in timed))' "$voice_configs" $(ls exp/rtf*.json 2>/dev/null))
  tool=(); [ "$comprise" = true ] && ! grep -qs '"comprise"' exp/rtf*.json && tool=(--comprise-tool "$comprise_tool")
  if [ -n "$untimed" ] || [ ${#tool[@]} -gt 0 ]; then
    # VTLN's pool: the recipe's target voices (data/train_vtln); a phone-class config's pool needs their phone
    # alignment (steps/align_phones_for_vtln.sh, as run.sh stage 3 makes it); its timed utterances are aligned and
    # timed in voice_real_rtf.py itself
    ph=()
    for vc in $untimed; do
      [[ $vc == vtln:*_* ]] && utils/vtln_config_has_phones.sh "conf/voice/vtln_${vc#*_}.yaml" &&
        ph=(--target-ali-dir exp/align_ph/train_vtln)
    done
    [ ${#ph[@]} -eq 0 ] || steps/align_phones_for_vtln.sh data/train_vtln exp/align_ph/train_vtln
    OMP_NUM_THREADS=1 taskset -c 0 python "$root/bench/voice_real_rtf.py" --data data/test_wer --targets data/train_xv \
      --vtln-targets data/train_vtln "${ph[@]}" --voice-configs "$untimed" --utts "$rtf_utts" "${tool[@]}" \
      --comprise-pool-cache exp/comprise/pool_train_xv.json --out "exp/rtf_$(date -u +%Y%m%dT%H%M%S).json"
  fi
  stage_cpu 4
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: report ($out.md, $out.json)"
  python "$root/bench/voice_real_report.py" --work "$work" --voice-configs "$voice_configs" --out "$out"
  stage_cpu 5
fi
log "done"
exit
}
