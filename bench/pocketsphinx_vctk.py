"""pocketsphinx en-us (general LM of the wheel) on the VCTK subset of ../shared/data: WER (speaker-bootstrap 95 %
interval) and RTF, the validation of the real-voice utility meter (pydeid.asr.pocketsphinx_decode).

    python bench/pocketsphinx_vctk.py [--vctk ../shared/data/vctk_subset] [--first N] [--out bench/results/...]
"""

from __future__ import annotations

import argparse
import csv
import json
import tempfile
from pathlib import Path

from pydeid.asr.pocketsphinx_decode import decode_data_dir
from pydeid.asr.score import score_decode_dir
from pydeid.report.bootstrap_ci import wer_with_ci
from pydeid.report.speechocean_report import read_per_utt
from pydeid.io import DataDir


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vctk", default=str(Path(__file__).resolve().parents[1].parent / "shared/data/vctk_subset"))
    ap.add_argument("--first", type=int, default=None, help="only the first N utterances of the manifest")
    ap.add_argument("--lm", default="general")
    args = ap.parse_args()
    root = Path(args.vctk)
    rows = list(csv.DictReader(open(root / "manifest.tsv", encoding="utf-8"), delimiter="\t"))[:args.first]
    d = DataDir(utt2gender={}, spk2gender={})
    for r in rows:
        d.wav_scp[r["utt_id"]] = str(root / r["path"])
        d.text[r["utt_id"]] = r["transcript"]
        d.utt2spk[r["utt_id"]] = r["speaker"]
        d.utt2gender[r["utt_id"]] = d.spk2gender[r["speaker"]] = r["gender"]
    with tempfile.TemporaryDirectory() as tmp:
        d.write(Path(tmp) / "data")
        info = decode_data_dir(Path(tmp) / "data", Path(tmp) / "dec", lm=args.lm)
        score_decode_dir(Path(tmp) / "data", Path(tmp) / "dec", results_md=Path(tmp) / "R.md")
        per = read_per_utt(Path(tmp) / "dec" / "scoring" / "per_utt")
    utts = sorted(per)
    w = wer_with_ci([per[u][0] for u in utts], [per[u][1] for u in utts], [d.utt2spk[u] for u in utts])
    print(json.dumps({"utterances": len(utts), "speakers": w["speakers"], "words": w["words"],
                      "wer_pct": round(w["wer_pct"], 2), "ci95": [round(x, 1) for x in w["ci"]],
                      "rtf": info["rtf"], "lm": args.lm}))


if __name__ == "__main__":
    main()
