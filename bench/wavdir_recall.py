"""Audio entity recall of an egs/wavdir/s5 run on the VCTK sample (its RESULTS.md): the run's pseudonymous ids
are mapped back to the VCTK utterances through the run's secret map, and scored against the gold of
bench/audio_entity_recall.sh (the rule of bench/audio_entity_recall.py on the reference transcripts, word times
from the forced aligner on them).

    python bench/wavdir_recall.py [--run egs/wavdir/s5] [--aer bench/work/aer] [--pad 0.1] [--json out]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import replace
from pathlib import Path

from pydeid.io.conll import read_conll, write_conll
from pydeid.io.ctm import read_ctm, write_ctm
from pydeid.report.audio_entity_recall import chain_intervals, format_summary, gold_words, score_utterances, summarize


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="egs/wavdir/s5")
    ap.add_argument("--aer", default="bench/work/aer")
    ap.add_argument("--pad", type=float, default=0.1)
    ap.add_argument("--tags", default="exp/tags/hide.conll",
                    help="the run's hidden words, relative to --run (exp/tags/tags.conll: the detectors' alone)")
    ap.add_argument("--json")
    a = ap.parse_args()
    run, aer = Path(a.run), Path(a.aer)
    m = json.loads((run / "exp/secrets/wavdir_map.json").read_text())["utterances"]
    orig2new = {Path(v["source"]).stem: u for u, v in m.items()}
    with tempfile.TemporaryDirectory() as tmp:
        sents = []
        for s in read_conll(aer / "exp/gold_vctk.conll"):
            if s.id in orig2new:
                s.id = orig2new[s.id]
                sents.append(s)
        write_conll(Path(tmp) / "gold.conll", sents)
        ctm = [replace(e, utt=orig2new[e.utt]) for e in read_ctm(aer / "exp/align_vctk/wrd_ali/ctm")
               if e.utt in orig2new]
        write_ctm(Path(tmp) / "gold.ctm", ctm)
        gold = gold_words(Path(tmp) / "gold.conll", Path(tmp) / "gold.ctm")
    hidden = chain_intervals(run / "data/asr", run / a.tags, run / "exp/transcribe/wrd_ali/ctm", pad=a.pad)
    s = summarize(score_utterances(gold, hidden))
    print(f"wavdir run on VCTK ({a.tags}): {format_summary(s)}; missed: {s['missed']}")
    if a.json:
        Path(a.json).write_text(json.dumps(s, indent=1) + "\n")


if __name__ == "__main__":
    main()
