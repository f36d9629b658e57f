#!/usr/bin/env bash
# Forced alignment and word masking benchmark: pocketsphinx alignment of the embedded mini corpus (default size)
# against its gold CTM (boundary error, share within 50 ms, wall time, RTF), leaks of the masks built from the
# aligner's CTM (checked against the gold CTM), and alignment of the real VCTK prompts when ../shared/data is
# there. Optional CTC rows: CTC_MODEL=<espnet exp dir trained on mini> bash bench/align_mini.sh
# Run from the repository root: bash bench/align_mini.sh [work-dir]   (~10 min on 2 shared cores)
# Writes bench/results/align_mini.md.
set -euo pipefail
. ./path.sh
work=${1:-/tmp/pydeid_bench_align}
size=${SIZE:-default}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
mkdir -p "$work" bench/results
python -c "from pydeid.corpora.mini import build_corpus; build_corpus('$work/mini', seed=0, size='$size')"
rows=$work/rows.tsv
: >"$rows"
run_one() {  # <name> <backend> <model> <data> [gold-ctm tags]
  local name=$1 backend=$2 model=$3 data=$4 gold=${5:-} tags=${6:-}
  local ali=$work/ali_${name}
  local t0 t1
  rm -rf "$ali"
  t0=$(date +%s.%N)
  steps/align.sh --backend "$backend" --nj 2 "$data" "$model" "$ali" >/dev/null
  t1=$(date +%s.%N)
  local leaks=-
  local acc={}
  if [ -n "$gold" ]; then
    acc=$(pydeid align-accuracy "$gold" "$ali/wrd_ali/ctm")
    rm -rf "$work/masked_$name"
    steps/mask_words.sh --nj 2 --on-untimed drop "$data" "$tags" "$ali/wrd_ali/ctm" "$work/exp_mask_$name" "$work/masked_$name" >/dev/null
    steps/verify_masking.sh --fail-on-leak false "$work/masked_$name" "$tags" "$gold" "$work/exp_verify_$name" \
      2>/dev/null >"$work/verify_$name.txt"
    leaks=$(sed -n 's/.*leaks: audio \([0-9]*\), text \([0-9]*\).*/\1 audio, \2 text/p' "$work/verify_$name.txt")
  fi
  python - "$name" "$backend" "$ali/report.json" "$t0" "$t1" "$acc" "$leaks" "$work/verify_$name.txt" >>"$rows" <<'PY'
import json, sys
name, backend, rep, t0, t1, acc, leaks, vf = sys.argv[1:]
r = json.load(open(rep)); c = r["counts"]; a = json.loads(acc)
wall = float(t1) - float(t0)
ents = "-"
try:
    import re
    ents = re.search(r"(\d+) entities", open(vf).read()).group(1)
except Exception:
    pass
print("\t".join(map(str, [name, backend, f"{c['aligned']}/{c['utterances']}", f"{r['audio_seconds']:.0f}",
      f"{wall:.0f}", f"{wall / r['audio_seconds']:.3f}", c.get("g2p_tokens", 0),
      sum(v for k, v in c.items() if k.startswith("fallback_")),
      a.get("mean_abs_error_ms", "-"), f"{100 * a['within_50ms']:.1f}%" if "within_50ms" in a else "-",
      f"{leaks} of {ents} entities" if leaks != "-" else "-"])))
PY
}
for s in mini_test mini_dev; do
  run_one "pocketsphinx_$s" pocketsphinx en-us "$work/mini/$s" "$work/mini/$s/words.ctm" "$work/mini/$s/tags.conll"
  if [ -n "${CTC_MODEL:-}" ]; then
    run_one "ctc_$s" ctc "$CTC_MODEL" "$work/mini/$s" "$work/mini/$s/words.ctm" "$work/mini/$s/tags.conll"
  fi
done
vctk=${PYDEID_SHARED_DATA:-$(cd .. && pwd)/shared/data}/vctk_subset
if [ -f "$vctk/manifest.tsv" ]; then
  python - "$vctk" "$work/vctk" <<'PY'
import csv, sys
from pathlib import Path
from pydeid.io import write_data_dir
v, out = Path(sys.argv[1]), sys.argv[2]
rows = list(csv.DictReader(open(v / "manifest.tsv"), delimiter="\t"))
write_data_dir(out, wav_scp={r["utt_id"]: str(v / r["path"]) for r in rows},
               text={r["utt_id"]: r["transcript"] for r in rows}, utt2spk={r["utt_id"]: r["speaker"] for r in rows})
PY
  run_one pocketsphinx_vctk pocketsphinx en-us "$work/vctk"
fi
python - "$rows" "$size" "${CTC_MODEL:-}" <<'PY'
import sys
from pydeid.report import markdown_table
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
t = markdown_table(["set", "backend", "aligned", "audio s", "wall s (nj 2)", "RTF (wall)", "G2P tokens",
                    "fallback decoder", "mean abs boundary error ms", "within 50 ms", "mask leaks vs gold CTM"], rows)
open("bench/results/align_mini.md", "w").write(
    f"# Forced alignment and masking on the mini corpus (size {sys.argv[2]}) and VCTK\n\n" + t +
    "\nMasks: steps/mask_words.sh defaults (pad 100 ms, pauses absorbed) built from the aligner's CTM; leaks: "
    "steps/verify_masking.sh against the gold CTM (10 ms frames above -50 dBFS inside a gold entity interval).\n"
    + (f"CTC rows: ESPnet model {sys.argv[3]}.\n" if sys.argv[3] else ""))
print(t)
PY
