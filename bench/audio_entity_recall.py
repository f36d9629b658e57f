"""Score chains by audio entity recall and cost (pydeid.report.audio_entity_recall); the driver is
bench/audio_entity_recall.sh.

    python bench/audio_entity_recall.py --set NAME --gold-data D --gold-tags T --gold-ctm C --pad 0.1 \
        --chain "label=<data>:<tags.conll>:<ctm>" ... [--hide "P:N" ...] [--json out.json]
    python bench/audio_entity_recall.py --write-vctk-gold <vctk text> <out.conll>

--hide P:N scores every chain whose label starts with "whisper" and whose CTM has confidences once more per
setting, with the words of Whisper word probability below P (and N words either side of them and of each entity)
added to its tags, as `steps/mask_from_asr.sh --hide-below-conf P --hide-next N` does (pydeid.asr.whisper_unsure).

VCTK gold rule (hand-checked on the 17 distinct prompts of ../shared/data/vctk_subset): the person names
"Stella" (prompt 001) and "Bob" (prompt 003) are PER, the weekday "Wednesday" (prompt 004) is DATE; nothing
else in the prompts identifies a person, a place, a date or a number that could (quantities such as "six
spoons", "three red bags" and "Norsemen" are not sensitive under this rule).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from pydeid.align.normalize import match_key
from pydeid.asr.whisper_unsure import tag_unsure
from pydeid.io import Sentence
from pydeid.io.conll import write_conll
from pydeid.io.ctm import read_ctm
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.report.audio_entity_recall import (chain_intervals, format_summary, gold_words, score_utterances,
                                               summarize, why_missed)

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
    ap.add_argument("--hide", action="append", default=[], help="P:N, see the module's help")
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.write_vctk_gold:
        write_vctk_gold(*a.write_vctk_gold)
        return
    gold = gold_words(a.gold_tags, a.gold_ctm)
    utt2spk = read_kaldi_map(Path(a.gold_data) / "utt2spk")
    res = {"set": a.set, "pad": a.pad, "min_overlap": a.min_overlap, "speakers": len(set(utt2spk.values())),
           "chains": {}}
    specs = []
    for spec in a.chain:
        label, paths = spec.split("=", 1)
        specs.append((label, *paths.split(":"), None))
        if label.startswith("whisper") and any(e.conf is not None for e in read_ctm(paths.split(":")[2])):
            specs += [(f"{label}, hide below {h.split(':')[0]} next {h.split(':')[1]}", *paths.split(":"), h)
                      for h in a.hide]
    with tempfile.TemporaryDirectory() as tmp:
        for k, (label, data, tags, ctm, hide) in enumerate(specs):
            if hide:
                p, n = hide.split(":")
                tags_h = f"{tmp}/hide{k}.conll"
                added = tag_unsure(tags, ctm, tags_h, float(p), int(n))["added"]
                tags = tags_h
            per = score_utterances(gold, chain_intervals(data, tags, ctm, pad=a.pad), a.min_overlap)
            s = summarize(per)
            s["why_missed"] = why_missed(gold, per, tags, ctm)
            if hide:
                s["unsure_words_added"] = added
            res["chains"][label] = s
            print(f"{a.set}\tpad {a.pad}\t{label}\t{format_summary(s)}\tmissed: {s['why_missed']}")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
