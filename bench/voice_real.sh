#!/usr/bin/env bash
# bench/voice_real.sh: the real-voice benchmark of the voice conversions (issue 19).
#
# speechocean762 (../shared/data/speechocean762_adults; 30 train + 30 test speakers): drives
# egs/speechocean762/s5/run.sh (stages 0-3 and 5-6 with --lms general: the masking and training-transcript LM
# decodings of the recipe's own report are skipped) in a work directory, so that every method of --voice-configs gets
# the four attacker scenarios (ignorant, lazy-informed, informed, parameter-shifted: x-vector attackers trained on
# the train speakers, PLDA and cosine, EER with speaker-bootstrap 95 % intervals), rho_F0, and pocketsphinx WER
# with the wheel's general LM, original vs converted. Then, on the same files:
#   - the COMPRISE voice transformation tool's VoiceMask (bench/comprise/convert_with_comprise.py, run from its
#     own checkout; ~15 s per utterance, so only the WER subset of the trials, 2 per test speaker): ignorant EER on
#     the trials of those utterances (pydeid's methods are rescored on the same trial subset from their full
#     score files), general-LM WER, rho_F0; with --comprise-informed true also the informed attacker (the tool
#     converts the enrollment and attacker training data with its own draws: ~270 more utterances)
#   - RTF per method on one core (taskset -c 0), process CPU time / audio seconds (bench/voice_real_rtf.py)
#   - vctk_subset (13 speakers, too few for an EER): general-LM WER and rho_F0 per method
# Report: bench/results/voice_real.md and voice_real.json (bench/voice_real_report.py).
#
#   bench/voice_real.sh [--stage 0] [--stop-stage 100] [--work bench/work/voice_real] [--nj 2]
#       [--voice-configs "<run.sh --voice-configs>"] [--shifted-configs all|"<subset>"|""] [--same-draws true]
#       [--reuse-run DIR --reuse-configs "<run.sh --voice-configs>"] [--comprise-tool DIR]
#       [--comprise-informed false] [--comprise true]
#       [--vctk true] [--vctk-configs "<subset of --voice-configs>"] [--rtf-utts 12]
#
# --reuse-run: a finished egs/speechocean762/s5 run of the same data, seed and attacker settings (the same trials
# and training lists are checked): its original-speech attacker (exp/xvector_original, exp/attack/original), the
# original decode and, for the --reuse-configs methods, their attack scores and decodes are copied into the work
# directory instead of being recomputed; those methods join the report (not run.sh's --voice-configs).
#
# Stages: 0 recipe stages 0-6 | 1 COMPRISE tool conversions | 2 its attacks and decodings | 3 vctk_subset |
#         4 RTF | 5 report. Every stage skips what is already there (rerun to resume).
set -euo pipefail

stage=0
stop_stage=100
root=$(cd "$(dirname "$0")/.." && pwd -P)
work=$root/bench/work/voice_real
nj=2
# priority order; the issue-19 candidates: vtln:3_jitter (per-utterance warp and pitch offsets), vtln:3_avg
# (pseudo-targets averaged over 8 pool speakers), mcadams:mild+vtln3_jitter (then McAdams alpha ~ U(0.85, 0.95)),
# vtln:3_any (targets of any gender)
voice_configs="vtln:3 vtln:3_avg vtln:3_jitter vtln:3_any mcadams:mild+vtln3_jitter mcadams:vtln3 voicemask:target voicemask:- mcadams:range mcadams:- vtln:1"
shifted_configs="vtln:1 vtln:3 mcadams:- mcadams:range mcadams:vtln3"  # the --voice-configs entries that get the parameter-shifted attacker (run.sh --shifted-configs)
comprise_tool=/work/comprise_tool/vtln_based_transformers
comprise_informed=false
comprise=true            # false: skip stages 1-2 (the tool's conversions and their attacks/decodes)
same_draws=true          # run.sh --same-draws: the extra informed-same-draws attacker
reuse_run=
reuse_configs=
vctk=true
vctk_configs=        # methods converted on vctk_subset (default: --voice-configs)
rtf_utts=12
seed=0
out=$root/bench/results/voice_real

cd "$root"
. ./path.sh
. utils/parse_options.sh
[ $# -eq 0 ] || { echo "Usage: $0 [options]  (see the header of $0)" >&2; exit 1; }
log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') (voice_real.sh) $*"; }

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

# the COMPRISE tool's pool: the same train speakers pydeid's VTLN and VoiceMask-target draw from
comprise_convert() {  # comprise_convert <in-data> <out-data> <seed>
  [ -s "$2/wav.scp" ] && return 0
  nice -n 5 python "$root/bench/comprise/convert_with_comprise.py" --tool "$comprise_tool" --method voicemask \
    --targets data/train_xv --n-targets 100 --seed "$3" --timing "exp/comprise/$(basename "$2").timing.json" \
    "$1" "$2" >"exp/comprise/$(basename "$2").log" 2>&1 || {
      echo "$0: the COMPRISE tool failed on $1, see exp/comprise/$(basename "$2").log" >&2; exit 1; }
}

reuse() {  # copy the original attacker, decodes and --reuse-configs results of --reuse-run into the work dir
  local r=$1/egs/speechocean762/s5 f vc v x
  [ -d "$r/exp/xvector_original" ] || r=$1
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
  done
}
vname() { local m=${1%%:*} st=${1#*:}; [ "$st" = - ] && echo "$m" || echo "$m$st"; }

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: egs/speechocean762/s5 stages 0-3, 6, 5 ($voice_configs; general LM only, no masking)"
  ro=(--nj "$nj" --seed "$seed" --voice-configs "$voice_configs" --shifted-configs "$shifted_configs"
      --same-draws "$same_draws")
  nice -n 5 ./run.sh --stage 0 --stop-stage 3 "${ro[@]}"
  [ -z "$reuse_run" ] || reuse "$reuse_run"
  # privacy first (stage 6, the attacks), then utility (stage 5: the general LM decodes at RTF ~0.5)
  nice -n 5 ./run.sh --stage 6 --stop-stage 6 "${ro[@]}"
  nice -n 5 ./run.sh --stage 5 --stop-stage 5 --lms general "${ro[@]}"
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ] && [ "$comprise" = true ]; then
  log "stage 1: the COMPRISE tool's VoiceMask on the WER subset${comprise_informed:+ (informed: $comprise_informed)}"
  [ -d "$comprise_tool/voice_transformation" ] || {
    echo "$0: no COMPRISE tool checkout at $comprise_tool (--comprise-tool <checkout>/vtln_based_transformers)" >&2
    exit 1; }
  mkdir -p exp/comprise
  comprise_convert data/test_wer data/test_wer_comprise "$seed"
  if [ "$comprise_informed" = true ]; then
    comprise_convert data/test_enroll data/test_enroll_comprise_a $((seed + 1))
    comprise_convert data/train_xv data/train_xv_comprise_a $((seed + 1))
  fi
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ] && [ "$comprise" = true ]; then
  log "stage 2: attacks and general-LM decoding of the COMPRISE tool's output"
  # the trials of the WER subset (2 trial utterances per test speaker): the files both tools converted
  awk 'NR==FNR{keep[$1]=1; next} ($2 in keep)' data/test_wer/utt2spk data/test_trial/trials >data/test_wer/trials.all
  cp data/test_wer/trials.all data/test_wer_comprise/trials
  common=(--seed $((seed + 1)) --xvector-config conf/xvector/mini.yaml --epochs 4 --nj 1 --num-threads 1
          --method comprise-voicemask --orig-trial data/test_wer --pitch-cache exp/attack/pitch_comprise.json)
  [ -f exp/attack/ignorant_comprise/scores/metrics.json ] ||
    nice -n 5 steps/attack.sh "${common[@]}" --scenario ignorant --model exp/xvector_original \
      data/train_xv data/test_enroll data/test_wer_comprise exp/attack/ignorant_comprise >exp/attack/ignorant_comprise.log 2>&1
  if [ "$comprise_informed" = true ] && [ ! -f exp/attack/informed_comprise/scores/metrics.json ]; then
    nice -n 5 steps/attack.sh "${common[@]}" --scenario informed data/train_xv_comprise_a \
      data/test_enroll_comprise_a data/test_wer_comprise exp/attack/informed_comprise >exp/attack/informed_comprise.log 2>&1
  fi
  [ -s exp/ps/decode_general_test_wer_comprise/scoring/per_utt ] || {
    nice -n 5 steps/decode_pocketsphinx.sh --lm general --nj 1 data/test_wer_comprise \
      exp/ps/decode_general_test_wer_comprise >/dev/null
    steps/score.sh --results exp/ps/RESULTS_comprise.md data/test_wer_comprise exp/ps/decode_general_test_wer_comprise \
      >/dev/null; }
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ] && [ "$vctk" = true ]; then
  log "stage 3: vctk_subset: general-LM WER and rho_F0 per method"
  [ -d "$vc_root/wav" ] || { echo "$0: vctk_subset not found (db.sh VCTK_SUBSET=$VCTK_SUBSET)" >&2; exit 1; }
  nice -n 5 python "$root/bench/voice_real_vctk.py" --vctk "$vc_root" --voice-configs "${vctk_configs:-$voice_configs}" \
    --targets data/train_xv --seed "$seed" --work vctk
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: RTF per method on one core (taskset -c 0)"
  OMP_NUM_THREADS=1 taskset -c 0 python "$root/bench/voice_real_rtf.py" --data data/test_wer --targets data/train_xv \
    --voice-configs "$voice_configs" --utts "$rtf_utts" --comprise-tool "$comprise_tool" --out exp/rtf.json
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: report ($out.md, $out.json)"
  python "$root/bench/voice_real_report.py" --work "$work" --voice-configs "$reuse_configs $voice_configs" --out "$out"
fi
log "done"
