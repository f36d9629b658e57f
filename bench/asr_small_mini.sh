#!/usr/bin/env bash
# Benchmark of the ASR stages on the embedded mini corpus (default size): time per training epoch, decoding RTF
# and test WER of the small tier. Run from the repository root: bash bench/asr_small_mini.sh [work-dir]
# Writes bench/results/asr_small_mini.md. Takes ~30 min on a busy 2-core machine.
set -euo pipefail
. ./path.sh
work=${1:-/tmp/pydeid_bench_asr}
epochs=${EPOCHS:-30}
mkdir -p "$work" bench/results
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
python -c "from pydeid.corpora.mini import build_corpus; build_corpus('$work/mini', seed=0, size='default')"
m=$work/mini
t0=$(date +%s)
steps/train_asr.sh --asr-config conf/asr/small.yaml --max-epoch "$epochs" "$m/mini_train" "$m/mini_dev" "$work/exp/asr_small"
t1=$(date +%s)
steps/decode_asr.sh --nj 2 --ctc-weight 1.0 "$work/exp/asr_small" "$m/mini_test" "$work/exp/asr_small/decode_mini_test"
t2=$(date +%s)
steps/score.sh "$m/mini_test" "$work/exp/asr_small/decode_mini_test"
python - "$work" "$t0" "$t1" "$t2" <<'PY'
import json, sys
from pathlib import Path
from pydeid.report import markdown_table
work, t0, t1, t2 = Path(sys.argv[1]), *map(int, sys.argv[2:])
exp = work / "exp" / "asr_small"
s = json.loads((exp / "train_summary.json").read_text())
d = json.loads((exp / "decode_mini_test" / "decode_info.json").read_text())
r = json.loads((exp / "decode_mini_test" / "scoring" / "results.json").read_text())["all"]
rows = [["small", s["num_epochs"], s["mean_seconds_per_epoch"], t1 - t0, d["rtf"], t2 - t1, r["wer"], r["cer"]]]
table = markdown_table(["tier", "epochs", "s/epoch", "train wall s", "decode RTF (per job)", "decode wall s",
                        "test WER %", "test CER %"], rows, ".2f")
Path("bench/results/asr_small_mini.md").write_text("# ASR small tier on mini (default size)\n\n" + table)
print(table)
PY
