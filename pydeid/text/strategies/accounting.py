"""The DP accounting shared by the operators: seed 000's eq. (2) for a constant output, for a one-value category
pool, and for the generated values of numbers and identifiers."""

from __future__ import annotations

import math

from ..dp import INF, EpsilonReport, epsilon_eq2
from ..wordforms import number_class, spelled_letters
from .helpers import KEEP_IN_NUMBERS, flat, lowered

TYPE_PUBLIC = "type treated as public (a token is replaced by one of its own type)"


def constant_eps(p: float, observed: set, emitted, what: str, seed000: float | None = None) -> EpsilonReport:
    """seed000: the value seed 000's text gives the strategy (redact, typed placeholder: 0) where the strict
    eq. (2) differs (inf at p < 1)."""
    if p == 1.0:
        return EpsilonReport(0.0, f"p=1: every private token becomes {what}; {TYPE_PUBLIC}")
    e = epsilon_eq2(p, {emitted: 1.0}, observed)
    if math.isinf(e):
        note = (f"strict eq. 2, p<1: pi(t)=0 for the original tokens ({what} never reproduces them), so a "
                "surviving original is recognisable with certainty")
        if seed000 is not None:
            note += (f"; seed 000 sec. 3 gives {seed000:g} (a replaced token reveals nothing of its original, "
                     "'case (4)')")
        return EpsilonReport(INF, note, seed000)
    return EpsilonReport(e, f"every private token equals the exemplar: eq.2 gives log(1/p); {TYPE_PUBLIC}")


def one_value_pool_eps(p: float, pi: dict, observed, typ: str) -> EpsilonReport | None:
    """A sensitive-category type whose corpus pool holds one value v (compared case-insensitively) is not drawn
    from independently of the original: the category fallback (category_fallback) gives the original v a
    generated same-category value, never v, while any other original gets v. By the reasoning of seed 000's lemma
    (eq. 3-5: the probability that a private token appears in the output under two datasets differing in that
    token), P(v out | v) = 1 - p (kept) against P(v out | other) = p: randomized response over two values,
        epsilon_v = |log((1 - p) / p)|,
    infinite at p = 1 (v in the output rules its own original out) and 0 at p = 1/2. A private unit other than v
    is never emitted (pi = 0): infinite at p < 1, nothing at p = 1, as eq. (2) has it. None: not a one-value pool."""
    keys = {lowered(k) for k, v in pi.items() if v > 0}
    if len(keys) != 1:
        return None
    (v,) = keys
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    shown = v if isinstance(v, str) else " ".join(v)
    own = INF if p in (0.0, 1.0) else abs(math.log((1.0 - p) / p))
    others = sorted({lowered(t) for t in observed} - {v}, key=str)
    if others and p < 1.0:
        return EpsilonReport(INF, f"one-value {typ} pool ('{shown}', the category fallback gives it a generated "
                                  f"value) and {len(others)} private unit(s) it never emits: p<1, infinite")
    if p == 1.0:
        note = (f"p=1, one-value {typ} pool ('{shown}'): the category fallback gives that original a generated "
                "value and every other original the pool value, so the pool value in the output rules its own "
                "original out: infinite (randomized response over two values, |log((1-p)/p)|)")
    else:
        note = (f"one-value {typ} pool ('{shown}'): the category fallback gives that original a generated value, "
                f"so it appears in the output with 1-p when it was the original and p otherwise: |log((1-p)/p)|")
    return EpsilonReport(own, note)


def generated_eps(typ: str, p: float, observed) -> EpsilonReport:
    """Epsilon of the operator numbers, identifiers, e-mails and amounts actually get (generated_value), by the
    reasoning of seed 000's lemma (eq. 3-5: the ratio of the probabilities that a token appears in the output under
    two datasets differing in that token). A number word or digit string of a class of n values (digit strings:
    10^digits) is redrawn uniformly among the n - 1 other values: randomized response, so
        P(out = t | t) = 1 - p,   P(out = t | t'') = p / (n - 1)   ->   epsilon_t = |log((1 - p)(n - 1) / p)|.
    At p = 1 an output value rules its own original out (P(out = t | t) = 0), so the strict bound is infinite
    (though the output reveals only log(n / (n - 1)) of the value). Letters spelled one by one ("k o w", "K-O-W")
    are a class of 26 per letter, the same way (a single letter is taken as spelled: the observed units carry no
    neighbours). An e-mail address or a word outside the number
    classes gets a value independent of it that never reproduces it: 0 at p = 1, infinite at p < 1. Structure
    words ("area code", "double", "dot") are kept as public structure; the class of a word and the length of a
    digit string are treated as public, like the entity type. A category generator (seed 004 A.1) is not
    analysed: no value is claimed."""
    from ..categories.surrogates import LEXICON_POOLS, _GENERATORS
    if typ in LEXICON_POOLS or typ in _GENERATORS:
        return EpsilonReport(None, f"{typ} values come from a category generator (seed 004 A.1) that this "
                                   "accounting does not analyse: no finite value is claimed")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    worst, why = 0.0, "no private number token"
    for t in sorted(flat(observed)):
        if t.lower() in KEEP_IN_NUMBERS or not any(c.isalnum() for c in t):
            continue
        cls = number_class(t) if "@" not in t else None
        if cls is None and spelled_letters(t):      # "k", "K-O-W": each letter redrawn among the 25 others
            cls = ("letters", spelled_letters(t))
        if cls is None:    # e-mail or another word: an independent generated value that never equals it
            e, w = (0.0 if p == 1.0 else INF), f"'{t}' (independent generated value, never itself)"
        else:
            name, out = cls
            n = 10.0 ** out if name == "digits" else 26.0 ** out if name == "letters" else float(len(out))
            own = name in ("digits", "letters") or t.lower() in {o.lower() for o in out}
            if p == 0.0 or p == 1.0 or n <= 1 or not own:
                e = INF
            else:
                e = abs(math.log((1.0 - p) * (n - 1.0) / p))
            base = 26 if name == "letters" else 10
            w = f"'{t}' ({name}, {int(n) if n < 1e6 else f'{base}^{out}'} values)"
        if e > worst or why == "no private number token":
            worst, why = e, w
    if p == 1.0 and math.isinf(worst):
        note = (f"p=1: generated values never equal their original, so an output rules its own original out: the "
                f"strict bound is infinite (e.g. {why}); randomized response over each class")
    elif math.isinf(worst):
        note = f"p<1: {why} is never drawn for itself or survives recognisably: infinite"
    else:
        note = (f"randomized response over each class (redraw among the n-1 other values): |log((1-p)(n-1)/p)|, "
                f"worst {why}; class and digit-string length public")
    return EpsilonReport(worst, note)
