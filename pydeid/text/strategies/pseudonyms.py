"""pseudonymize: consistent word-by-word surrogates within a dialogue (the map is a secret)."""

from __future__ import annotations

from ..dp import EpsilonReport
from ..pools import GENERATED_TYPES
from ..wordforms import number_class, random_same_class
from .base import Strategy
from .context import Context
from .helpers import avoided, category_fallback, clear, fallback_word, faker_value, generated_value


class Pseudonymize(Strategy):
    """Consistent, word-by-word surrogates within a dialogue; whole number spans map to random same-length digits.

    The coin p is tossed once per (dialogue, original) mapping, so a word is either always or never replaced within
    its dialogue. A surrogate never equals its original and distinct originals get distinct surrogates within a
    dialogue and type when the pool allows (injective map). Maps are secrets written by the driver.
    """

    name = "pseudonymize"
    handles_coin = True
    needs_secret = True

    def __init__(self, p: float = 1.0, source: str = "faker"):
        self.p = p
        self.source = source

    @classmethod
    def build(cls, p: float = 1.0, pseudonym_source: str = "faker") -> "Pseudonymize":
        return cls(p=p, source=pseudonym_source)

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
                    return w.lower() != t.lower() and clear(w.split(), avoid)
                if self.source == "faker":
                    from ..categories.surrogates import LEXICON_POOLS
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
                    fallback = category_fallback(s, [t], [t], typ, ctx)   # a one-value HEALTH pool ...
                    return " ".join(fallback or fallback_word(t, typ, ctx, avoid))
                return w
            v = self._lookup(t.lower(), typ, ctx, make_word)
            out.extend([t] if v is None else ctx.case(v.split()))
        return out

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(None, "consistent mapping: pi(t|t') depends on t' through the dialogue's map, so the "
                                   "lemma does not apply; repeated mentions stay linked (an injective map reveals "
                                   "which mentions co-refer): no finite epsilon")
