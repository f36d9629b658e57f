"""Differential-privacy accounting of probabilistic de-identification (seed 000, Adelani et al. 2020).

The algorithm replaces every sensitive token t' with probability p by a token t ~ pi(t|t'). The lemma: when the
policy ignores the token it replaces, pi(t|t') = pi(t), the algorithm is (epsilon, 0)-DP with

    epsilon = max_t log( (1 - p + p*pi(t)) / (p*pi(t)) )            (eq. 2)

the maximum running over the private tokens t (here: every token that occurs as a sensitive unit in the data, plus
every token the policy can emit). Consequences we report as such:
  * p = 1: epsilon = 0 for every policy independent of t' (an original token never survives as itself);
  * p = 0: epsilon = inf (nothing is replaced);
  * 0 < p < 1 and some private token t has pi(t) = 0 (redact, placeholders, a named placeholder that differs from
    the original, a surrogate list that misses the original): epsilon = inf, since a surviving original is
    recognisable with certainty;
  * a policy that depends on t' (consistent pseudonym maps, "never draw the original", same-length digits when the
    length is secret) is outside the lemma: no finite epsilon is claimed.
Per-type policies (a PER is replaced by a PER) are covered when neighbouring datasets differ in a token of the same
type, i.e. the entity type itself is treated as public; we say so in every report.

Detection (seed 000 section 3: "the recall of the employed identification method defines an upper bound for p"):
a sensitive token the detector misses is never replaced, so the algorithm runs at the effective probability
p_eff = p x recall. `effective_p` measures the recall of the tags used against gold tags (per type, on tokens);
without gold the epsilon is stated as assuming perfect detection.

Redact and placeholders: seed 000 reads them as epsilon = 0 (a replaced token reveals nothing about its
original: "case (4)"), whatever p; the strict eq. (2) gives inf at p < 1 (pi(t) = 0 for every original, so an
original that survives is recognisable as such). Reports carry both (EpsilonReport.seed000).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping

INF = float("inf")


def epsilon_eq2(p: float, pi: Mapping[Hashable, float], private_tokens: Iterable[Hashable] = ()) -> float:
    """Seed 000 eq. (2) for an independent policy pi over the private tokens (observed ones plus pi's support)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    if p == 0.0:
        return INF
    if p == 1.0:
        return 0.0
    tokens = set(private_tokens) | {t for t, v in pi.items() if v > 0}
    if not tokens:
        return 0.0
    m = min(pi.get(t, 0.0) for t in tokens)
    if m <= 0.0:
        return INF
    return math.log((1.0 - p + p * m) / (p * m))


def epsilon_uniform(p: float, n_choices: float) -> float:
    """eq. (2) for a uniform policy over n_choices tokens that contains every private token of its class."""
    if p == 0.0:
        return INF
    if p == 1.0:
        return 0.0
    m = 1.0 / n_choices
    return math.log((1.0 - p + p * m) / (p * m))


@dataclass
class EpsilonReport:
    epsilon: float | None      # None: not covered by the lemma (no finite value claimed)
    note: str
    seed000: float | None = None   # the value seed 000's text gives where it differs from the strict eq. (2)

    def fmt(self) -> str:
        if self.epsilon is None:
            base = "not covered"
        elif math.isinf(self.epsilon):
            base = "inf"
        else:
            base = f"{self.epsilon:.4g}"
        if self.seed000 is not None and self.seed000 != self.epsilon:
            base += f" (seed 000: {self.seed000:g})"
        return base


def detection_recall(gold_spans, pred_spans, tokens=None) -> dict[str, tuple[int, int]]:
    """Per gold type: (gold sensitive tokens, of them covered by a predicted span of any type). Only tokens with
    a letter or digit count (punctuation inside a span is not sensitive). Sentences are aligned lists."""
    out: dict[str, list[int]] = {}
    for k, (g, pr) in enumerate(zip(gold_spans, pred_spans)):
        covered = set()
        for a, b, _ in pr:
            covered.update(range(a, b))
        for a, b, t in g:
            c = out.setdefault(t, [0, 0])
            for i in range(a, b):
                if tokens is not None and not any(ch.isalnum() for ch in tokens[k][i]):
                    continue
                c[0] += 1
                c[1] += i in covered
    return {t: (v[0], v[1]) for t, v in out.items()}


def effective_p(p: float, recall: dict[str, tuple[int, int]]) -> dict[str, float]:
    """p x recall per type (seed 000 section 3): the probability that a sensitive token is replaced."""
    return {t: p * (hit / n if n else 1.0) for t, (n, hit) in recall.items()}


def combine_max(reports: Iterable[EpsilonReport]) -> EpsilonReport:
    """Tokens of different types are replaced independently; a dataset pair differs in one token, so the overall
    bound is the largest per-type one (anything not covered makes the whole run not covered)."""
    reports = list(reports)
    if not reports:
        return EpsilonReport(0.0, "no sensitive token")
    if any(r.epsilon is None for r in reports):
        return EpsilonReport(None, "at least one type uses a policy outside the lemma")
    e = max(r.epsilon for r in reports)
    seed = None
    if any(r.seed000 is not None for r in reports):
        seed = max(r.epsilon if r.seed000 is None else r.seed000 for r in reports)
    return EpsilonReport(e, "max over types", seed)
