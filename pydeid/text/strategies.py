"""Replacement strategies (seeds 000, 001, 002, 004) and the replacement policy each one implies for DP accounting.

Every strategy replaces a *unit*: a word (word-by-word strategies) or a whole entity (entity strategies). The
driver (transform.py) tosses the coin of seed 000's algorithm per unit: with probability p the unit is replaced by
`replace(...)`, otherwise kept. `epsilon(...)` returns eq. (2) for the policy pi the strategy really uses.

Names (use them in --strategy TYPE=NAME):
  keep                 no replacement (the type is not treated as private)
  redact               one non-word IIIII per entity (seed 000)
  typed_placeholder    the type label per entity: PER, LOC ... (value-class membership, seeds 000/001)
  placeholder          PLACEHOLDER for every word (seed 004 table 8 row 2)
  placeholder_entity   one PLACEHOLDER per multi-word entity (seed 004 table 8 row 3)
  named_placeholder    one exemplar per type for every entity ("London" for every LOC, seed 000)
  same_type            word by word, a word of the same type drawn with its corpus frequency (value dissociation,
                       seeds 000/001/004)
  faker                a faker surrogate of the same type per entity (value distortion from an external source)
  single_same_type     a multi-word entity becomes one same-type word (seed 004 table 8 row 5)
  full_entity          a whole entity becomes a whole same-type entity of the corpus (seed 000 full entity,
                       seed 004 multi-word -> multi-word)
  pseudonymize         consistent per dialogue, word by word (Donald->Roger, Trump->Smith, seed 004 §3.3.2;
                       numbers as whole spans of random same-length digits, seed 002); the map is a secret
  surrogate            the default everywhere: values from outside the corpus (generate.py: faker names of several
                       English locales, gazetteer places, faker companies, generated digits, letters, e-mails and
                       amounts, category phrases), never a value word that is an entity word anywhere in the input
                       corpus; consistent within a dialogue; spelled letters and spoken addresses keep their shape
  corpus_same_type     the seed's corpus-frequency replacement (the default before): generated numbers, and for
                       other types a word of the same type drawn with its corpus frequency; it moves real values
                       between utterances (a warning says so)
  random_digits        every digit (spoken digit word or written digit) becomes a random digit of the same length;
                       teens/tens/ordinals/months/weekdays a random member of their class (seed 002)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .dp import INF, EpsilonReport, epsilon_eq2
from .lexicon import DIGIT_CLASS, TEEN_CLASS, WEEKDAYS, identifying
from .pools import GENERATED_TYPES, Pools
from .wordforms import (_ORDINAL_CLASS, match_case, number_class, other_letter, random_same_class,  # noqa: F401 (re-exported)
                        spelled_letters, text_case)

REDACT_TOKEN = "IIIII"
PLACEHOLDER_TOKEN = "PLACEHOLDER"
DEFAULT_EXEMPLARS = {"PER": "Smith", "ORG": "SAP", "LOC": "London", "DATE": "Monday", "TIME": "afternoon",
                     "NUM": "five"}

_TYPE_PUBLIC = "type treated as public (a token is replaced by one of its own type)"


def _clean_tokens(value: str) -> list[str]:
    toks = []
    for t in value.replace("-", " ").split():
        t = t.strip(".,;:!?()\"'")
        if t:
            toks.append(t)
    return toks or ["x"]


@dataclass
class Context:
    rng: np.random.Generator
    pools: Pools
    seed: int = 0
    dialogue: str = ""
    exemplars: dict = field(default_factory=lambda: dict(DEFAULT_EXEMPLARS))
    avoid_original: bool = False
    pseudonym_map: dict = field(default_factory=dict)   # dialogue -> type -> original -> surrogate (or None: kept)
    faker_locale: str = "en_US"
    lower: bool = False          # the current sentence is lower-case (ASR-style): surrogates are lower-cased too
    upper: bool = False          # ... in capitals (LibriSpeech-style): surrogates are upper-cased too
    entity_words: frozenset = frozenset()   # lower-cased entity words of the current sentence (surrogate avoids them)
    dialogue_words: frozenset = frozenset()  # identifying entity words of the dialogue (pseudonymize avoids them)
    span: Sequence[str] = ()     # the entity being replaced, and the position of the word unit being replaced in it
    span_index: int | None = None
    corpus_words: frozenset = frozenset()   # value words of every entity of the input corpus (generate.words_of)
    _faker: object = None
    _generator: object = None

    def value_generator(self):
        """The generator of outside-the-corpus values (generate.ValueGenerator), excluding `corpus_words`."""
        if self._generator is None:
            from .generate import ValueGenerator
            self._generator = ValueGenerator(self.rng, self.corpus_words)
        return self._generator

    def case(self, repl: Sequence[str]) -> list[str]:
        if self.lower:
            return [r.lower() for r in repl]
        return [r.upper() for r in repl] if self.upper else list(repl)

    def faker(self):
        if self._faker is None:
            from faker import Faker
            f = Faker(self.faker_locale)
            f.seed_instance(int(self.rng.integers(2 ** 31)))
            self._faker = f
        return self._faker


class Strategy:
    name = ""
    unit = "entity"          # "word" or "entity": what one coin toss replaces
    handles_coin = False     # the strategy applies p itself (consistent maps)
    keeps_types = False

    def replace(self, toks: Sequence[str], typ: str, ctx: Context) -> list[str]:
        raise NotImplementedError

    def epsilon(self, typ: str, p: float, observed: set, ctx: Context) -> EpsilonReport:
        raise NotImplementedError


def _constant_eps(p: float, observed: set, emitted, what: str, seed000: float | None = None) -> EpsilonReport:
    """seed000: the value seed 000's text gives the strategy (redact, typed placeholder: 0) where the strict
    eq. (2) differs (inf at p < 1)."""
    if p == 1.0:
        return EpsilonReport(0.0, f"p=1: every private token becomes {what}; {_TYPE_PUBLIC}")
    e = epsilon_eq2(p, {emitted: 1.0}, observed)
    if math.isinf(e):
        note = (f"strict eq. 2, p<1: pi(t)=0 for the original tokens ({what} never reproduces them), so a "
                "surviving original is recognisable with certainty")
        if seed000 is not None:
            note += (f"; seed 000 sec. 3 gives {seed000:g} (a replaced token reveals nothing of its original, "
                     "'case (4)')")
        return EpsilonReport(INF, note, seed000)
    return EpsilonReport(e, f"every private token equals the exemplar: eq.2 gives log(1/p); {_TYPE_PUBLIC}")


class Keep(Strategy):
    name = "keep"
    keeps_types = True

    def replace(self, toks, typ, ctx):
        return list(toks)

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(INF, "kept: this type is not protected")


class Redact(Strategy):
    name = "redact"

    def replace(self, toks, typ, ctx):
        return [REDACT_TOKEN]

    def epsilon(self, typ, p, observed, ctx):
        return _constant_eps(p, observed, (REDACT_TOKEN,), REDACT_TOKEN, seed000=0.0)


class TypedPlaceholder(Strategy):
    name = "typed_placeholder"

    def replace(self, toks, typ, ctx):
        return [typ]

    def epsilon(self, typ, p, observed, ctx):
        return _constant_eps(p, observed, (typ,), f"the label {typ}", seed000=0.0)


class Placeholder(Strategy):
    name = "placeholder"
    unit = "word"

    def replace(self, toks, typ, ctx):
        return [PLACEHOLDER_TOKEN for _ in toks]

    def epsilon(self, typ, p, observed, ctx):
        return _constant_eps(p, observed, PLACEHOLDER_TOKEN, PLACEHOLDER_TOKEN, seed000=0.0)


class PlaceholderEntity(Strategy):
    name = "placeholder_entity"

    def replace(self, toks, typ, ctx):
        return [PLACEHOLDER_TOKEN]

    def epsilon(self, typ, p, observed, ctx):
        return _constant_eps(p, observed, (PLACEHOLDER_TOKEN,), PLACEHOLDER_TOKEN, seed000=0.0)


class NamedPlaceholder(Strategy):
    name = "named_placeholder"

    def _exemplar(self, typ, ctx) -> tuple:
        return tuple(ctx.exemplars.get(typ, typ).split())

    def replace(self, toks, typ, ctx):
        ex = self._exemplar(typ, ctx)
        if ctx.avoid_original and not _clear(ex, avoided(toks, ctx)):
            return [typ]      # the exemplar is a word of this sentence's entities ("Smith" for Misses Smith)
        return _not_original(toks, ctx.case(ex), typ, ctx)

    def epsilon(self, typ, p, observed, ctx):
        if ctx.avoid_original:
            return EpsilonReport(None, "avoid-original: an entity whose words include the exemplar gets the type "
                                       "label instead, so pi(t|t') depends on t' (the label reveals it), outside "
                                       "the lemma")
        ex = self._exemplar(typ, ctx)
        return _constant_eps(p, {tuple(t.lower() for t in o) for o in observed}, tuple(t.lower() for t in ex),
                             f"the exemplar '{' '.join(ex)}'")


class _Sampling(Strategy):
    """Draws from an independent distribution pi; `avoid_original` redraws a value equal to the original, which
    makes pi depend on t' and takes the policy outside the lemma."""

    def _eps(self, p, pi, observed, ctx, what, typ: str = "") -> EpsilonReport:
        if ctx.avoid_original:
            return EpsilonReport(None, "avoid-original redraws a surrogate equal to the original: pi(t|t') depends "
                                       "on t' (and an original never appears as a surrogate), outside the lemma")
        from .categories.surrogates import is_category
        if is_category(typ):
            one = _one_value_pool_eps(p, pi, observed, typ)
            if one is not None:
                return one
        e = epsilon_eq2(p, pi, observed)
        if p == 1.0:
            note = f"p=1; {what}; {_TYPE_PUBLIC}"
        elif math.isinf(e):
            missing = [t for t in observed if pi.get(t, 0.0) == 0.0]
            note = (f"p<1 and {len(missing)} private unit(s) have pi(t)=0 under {what} (e.g. "
                    f"{'a multi-word entity' if missing and isinstance(missing[0], tuple) and len(missing[0]) > 1 else 'an unseen token'})")
        else:
            pmin = min(v for v in (pi.get(t, 0.0) for t in set(observed) | set(pi)) if v > 0)
            note = f"eq.2 with min pi(t) = {pmin:.4g} over {len(set(observed) | set(pi))} private units; {what}; " \
                   f"{_TYPE_PUBLIC}"
        return EpsilonReport(e, note)

    def _draw(self, sampler, unit, toks, ctx):
        """A pool item for the unit `unit` (a word, or a tuple of words) of the span `toks`. The independent policy
        (seed 000's lemma) draws with the pool's frequencies, the original included. Avoid-original draws among the
        items that are not the unit and share no identifying word with any entity of the sentence ("ten forty"
        never becomes "ten ten" or "forty five"); None when the pool has no such item (the caller falls back to a
        generated value, never to a plain draw that may give the original back)."""
        if not ctx.avoid_original:
            return sampler.draw(ctx.rng)
        avoid, low = avoided(toks, ctx), _lower(unit)
        return sampler.draw_where(ctx.rng, lambda x: _lower(x) != low and _clear(x, avoid))


def _lower(x):
    return x.lower() if isinstance(x, str) else tuple(t.lower() for t in x)


def avoided(toks: Sequence[str], ctx: "Context") -> set[str]:
    """The words an avoid-original surrogate must not contain: the identifying words (lexicon.identifying, lower-
    cased) of its original span and of every other entity of the sentence, so no original word comes back, in its
    place or moved to another entity ("Bob met Alice" never becomes "Alice met Bob")."""
    return identifying(toks) | identifying(ctx.entity_words)


def _clear(value, avoid: set) -> bool:
    """`value` (a word or a sequence of words) has no identifying word in `avoid`."""
    return not (identifying((value,) if isinstance(value, str) else value) & avoid)


def fallback_word(t: str, typ: str, ctx: "Context", avoid: set) -> list[str]:
    """One word for `t` when the pool has nothing left that avoids the originals: a faker word of the type (a
    same-category phrase for a category type), else the type's label; never an original word."""
    return _fallback([t], typ, ctx, avoid, 1)


def fallback_entity(toks: Sequence[str], typ: str, ctx: "Context", avoid: set) -> list[str]:
    """fallback_word for a whole span: a faker value of the type with as many words where faker gives them."""
    return _fallback(toks, typ, ctx, avoid, len(toks))


def _fallback(toks, typ, ctx, avoid, n_words) -> list[str]:
    from .categories.surrogates import category_value, is_category
    low = [t.lower() for t in toks]
    if is_category(typ):
        got = category_value(toks, typ, ctx)
        if got and _clear(got, avoid) and [g.lower() for g in got] != low:
            return got
        return [typ]
    f = ctx.faker()
    for _ in range(32):
        val = faker_value(typ, n_words, f) if typ in _FAKER_TYPES else [f.word() for _ in range(n_words)]
        if n_words == 1:
            val = [w for w in val if identifying([w])][:1] or val[:1]
        if _clear(val, avoid) and [v.lower() for v in val] != low:
            return ctx.case(val)
    return [typ]


def _one_value_pool_eps(p: float, pi: dict, observed, typ: str) -> EpsilonReport | None:
    """A sensitive-category type whose corpus pool holds one value v (compared case-insensitively) is not drawn
    from independently of the original: the category fallback (_category_fallback) gives the original v a
    generated same-category value, never v, while any other original gets v. By the reasoning of seed 000's lemma
    (eq. 3-5: the probability that a private token appears in the output under two datasets differing in that
    token), P(v out | v) = 1 - p (kept) against P(v out | other) = p: randomized response over two values,
        epsilon_v = |log((1 - p) / p)|,
    infinite at p = 1 (v in the output rules its own original out) and 0 at p = 1/2. A private unit other than v
    is never emitted (pi = 0): infinite at p < 1, nothing at p = 1, as eq. (2) has it. None: not a one-value pool."""
    keys = {_lower(k) for k, v in pi.items() if v > 0}
    if len(keys) != 1:
        return None
    (v,) = keys
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    shown = v if isinstance(v, str) else " ".join(v)
    own = INF if p in (0.0, 1.0) else abs(math.log((1.0 - p) / p))
    others = sorted({_lower(t) for t in observed} - {v}, key=str)
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


def _category_fallback(sampler, originals, toks, typ, ctx) -> list[str] | None:
    """A sensitive-category span (HEALTH, BELIEF ...) whose corpus pool holds nothing but its original(s) gets a
    generated same-category value instead of the original back (None: not that case)."""
    from .categories.surrogates import category_value, is_category, no_original_left
    if is_category(typ) and no_original_left(sampler, originals):
        return category_value(toks, typ, ctx)
    return None


def _not_original(toks, out, typ, ctx) -> list[str]:
    """A category span's output that equals its original (case-insensitively) becomes a generated same-category
    value (a faker word or an exemplar that happens to be the original)."""
    from .categories.surrogates import category_value, is_category, keeps_original
    return category_value(toks, typ, ctx) if is_category(typ) and keeps_original(toks, out) else out


_KEEP_IN_NUMBERS = {"area", "code", "double", "triple", "and", "point", "dot", "at", "extension", "ext", "number",
                    "-", "(", ")", ",", ".", ":", "/", "+", "#"}


def generated_value(toks: Sequence[str], ctx: "Context", typ: str | None = None) -> list[str]:
    """A generated surrogate for a number, identifier, e-mail or amount span: each number word or digit string is
    redrawn within its class and never equals the original (so a phone number never travels to another utterance);
    an e-mail address becomes a generated one; structure words ("area code", "double", "dot") are kept; any other
    word becomes a random digit word. A category type (seed 004 A.1: ADDRESS, CREDENTIAL, IP ...) gets its own
    generator (categories/surrogates.py). Letters spelled one by one become other letters."""
    if typ is not None:
        from .categories.surrogates import category_value
        got = category_value(toks, typ, ctx)
        if got is not None:
            return got
    from .grammars import spelled_spans
    # letters spelled one by one ("k o w a l s k i", not the "a" of "a hundred"), seen in the whole entity when a
    # word unit of it is replaced alone
    whole, at = (ctx.span, ctx.span_index) if len(toks) == 1 and ctx.span_index is not None else (toks, 0)
    spelled = {i - at for a, b in spelled_spans(whole) for i in range(a, b)}
    out = []
    for i, t in enumerate(toks):
        if i in spelled:
            out.append("-".join(other_letter(p, ctx.rng) for p in t.split("-")))
        elif t.lower() in _KEEP_IN_NUMBERS:
            out.append(t)
        elif "@" in t and "." in t.split("@")[-1]:
            n = "".join(str(int(ctx.rng.integers(10))) for _ in range(4))
            out.append(f"user{n}@example.com")
        else:
            new = random_same_class(t, ctx.rng, avoid=True)
            out.append(new if new is not None else DIGIT_CLASS[int(ctx.rng.integers(10))])
    return ctx.case(out)


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
    from .categories.surrogates import LEXICON_POOLS, _GENERATORS
    if typ in LEXICON_POOLS or typ in _GENERATORS:
        return EpsilonReport(None, f"{typ} values come from a category generator (seed 004 A.1) that this "
                                   "accounting does not analyse: no finite value is claimed")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    worst, why = 0.0, "no private number token"
    for t in sorted(_flat(observed)):
        if t.lower() in _KEEP_IN_NUMBERS or not any(c.isalnum() for c in t):
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


class SameType(_Sampling):
    name = "same_type"
    unit = "word"

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("word", typ)
        out = []
        for t in toks:
            got = _category_fallback(s, [t], [t], typ, ctx)
            if got is None:
                w = self._draw(s, t, [t], ctx)
                got = ctx.case([w]) if w is not None else fallback_word(t, typ, ctx, avoided([t], ctx))
            out.extend(got)
        return out

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        return self._eps(p, ctx.pools.sampler("word", typ).as_dict(), observed, ctx,
                         "pi = corpus frequency of the type's words", typ)


class SingleSameType(_Sampling):
    name = "single_same_type"

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("word", typ)
        fallback = _category_fallback(s, toks, toks, typ, ctx)
        if fallback:
            return fallback
        w = self._draw(s, toks[0] if len(toks) == 1 else tuple(toks), toks, ctx)
        return ctx.case([w]) if w is not None else fallback_word(" ".join(toks), typ, ctx, avoided(toks, ctx))

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        pi = {(w,): v for w, v in ctx.pools.sampler("word", typ).as_dict().items()}
        return self._eps(p, pi, observed, ctx, "pi = corpus frequency of single words of the type", typ)


class FullEntity(_Sampling):
    name = "full_entity"

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("entity", typ)
        got = _category_fallback(s, [tuple(toks)], toks, typ, ctx)
        if got:
            return got
        e = self._draw(s, tuple(toks), toks, ctx)
        return ctx.case(list(e)) if e is not None else fallback_entity(toks, typ, ctx, avoided(toks, ctx))

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        return self._eps(p, ctx.pools.sampler("entity", typ).as_dict(), observed, ctx,
                         "pi = corpus frequency of whole entities of the type", typ)


# ---------------------------------------------------------------------------------------------- numbers
# words of a spoken number that random_digits keeps as structure ("area code", "double four", "two point five")
NUMBER_STRUCTURE = frozenset({"area", "code", "double", "triple", "and", "point", "hundred", "thousand", "million",
                              "extension", "dash", "hash", "star", "plus"})


def _flat(observed) -> set:
    """Tokens of a set of units (words, or tuples of words for entity strategies)."""
    out = set()
    for t in observed:
        out.update(t if isinstance(t, tuple) else (t,))
    return out


class RandomDigits(Strategy):
    name = "random_digits"
    unit = "word"

    def unit_for(self, typ: str) -> str:
        from .categories.surrogates import ENTITY_UNIT
        return "entity" if typ in ENTITY_UNIT else self.unit

    def replace(self, toks, typ, ctx):
        from .categories.surrogates import category_value
        got = category_value(toks, typ, ctx)   # a category (HEALTH, CREDENTIAL ...) is never kept word by word
        if got is not None:
            return got
        out = []
        for t in toks:
            new = random_same_class(t, ctx.rng, ctx.avoid_original)
            out.append(t if new is None else new)   # structure words ("area", "code", "double") are kept
        return out

    def epsilon(self, typ, p, observed, ctx):
        observed = _flat(observed)
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
        for t in observed:
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


# ---------------------------------------------------------------------------------------------- faker
def _spoken_time(f) -> list[str]:
    h = DIGIT_CLASS[1:] + TEEN_CLASS[:3]
    r = f.random_int(0, 2)
    hour = h[f.random_int(0, len(h) - 1)]
    if r == 0:
        return [hour, f.random_element(["am", "pm"])]
    if r == 1:
        return [f.random_element(["half", "quarter"]), "past", hour]
    return [hour, "o'clock"]


def _spoken_date(f) -> list[str]:
    r = f.random_int(0, 2)
    if r == 0:
        return [f.day_of_week()]
    if r == 1:
        return [f.month_name(), "the", _ORDINAL_CLASS[f.random_int(0, len(_ORDINAL_CLASS) - 1)]]
    return [f.day_of_week(), "the", _ORDINAL_CLASS[f.random_int(0, len(_ORDINAL_CLASS) - 1)]]


_FAKER_TYPES = ("PER", "LOC", "ORG", "DATE", "TIME")


def faker_value(typ: str, n_words: int, f) -> list[str]:
    if typ == "PER":
        return [f.last_name()] if n_words == 1 else [f.first_name(), f.last_name()]
    if typ == "LOC":
        return _clean_tokens(f.city())
    if typ == "ORG":
        return _clean_tokens(f.company())
    if typ == "DATE":
        return _spoken_date(f)
    if typ == "TIME":
        return _spoken_time(f)
    from .categories.surrogates import LEXICON_POOLS
    if typ in LEXICON_POOLS:       # a sensitive category (HEALTH, BELIEF ...): a phrase of its public lexicon
        return f.random_element(LEXICON_POOLS[typ]).split()
    return _clean_tokens(f.word())


class FakerSurrogate(_Sampling):
    name = "faker"
    n_estimate = 4000

    def replace(self, toks, typ, ctx):
        f = ctx.faker()
        # faker has no spelled-number generator: numbers (and number-only spans of types it does not know) are
        # redrawn by class. A name, place, company, date or time always gets a faker value, whatever its words
        # (a person called "April" must not fall back to a month redraw that may return "April")
        if typ == "NUM" or (typ not in _FAKER_TYPES and all(number_class(t) for t in toks)):
            return RandomDigits().replace(toks, typ, ctx)
        avoid = avoided(toks, ctx) if ctx.avoid_original else None
        for _ in range(32):
            val = ctx.case(faker_value(typ, len(toks), f))
            if avoid is None or ([v.lower() for v in val] != [t.lower() for t in toks] and _clear(val, avoid)):
                break
        else:
            val = [typ]     # faker keeps giving a word of the sentence's entities ("eleven thirty" -> "eleven pm")
        return _not_original(toks, val, typ, ctx)

    def epsilon(self, typ, p, observed, ctx):
        if typ == "NUM":  # replaced by class redraws (see replace); units are whole entities (tuples)
            return RandomDigits().epsilon(typ, p, _flat(observed), ctx)
        if p == 1.0 and not ctx.avoid_original:
            return EpsilonReport(0.0, f"p=1; faker surrogates; {_TYPE_PUBLIC}")
        from collections import Counter

        from faker import Faker
        f = Faker(ctx.faker_locale)
        f.seed_instance(12345)
        sizes = sorted({len(o) for o in observed}) or [1]
        c = Counter(tuple(faker_value(typ, sizes[i % len(sizes)], f)) for i in range(self.n_estimate))
        pi = {k: v / self.n_estimate for k, v in c.items()}
        r = self._eps(p, pi, observed, ctx, f"pi estimated from {self.n_estimate} faker draws")
        return EpsilonReport(r.epsilon, "estimate: " + r.note)


# ---------------------------------------------------------------------------------------------- default
# closed classes of date and time words a surrogate redraws within ("the middle of August" -> "the end of June")
_DATE_CLASSES = (frozenset({"today", "tomorrow", "yesterday", "tonight"}), frozenset({"noon", "midnight", "midday"}),
                 frozenset({"beginning", "middle", "end", "start"}), frozenset({"early", "late", "mid"}))


class Surrogate(Strategy):
    """The default strategy: every entity gets a value from outside the corpus (generate.py): a faker name of
    several English locales for each word of a person's name (a first name for a first name, else a surname), a
    gazetteer or faker place, a faker company, a date or time word redrawn within its class, generated digits,
    letters, e-mails and amounts, a category phrase of the same category. No surrogate holds a value word
    (generate.is_value_word) that is an entity word anywhere in the input corpus (any type, case-insensitive), so
    nothing real is copied between utterances. Within a dialogue the same original gets the same surrogate (the
    map is a secret); letters spelled one by one become random letters of the same count, a spoken e-mail or web
    address a generated one of the same shape."""

    name = "surrogate"

    def unit_for(self, typ: str) -> str:
        return "entity"

    def _map(self, ctx, typ) -> dict:
        return ctx.pseudonym_map.setdefault(ctx.dialogue, {}).setdefault(typ, {})

    def replace(self, toks, typ, ctx):
        gen = ctx.value_generator()
        m = self._map(ctx, typ)
        key = " ".join(t.lower() for t in toks)
        if typ != "PER" and key in m and not (identifying(m[key].split()) & identifying(ctx.entity_words)):
            return ctx.case(m[key].split())     # unless it holds a word of another entity of this sentence
        from .generate import words_of
        avoid = words_of(toks) | words_of(ctx.entity_words) | \
            {w for v in m.values() for w in words_of(v.split())}     # distinct originals, distinct surrogates
        out = self._make(list(toks), typ, ctx, gen, avoid, m)
        if typ != "PER":
            m[key] = " ".join(out)
        return ctx.case(out)

    def _make(self, toks, typ, ctx, gen, avoid, m) -> list[str]:
        from .categories.surrogates import LEXICON_POOLS, category_value
        from .generate import is_spoken_address, words_of
        from .grammars import spelled_spans
        spelled = {i for a, b in spelled_spans(toks, min_letters=1) for i in range(a, b)}
        if spelled and all(i in spelled or number_class(t) for i, t in enumerate(toks)):
            return gen.letters(toks)             # "K two W A L S K I": letters and digits of the same count
        if is_spoken_address(toks):
            return gen.spoken_address(toks, avoid)
        if typ in LEXICON_POOLS or typ not in GENERATED_TYPES and category_value(toks, typ, ctx) is not None:
            # a small closed lexicon (MARITAL, SEXUAL) may hold no value outside the corpus: another member, then
            return gen.draw(lambda: category_value(toks, typ, ctx), avoid, tries=32) or category_value(toks, typ, ctx)
        if typ in GENERATED_TYPES:
            out = None
            for _ in range(16):      # digit strings of 3+ digits must not be numbers of the corpus either
                out = generated_value(toks, ctx, typ)
                if not ((words_of(out) & gen.excluded) - words_of(toks)) and not (words_of(out) & avoid):
                    break
            return out
        if typ == "PER":
            return self._person(toks, ctx, gen, avoid, m, spelled)
        if typ in ("LOC", "GPE", "FAC"):
            return gen.draw(gen.place, avoid) or [typ]
        if typ == "ORG":
            return gen.draw(gen.company, avoid) or [typ]
        return self._words(toks, typ, ctx, gen, avoid, spelled)

    def _person(self, toks, ctx, gen, avoid, m, spelled) -> list[str]:
        """Word by word, each word through the dialogue's map ("Anna Kowalski", later "Kowalski": one surname)."""
        from .generate import word_forms
        out = []
        for i, t in enumerate(toks):
            forms = word_forms(t)
            if i in spelled:
                out.extend(gen.letters([t]))
            elif not forms or not identifying([t]):
                out.append(t)                    # "Mr", "the", punctuation: structure, kept ("May" is a name here)
            elif forms[0] in m:
                out.append(m[forms[0]])
            else:
                used = {v.lower() for v in m.values()}
                w = gen.draw(lambda: [gen.name_word(t)], avoid | used)
                m[forms[0]] = w[0] if w else "PER"
                out.append(m[forms[0]])
        return out

    def _words(self, toks, typ, ctx, gen, avoid, spelled) -> list[str]:
        """Dates, times and other types word by word: a number, month or weekday word redrawn within its class, a
        relative day among the others, structure kept, any other word a weekday (DATE, TIME) or a faker word."""
        from .generate import closed_words, is_value_word, word_forms
        from .lexicon import CLOCK_WORDS, DAYPARTS
        out = []
        for i, t in enumerate(toks):
            low = t.lower()
            forms = word_forms(t)
            if i in spelled:
                out.extend(gen.letters([t]))
            elif number_class(t):       # "three oh five" never "eight five oh" beside "six thirty five"
                for _ in range(16):
                    new = random_same_class(t, ctx.rng, avoid=True)
                    if new.lower() not in ctx.entity_words:
                        break
                out.append(new)
            elif any(low in c for c in _DATE_CLASSES) or low in DAYPARTS and typ == "TIME":
                cls = next((c for c in _DATE_CLASSES if low in c), CLOCK_WORDS | DAYPARTS)
                others = sorted(cls - {low} - ctx.entity_words)
                out.append(match_case([t], [others[int(ctx.rng.integers(len(others)))]])[0] if others else t)
            elif not forms or low in closed_words() or not is_value_word(forms[0]):
                out.append(t)
            elif typ in ("DATE", "TIME"):     # a holiday or another named day: a weekday of no entity here
                days = [d for d in WEEKDAYS if d != low and d not in ctx.entity_words] or WEEKDAYS
                out.append(match_case([t], [days[int(ctx.rng.integers(len(days)))].capitalize()])[0])
            else:
                w = gen.draw(lambda: [gen.faker().word()], avoid)
                out.append(w[0] if w else typ)
        return out

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        if p == 1.0:
            return EpsilonReport(INF, "p=1: generated values from outside the corpus, never an entity word of it: "
                                      "an output rules out that it was any original, so the strict eq. 2 bound is "
                                      "infinite, though the output carries no value of the corpus")
        return EpsilonReport(INF, "p<1: a kept original is recognisable (it is a corpus entity word, which no "
                                  "surrogate ever is): infinite")


# ---------------------------------------------------------------------------------------------- corpus
# ---------------------------------------------------------------------------------------------- default
class CorpusSameType(_Sampling):
    """The seed's corpus-frequency replacement (the default before values came from outside the corpus): generated
    values for numbers, identifiers, e-mails and amounts; a same-type pool word (pools hold only spans of that
    type) for names, places, organisations, dates and times; never the original, compared case-insensitively (a
    pool with no other word falls back to a faker value of the type). It moves real values between utterances:
    selecting it logs a warning."""

    name = "corpus_same_type"
    unit = "word"

    def unit_for(self, typ: str) -> str:
        """Category spans are replaced whole ("high blood pressure" by a phrase of the same category)."""
        from .categories.surrogates import ENTITY_UNIT
        return "entity" if typ in ENTITY_UNIT else self.unit

    def replace(self, toks, typ, ctx):
        from .categories.surrogates import LEXICON_POOLS, category_value
        if typ in LEXICON_POOLS:
            return category_value(toks, typ, ctx)
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        from .pools import PoolError
        try:
            s = ctx.pools.sampler("word", typ)
        except PoolError:
            s = None
        out = []
        for t in toks:
            avoid = {t.lower()} | ctx.entity_words    # no original entity word of this sentence, at any position
            w = s.draw_excluding(ctx.rng, avoid, key=_lower) if s is not None else None
            if w is None:
                f = ctx.faker()
                for _ in range(32):
                    w = faker_value(typ, 1, f)[0] if typ in _FAKER_TYPES else f.word()
                    if w.lower() not in avoid:
                        break
                else:
                    w = typ     # the type's label: never an original word, nor one spelled from it
            out.append(w)
        return ctx.case(out)

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(None, "surrogate never equals its original: pi(t|t') depends on t', outside the lemma "
                                   "(numbers, identifiers, e-mails, amounts: generated)")


# ---------------------------------------------------------------------------------------------- consistent
class Pseudonymize(Strategy):
    """Consistent, word-by-word surrogates within a dialogue; whole number spans map to random same-length digits.

    The coin p is tossed once per (dialogue, original) mapping, so a word is either always or never replaced within
    its dialogue. A surrogate never equals its original and distinct originals get distinct surrogates within a
    dialogue and type when the pool allows (injective map). Maps are secrets written by the driver.
    """

    name = "pseudonymize"
    handles_coin = True

    def __init__(self, p: float = 1.0, source: str = "faker"):
        self.p = p
        self.source = source

    def _map(self, ctx, typ) -> dict:
        return ctx.pseudonym_map.setdefault(ctx.dialogue, {}).setdefault(typ, {})

    def _lookup(self, key: str, typ: str, ctx: Context, make) -> str | None:
        m = self._map(ctx, typ)
        if key not in m:
            if ctx.rng.random() <= self.p:
                used = {v.lower() for v in m.values() if v}
                m[key] = make(used)
            else:
                m[key] = None
        return m[key]

    def replace(self, toks, typ, ctx):
        if all(number_class(t) or t.lower() in ("area", "code", "double", "triple", "and", "point") for t in toks) \
                and any(number_class(t) for t in toks):
            key = " ".join(t.lower() for t in toks)

            def make_num(used):
                for _ in range(32):
                    new = " ".join(random_same_class(t, ctx.rng, avoid=True) or t for t in toks)
                    if new.lower() not in used:
                        return new
                return new
            v = self._lookup(key, typ, ctx, make_num)
            return list(toks) if v is None else ctx.case(v.split())
        if typ in GENERATED_TYPES:   # a password, an address: one generated value per (dialogue, original span)
            v = self._lookup(" ".join(t.lower() for t in toks), typ, ctx,
                             lambda used: " ".join(generated_value(toks, ctx, typ)))
            return list(toks) if v is None else ctx.case(v.split())
        out = []
        for t in toks:
            def make_word(used, t=t):
                # a map holds for the whole dialogue: never an identifying entity word of anywhere in it
                avoid = avoided([t], ctx) | ctx.dialogue_words
                if self.source == "faker":      # a faker name that happens to be a real name of the corpus
                    avoid = avoid | ctx.corpus_words

                def ok(w):
                    return w.lower() != t.lower() and _clear(w.split(), avoid)
                if self.source == "faker":
                    from .categories.surrogates import LEXICON_POOLS
                    f = ctx.faker()
                    for _ in range(32):     # a category phrase stays whole ("thyroid disease", not "thyroid")
                        v = faker_value(typ, 1, f)
                        w = " ".join(v) if typ in LEXICON_POOLS else v[0]
                        if ok(w) and w.lower() not in used:
                            return w
                    return " ".join(fallback_word(t, typ, ctx, avoid))
                s = ctx.pools.sampler("word", typ)
                w = s.draw_where(ctx.rng, lambda x: ok(x) and x.lower() not in used)
                if w is None:      # the pool is too small to keep the map injective: give that up first
                    w = s.draw_where(ctx.rng, ok)
                if w is None:
                    fallback = _category_fallback(s, [t], [t], typ, ctx)   # a one-value HEALTH pool ...
                    return " ".join(fallback or fallback_word(t, typ, ctx, avoid))
                return w
            v = self._lookup(t.lower(), typ, ctx, make_word)
            out.extend([t] if v is None else ctx.case(v.split()))
        return out

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(None, "consistent mapping: pi(t|t') depends on t' through the dialogue's map, so the "
                                   "lemma does not apply; repeated mentions stay linked (an injective map reveals "
                                   "which mentions co-refer): no finite epsilon")


STRATEGIES = {c.name: c for c in (Keep, Redact, TypedPlaceholder, Placeholder, PlaceholderEntity, NamedPlaceholder,
                                  SameType, FakerSurrogate, SingleSameType, FullEntity, Pseudonymize, RandomDigits,
                                  Surrogate, CorpusSameType)}
# strategies that draw replacements from the corpus's own entities: they move real values between utterances
CORPUS_POOL_STRATEGIES = frozenset({"same_type", "single_same_type", "full_entity", "corpus_same_type"})
DEFAULT_STRATEGY = "default=surrogate"   # the one default of transform-text, steps/transform_text.sh and the README


def corpus_pool_warning(strategies: dict, pseudonym_source: str = "faker") -> str | None:
    """The one-line warning for a spec that draws replacements from the corpus (None: it does not)."""
    used = sorted({v for v in strategies.values() if v in CORPUS_POOL_STRATEGIES})
    if "pseudonymize" in strategies.values() and pseudonym_source == "corpus":
        used.append("pseudonymize from the corpus")
    if not used:
        return None
    return (f"{', '.join(used)}: replacements are drawn from the corpus's own entities, which moves real values "
            f"between utterances; the default 'surrogate' draws from outside the corpus")


def make_strategy(name: str, p: float = 1.0, pseudonym_source: str = "faker") -> Strategy:
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    if name == "pseudonymize":
        return Pseudonymize(p=p, source=pseudonym_source)
    return STRATEGIES[name]()


def parse_strategy_spec(spec: str) -> dict[str, str]:
    """'PER=pseudonymize,NUM=random_digits,default=same_type' -> {'PER': ..., 'NUM': ..., 'default': ...}.
    A bare name sets the default."""
    out: dict[str, str] = {}
    for part in filter(None, (x.strip() for x in spec.split(","))):
        if "=" in part:
            k, v = (x.strip() for x in part.split("=", 1))
        else:
            k, v = "default", part
        if v not in STRATEGIES:
            raise ValueError(f"unknown strategy {v!r} for {k}; choose from {', '.join(STRATEGIES)}")
        out[k] = v
    out.setdefault("default", "surrogate")
    return out
