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

    def fmt(self) -> str:
        if self.epsilon is None:
            return "not covered"
        if math.isinf(self.epsilon):
            return "inf"
        return f"{self.epsilon:.4g}"


def combine_max(reports: Iterable[EpsilonReport]) -> EpsilonReport:
    """Tokens of different types are replaced independently; a dataset pair differs in one token, so the overall
    bound is the largest per-type one (anything not covered makes the whole run not covered)."""
    reports = list(reports)
    if not reports:
        return EpsilonReport(0.0, "no sensitive token")
    if any(r.epsilon is None for r in reports):
        return EpsilonReport(None, "at least one type uses a policy outside the lemma")
    e = max(r.epsilon for r in reports)
    return EpsilonReport(e, "max over types")
