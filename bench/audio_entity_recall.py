"""Score chains by audio entity recall and cost (pydeid.report.audio_entity_recall); the driver is
bench/audio_entity_recall.sh.

    python bench/audio_entity_recall.py --set NAME --gold-data D --gold-tags T --gold-ctm C --pad 0.1 \
        --chain "label=<data>:<tags.conll>:<ctm>" ... [--json out.json]
    python bench/audio_entity_recall.py --write-vctk-gold <vctk text> <out.conll>

VCTK gold rule (hand-checked on the 17 distinct prompts of ../shared/data/vctk_subset): the person names
"Stella" (prompt 001) and "Bob" (prompt 003) are PER, the weekday "Wednesday" (prompt 004) is DATE; nothing
else in the prompts identifies a person, a place, a date or a number that could (quantities such as "six
spoons", "three red bags" and "Norsemen" are not sensitive under this rule).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pydeid.align.normalize import match_key
from pydeid.io import Sentence
from pydeid.io.conll import write_conll
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.report.audio_entity_recall import chain_intervals, gold_words, score_utterances, summarize, why_missed

VCTK_GOLD = {"stella": "PER", "bob": "PER", "wednesday": "DATE"}


def write_vctk_gold(text: str, out: str) -> None:
    sents = []
    for utt, line in sorted(read_kaldi_map(text, require_value=False).items()):
        toks = line.split()
        tags = [f"B-{VCTK_GOLD[match_key(t)]}" if match_key(t) in VCTK_GOLD else "O" for t in toks]
        sents.append(Sentence(tokens=toks, tags=tags, id=utt))
    write_conll(out, sents)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write-vctk-gold", nargs=2, metavar=("TEXT", "OUT"))
    ap.add_argument("--set")
    ap.add_argument("--gold-data")
    ap.add_argument("--gold-tags")
    ap.add_argument("--gold-ctm")
    ap.add_argument("--pad", type=float, default=0.1)
    ap.add_argument("--min-overlap", type=float, default=0.5)
    ap.add_argument("--chain", action="append", default=[])
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.write_vctk_gold:
        write_vctk_gold(*a.write_vctk_gold)
        return
    gold = gold_words(a.gold_tags, a.gold_ctm)
    utt2spk = read_kaldi_map(Path(a.gold_data) / "utt2spk")
    res = {"set": a.set, "pad": a.pad, "min_overlap": a.min_overlap, "speakers": len(set(utt2spk.values())),
           "chains": {}}
    for spec in a.chain:
        label, paths = spec.split("=", 1)
        data, tags, ctm = paths.split(":")
        per = score_utterances(gold, chain_intervals(data, tags, ctm, pad=a.pad), a.min_overlap)
        s = summarize(per)
        s["why_missed"] = why_missed(gold, per, tags, ctm)
        res["chains"][label] = s
        print(f"{a.set}\tpad {a.pad}\t{label}\trecall {s['recall_pct']:.1f} [{s['recall_ci'][0]:.1f}, "
              f"{s['recall_ci'][1]:.1f}] ({s['hidden']}/{s['sensitive_tokens']})\tcost {s['cost_pct']:.1f} "
              f"[{s['cost_ci'][0]:.1f}, {s['cost_ci'][1]:.1f}]\tdropped {s['dropped_utterances']}\t"
              f"utts {s['utterances']}\tmissed: {s['why_missed']}")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
