"""Word-boundary accuracy of a hypothesis CTM against a gold CTM.

Words of each utterance are paired by sequence alignment of their normalised tokens (difflib), so a missing or
extra word does not shift the pairing. For every paired word both boundaries (start and end) count: the mean
absolute boundary error and the share of boundaries within a tolerance (50 ms by default) are reported.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import numpy as np

from pydeid.io import CtmEntry

from .normalize import match_key


@dataclass
class BoundaryAccuracy:
    utterances: int = 0            # utterances present in both CTMs
    missing_utterances: list[str] = field(default_factory=list)  # in gold, absent from hyp
    gold_words: int = 0
    paired_words: int = 0
    errors: list[float] = field(default_factory=list)  # |hyp - gold| per boundary, seconds
    tolerance: float = 0.05

    @property
    def mean_abs_error(self) -> float:
        return float(np.mean(self.errors)) if self.errors else float("nan")

    @property
    def median_abs_error(self) -> float:
        return float(np.median(self.errors)) if self.errors else float("nan")

    @property
    def within_tolerance(self) -> float:
        return float(np.mean(np.asarray(self.errors) <= self.tolerance + 1e-9)) if self.errors else float("nan")

    def as_dict(self) -> dict:
        return {"utterances": self.utterances, "missing_utterances": len(self.missing_utterances),
                "gold_words": self.gold_words, "paired_words": self.paired_words,
                "boundaries": len(self.errors), "mean_abs_error_ms": round(1000 * self.mean_abs_error, 1),
                "median_abs_error_ms": round(1000 * self.median_abs_error, 1),
                f"within_{int(round(self.tolerance * 1000))}ms": round(self.within_tolerance, 4)}


def pair_words(gold: list[CtmEntry], hyp: list[CtmEntry]) -> list[tuple[CtmEntry, CtmEntry]]:
    g = [match_key(e.token) for e in gold]
    h = [match_key(e.token) for e in hyp]
    sm = difflib.SequenceMatcher(a=g, b=h, autojunk=False)
    out = []
    for blk in sm.get_matching_blocks():
        for k in range(blk.size):
            out.append((gold[blk.a + k], hyp[blk.b + k]))
    return out


def boundary_accuracy(gold: dict[str, list[CtmEntry]], hyp: dict[str, list[CtmEntry]],
                      tolerance: float = 0.05) -> BoundaryAccuracy:
    """gold/hyp: ctm_by_utt() dicts. Non-verbal tokens and empty keys are left out of the comparison."""
    acc = BoundaryAccuracy(tolerance=tolerance)

    def words(es):
        return [e for e in es if match_key(e.token) and not match_key(e.token).startswith(("[", "<"))]

    for utt, g in gold.items():
        g = words(g)
        acc.gold_words += len(g)
        if utt not in hyp:
            acc.missing_utterances.append(utt)
            continue
        acc.utterances += 1
        for ge, he in pair_words(g, words(hyp[utt])):
            acc.paired_words += 1
            acc.errors += [abs(he.start - ge.start), abs(he.end - ge.end)]
    return acc
