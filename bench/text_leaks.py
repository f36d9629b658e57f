"""Leak-hunting probes for the text path: data dirs with rare names, category words, spelled names, spoken e-mails,
a phone number read over three turns and names that are common words, run through `pydeid tag-entities` and
`steps/transform_text.sh` with their DEFAULTS; counts, per kind of probe, the original words found in the output.

    python bench/text_leaks.py --work /tmp/leaks [--repo /work/main] [--gold-tags] [--json out.json]

--repo runs another checkout's code (e.g. main, for the figures before a change); the counting rule is this
checkout's (generate.is_value_word, metrics.word_leaks). Figures: bench/results/text_leaks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

# kind -> dialogues -> turns; [words|TYPE] marks the sensitive words (the gold tags)
PROBES = {
    "rare_names": [
        ["[Zbigniewa Quaxley|PER] called from [Vorondil|LOC] yesterday"],
        ["[Ysoldine Tavrin|PER] booked a room at the [Quorvex|ORG] hotel"],
        ["please ask [Oswiecim Pardlow|PER] about the contract"],
        ["[Thaddeus Vingerhoet|PER] flew to [Kestrabad|LOC] on [Monday|DATE]"],
        ["[Marisol Quennevault|PER] works for [Brightwater Nadlow|ORG]"],
        ["[Ephraim Zolotarev|PER] lives in [Vashkoria|LOC]"],
    ],
    "categories": [
        ["she has [diabetes|HEALTH] and the pin is [rainbow|CREDENTIAL]"],
        ["my password is [tulipgarden|CREDENTIAL] and I have [asthma|HEALTH]"],
        ["my email is [anna.berg@quorvex.com|EMAIL]"],
        ["my phone number is [five five five one two one two|PHONE]"],
    ],
    "spelled_names": [
        ["my name is [Kowalski|PER] , [K O W A L S K I|PER]"],
        ["that is [K two W A L S K I|PER]"],
        ["it is spelled [b r z e z i n s k i|PER]"],
    ],
    "spoken_emails": [
        ["my email is [john dot smith at gmail dot com|EMAIL]"],
        ["write to [info at quorvex dot org|EMAIL]"],
        ["the site is [www dot vorondil dot net|EMAIL]"],
    ],
    "split_phone": [
        ["my phone number is [five five five|PHONE]", "okay", "[two one|PHONE]", "[three four nine eight|PHONE]"],
    ],
    "common_word_names": [
        ["ask [Will|PER] to call [Rose|PER]"],
        ["[Mark|PER] said [Bill|PER] will pay the bill"],
        ["ask [will|PER] to call [rose|PER]"],
        ["this is [rose|PER] speaking"],
    ],
}


def parse(turn: str) -> tuple[list[str], list[tuple[int, int, str]]]:
    toks, spans = [], []
    for m in re.finditer(r"\[([^\]|]+)\|([A-Z]+)\]|(\S+)", turn):
        if m.group(3):
            toks.append(m.group(3))
        else:
            words = m.group(1).split()
            spans.append((len(toks), len(toks) + len(words), m.group(2)))
            toks.extend(words)
    return toks, spans


def build(data: Path) -> dict:
    """Writes a text-only data dir (text, utt2spk, spk2utt) and gold.conll; returns {utt: (kind, tokens, spans)}.
    Utterance ids spkNN-dNN-NN: the dialogue is dNN (strip-speaker), turns alternate between two speakers."""
    from pydeid.io.conll import Sentence, write_conll
    data.mkdir(parents=True, exist_ok=True)
    utts, d = {}, 0
    for kind, dialogues in PROBES.items():
        for turns in dialogues:
            d += 1
            for k, turn in enumerate(turns):
                toks, spans = parse(turn)
                utts[f"spk{2 * d + k % 2:02d}-d{d:02d}-{k:02d}"] = (kind, toks, spans)
    order = sorted(utts)
    (data / "text").write_text("".join(f"{u} {' '.join(utts[u][1])}\n" for u in order))
    (data / "utt2spk").write_text("".join(f"{u} {u.split('-')[0]}\n" for u in order))
    spk = sorted({u.split("-")[0] for u in order})
    (data / "spk2utt").write_text("".join(f"{s} {' '.join(u for u in order if u.startswith(s + '-'))}\n"
                                          for s in spk))
    sents = []
    for u in order:
        _, toks, spans = utts[u]
        tags = ["O"] * len(toks)
        for a, b, t in spans:
            tags[a:b] = [f"B-{t}"] + [f"I-{t}"] * (b - a - 1)
        sents.append(Sentence(toks, tags, u))
    write_conll(data / "gold.conll", sents)
    return utts


def run_pipeline(repo: Path, data: Path, work: Path, gold_tags: bool) -> tuple[Path, Path]:
    env = dict(os.environ, PYTHONPATH=str(repo))
    tags = data / "gold.conll" if gold_tags else work / "tags.conll"
    if not gold_tags:
        subprocess.run(["pydeid", "tag-entities", str(data), str(tags)], cwd=repo, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = work / "out"
    subprocess.run(["steps/transform_text.sh", "--secret-dir", str(work / "secrets"), "--exp-dir", str(work / "exp"),
                    str(data), str(tags), str(out)], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return tags, out


def read_text(path: Path) -> dict:
    out = {}
    for line in path.read_text().splitlines():
        u, _, rest = line.partition(" ")
        out[u] = rest.split()
    return out


def count(utts: dict, out_text: dict, tagged: dict | None = None) -> dict:
    """Per kind: distinct gold value words (generate.words_of) found anywhere in the output more often than the
    original text holds them outside the gold entities; and gold tokens surviving in place (same position in an
    output utterance of the same length: spelled letters and digits, which are closed classes; structure words such as
    "dot", "at", "com", "Mister" not counted)."""
    from pydeid.text.generate import ADDRESS_GLUE, word_forms, words_of
    from pydeid.text.lexicon import NON_IDENTIFYING, TLDS
    structure = NON_IDENTIFYING | ADDRESS_GLUE | TLDS        # "dot", "at", "com", "Mister": kept as the shape
    outside, found = Counter(), Counter()
    for u, (_, toks, spans) in utts.items():
        cov = {i for a, b, _ in spans for i in range(a, b)}
        outside.update(w for i, t in enumerate(toks) if i not in cov for w in set(word_forms(t)))
    for toks in out_text.values():
        found.update(w for t in toks for w in set(word_forms(t)))
    res = {}
    for kind in PROBES:
        words, in_place, n_tok = set(), 0, 0
        for u, (k, toks, spans) in utts.items():
            if k != kind:
                continue
            out = out_text.get(u, [])
            for a, b, typ in spans:
                words |= words_of(toks[a:b], typ)
                for i in range(a, b):
                    if toks[i].lower() in structure or not any(c.isalnum() for c in toks[i]):
                        continue
                    n_tok += 1
                    in_place += len(out) == len(toks) and out[i].lower() == toks[i].lower()
        found_words = {w for w in words if found[w] > outside[w]}
        res[kind] = {"words": len(words), "found": len(found_words), "tokens": n_tok, "in_place": in_place}
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--gold-tags", action="store_true", help="transform with the gold tags (no detection)")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    work = Path(a.work)
    utts = build(work / "data")
    _, out = run_pipeline(Path(a.repo), work / "data", work, a.gold_tags)
    res = count(utts, read_text(out / "text"))
    for kind, r in res.items():
        print(f"{kind:18s} original words found {r['found']}/{r['words']}; tokens in place {r['in_place']}/"
              f"{r['tokens']}")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
