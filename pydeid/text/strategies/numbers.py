"""random_digits: every number word or digit redrawn within its class (seed 002)."""

from __future__ import annotations

import math

from ..dp import INF, EpsilonReport
from ..wordforms import number_class, random_same_class
from .base import Strategy
from .helpers import flat

# words of a spoken number that random_digits keeps as structure ("area code", "double four", "two point five")
NUMBER_STRUCTURE = frozenset({"area", "code", "double", "triple", "and", "point", "hundred", "thousand", "million",
                              "extension", "dash", "hash", "star", "plus"})


class RandomDigits(Strategy):
    name = "random_digits"
    unit = "word"
    agrees_articles = True

    def unit_for(self, typ: str) -> str:
        from ..categories.surrogates import ENTITY_UNIT
        return "entity" if typ in ENTITY_UNIT else self.unit

    def replace(self, toks, typ, ctx):
        from ..categories.surrogates import category_value
        got = category_value(toks, typ, ctx)   # a category (HEALTH, CREDENTIAL ...) is never kept word by word
        if got is not None:
            return got
        out = []
        for t in toks:
            new = random_same_class(t, ctx.rng, ctx.avoid_original)
            out.append(t if new is None else new)   # structure words ("area", "code", "double") are kept
        return out

    def epsilon(self, typ, p, observed, ctx):
        observed = flat(observed)
        # words that are neither numbers nor number structure are kept as they are: not protected at any p
        kept = sorted(t for t in observed if number_class(t) is None and t.lower() not in NUMBER_STRUCTURE
                      and any(c.isalnum() for c in t))
        if kept:
            return EpsilonReport(INF, f"{len(kept)} of {len(observed)} distinct {typ} tokens are not numbers and "
                                      "random_digits keeps them unchanged (not protected)")
        if ctx.avoid_original:
            return EpsilonReport(None, "avoid-original: pi(t|t') depends on t', outside the lemma")
        if p == 1.0:
            return EpsilonReport(0.0, "p=1; uniform redraw within each class; words outside the number classes are "
                                      "kept as non-private structure; digit-string length treated as public")
        worst, why = 0.0, []
        for t in sorted(observed):     # sorted: a tie names the same token in every process
            cls = number_class(t)
            if cls is None:
                continue
            name, out = cls
            if name == "digits":
                n = 10.0 ** out
                pi_t = 1.0 / n
            else:
                n = len(out)
                pi_t = 1.0 / n if t.lower() in {o.lower() for o in out} else 0.0
            e = INF if pi_t == 0 else math.log((1 - p + p * pi_t) / (p * pi_t))
            if e > worst:
                worst, why = e, [f"'{t}' ({name}, {int(n) if n < 1e6 else f'10^{out}'} choices)"]
        if math.isinf(worst):
            return EpsilonReport(INF, f"p<1 and {why[0]} is never drawn (pi=0), e.g. 'oh' for zero")
        return EpsilonReport(worst, f"eq.2 with uniform pi per class, worst {why[0] if why else '-'}; length of "
                                    "digit strings and the class of each word treated as public")
