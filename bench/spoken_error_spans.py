"""Where the ASR errors of a model are: inside the test set's entity spans or in the context words (issue 20).

A recogniser trained on spoken pseudonyms can fail on the original test set in two ways: on the entity words
(its training never says the test's names, dates, numbers: the surrogate vocabulary) or on the context words
(the inserts' acoustics and edges teach it something wrong about ordinary speech). For each decode dir (its
scoring/per_utt, steps/score.sh) every reference word is aligned to the hypothesis (jiwer, the scorer's own
normalised ref/hyp), and each error is put on a side: a substitution or deletion on the side of its reference
word (gold tags: entity = any tagged token); an insertion on the entity side when a reference word next to it is
an entity word. Rates are errors / reference words of that side, with an utterance-bootstrap 95 % interval.
With --baseline NAME, every other model is compared with it by a paired bootstrap over utterances (the same
resampled utterances for both): the WER difference (overall, entity, context) with its 95 % interval.

  python bench/spoken_error_spans.py --tags data/mini_test/tags.conll [--baseline NAME] NAME=DECODE_DIR ...
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

_HEAD = re.compile(r"^(\S+) words=(\d+) sub=(\d+) del=(\d+) ins=(\d+)")
N_BOOT = 1000


def read_per_utt(decode_dir) -> dict[str, tuple[list[str], list[str]]]:
    """utterance -> (reference words, hypothesis words) as the scorer normalised them."""
    out, utt, ref = {}, None, None
    for line in (Path(decode_dir) / "scoring" / "per_utt").read_text().splitlines():
        m = _HEAD.match(line)
        if m:
            utt, ref = m.group(1), None
        elif line.strip().startswith("ref:"):
            ref = line.split("ref:", 1)[1].split()
        elif line.strip().startswith("hyp:") and utt is not None and ref is not None:
            out[utt] = (ref, line.split("hyp:", 1)[1].split())
            utt = ref = None
    if not out:
        sys.exit(f"{decode_dir}/scoring/per_utt: no utterance with ref:/hyp: lines (run steps/score.sh)")
    return out


def entity_mask(tags_path) -> dict[str, list[bool]]:
    from pydeid.io import read_conll
    out = {}
    for s in read_conll(tags_path):
        m = [False] * len(s.tokens)
        for a, b, _ in s.spans():
            m[a:b] = [True] * (b - a)
        out[s.id] = m
    return out


def side_errors(ref: list[str], hyp: list[str], ent: list[bool]) -> tuple[int, int, int, int]:
    """(entity errors, entity words, context errors, context words) of one utterance."""
    import jiwer
    if len(ref) != len(ent):
        raise ValueError(f"{len(ref)} reference words, {len(ent)} tagged tokens")
    e_err = c_err = 0
    if hyp:
        al = jiwer.process_words(" ".join(ref), " ".join(hyp)).alignments[0]
    else:
        al = []
        e_err, c_err = sum(ent), len(ent) - sum(ent)
    for ch in al:
        if ch.type in ("substitute", "delete"):
            k = sum(ent[ch.ref_start_idx:ch.ref_end_idx])
            e_err += k
            c_err += (ch.ref_end_idx - ch.ref_start_idx) - k
        elif ch.type == "insert":
            n = ch.hyp_end_idx - ch.hyp_start_idx
            i = ch.ref_start_idx
            near = (i > 0 and ent[i - 1]) or (i < len(ent) and ent[i])
            if near:
                e_err += n
            else:
                c_err += n
    return e_err, sum(ent), c_err, len(ent) - sum(ent)


def model_counts(decode_dir, mask: dict[str, list[bool]]) -> dict[str, np.ndarray]:
    pu = read_per_utt(decode_dir)
    missing = sorted(set(mask) - set(pu))
    if missing:
        sys.exit(f"{decode_dir}/scoring/per_utt: {len(missing)} tagged utterances not scored (e.g. {missing[0]})")
    utts = sorted(mask)
    rows = []
    for u in utts:
        try:
            rows.append(side_errors(*pu[u], mask[u]))
        except ValueError as e:
            sys.exit(f"{decode_dir}/scoring/per_utt: utterance '{u}': {e}")
    a = np.array(rows, float)
    return {"utts": utts, "ent_err": a[:, 0], "ent_n": a[:, 1], "ctx_err": a[:, 2], "ctx_n": a[:, 3]}


def _rate(num, den, idx=None):
    if idx is None:
        return 100 * num.sum() / max(den.sum(), 1)
    return 100 * num[idx].sum(1) / np.maximum(den[idx].sum(1), 1)


def _ci(draws) -> str:
    return f"[{np.percentile(draws, 2.5):.1f}, {np.percentile(draws, 97.5):.1f}]"


def sides(c) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {"all": (c["ent_err"] + c["ctx_err"], c["ent_n"] + c["ctx_n"]), "entity": (c["ent_err"], c["ent_n"]),
            "context": (c["ctx_err"], c["ctx_n"])}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tags", required=True, help="gold tags.conll of the test set (entity spans)")
    p.add_argument("--baseline", default=None, help="NAME of the model the others are compared with")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("models", nargs="+", help="NAME=DECODE_DIR")
    a = p.parse_args(argv)
    mask = entity_mask(a.tags)
    models = {}
    for spec in a.models:
        if "=" not in spec:
            sys.exit(f"model '{spec}': expected NAME=DECODE_DIR")
        name, d = spec.split("=", 1)
        models[name] = model_counts(d, mask)
    if a.baseline is not None and a.baseline not in models:
        sys.exit(f"--baseline {a.baseline}: not among the models ({', '.join(models)})")
    k = len(mask)
    idx = np.random.default_rng(a.seed).integers(0, k, size=(N_BOOT, k))
    print(f"test set: {k} utterances, {int(next(iter(models.values()))['ent_n'].sum())} entity words, "
          f"{int(next(iter(models.values()))['ctx_n'].sum())} context words ({a.tags})\n")
    print("| model | WER % [95 %] | entity-word errors / words: rate % [95 %] | "
          "context errors / words: rate % [95 %] |")
    print("|---|---|---|---|")
    for name, c in models.items():
        cells = []
        for side, (num, den) in sides(c).items():
            r = f"{_rate(num, den):.1f} {_ci(_rate(num, den, idx))}"
            cells.append(r if side == "all" else f"{int(num.sum())} / {int(den.sum())}: {r}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    if a.baseline is not None:
        b = sides(models[a.baseline])
        print(f"\npaired bootstrap over utterances ({N_BOOT} draws, seed {a.seed}): model - {a.baseline}, points\n")
        print("| model | WER diff [95 %] | entity diff [95 %] | context diff [95 %] | P(diff <= 0) overall |")
        print("|---|---|---|---|---|")
        for name, c in models.items():
            if name == a.baseline:
                continue
            cells, p0 = [], None
            for side, (num, den) in sides(c).items():
                bn, bd = b[side]
                d = _rate(num, den, idx) - _rate(bn, bd, idx)
                cells.append(f"{_rate(num, den) - _rate(bn, bd):+.1f} {_ci(d)}")
                if side == "all":
                    p0 = float(np.mean(d <= 0))
            print(f"| {name} | " + " | ".join(cells) + f" | {p0:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
