"""Strategies that draw replacements from the corpus's own entities (seed 000/004 value dissociation): they move
real values between utterances, which a warning says when one is chosen."""

from __future__ import annotations

from ..dp import EpsilonReport
from ..pools import GENERATED_TYPES
from .accounting import generated_eps
from .base import SamplingStrategy
from .helpers import FAKER_TYPES, avoided, category_fallback, fallback_entity, fallback_word, faker_value, \
    generated_value, lowered


class SameType(SamplingStrategy):
    name = "same_type"
    draws_from_corpus = True
    unit = "word"

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("word", typ)
        out = []
        for t in toks:
            got = category_fallback(s, [t], [t], typ, ctx)
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


class SingleSameType(SamplingStrategy):
    name = "single_same_type"
    draws_from_corpus = True

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("word", typ)
        fallback = category_fallback(s, toks, toks, typ, ctx)
        if fallback:
            return fallback
        w = self._draw(s, toks[0] if len(toks) == 1 else tuple(toks), toks, ctx)
        return ctx.case([w]) if w is not None else fallback_word(" ".join(toks), typ, ctx, avoided(toks, ctx))

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        pi = {(w,): v for w, v in ctx.pools.sampler("word", typ).as_dict().items()}
        return self._eps(p, pi, observed, ctx, "pi = corpus frequency of single words of the type", typ)


class FullEntity(SamplingStrategy):
    name = "full_entity"
    draws_from_corpus = True

    def replace(self, toks, typ, ctx):
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        s = ctx.pools.sampler("entity", typ)
        got = category_fallback(s, [tuple(toks)], toks, typ, ctx)
        if got:
            return got
        e = self._draw(s, tuple(toks), toks, ctx)
        return ctx.case(list(e)) if e is not None else fallback_entity(toks, typ, ctx, avoided(toks, ctx))

    def epsilon(self, typ, p, observed, ctx):
        if typ in GENERATED_TYPES:
            return generated_eps(typ, p, observed)
        return self._eps(p, ctx.pools.sampler("entity", typ).as_dict(), observed, ctx,
                         "pi = corpus frequency of whole entities of the type", typ)


class CorpusSameType(SamplingStrategy):
    """The seed's corpus-frequency replacement (the default before values came from outside the corpus): generated
    values for numbers, identifiers, e-mails and amounts; a same-type pool word (pools hold only spans of that
    type) for names, places, organisations, dates and times; never the original, compared case-insensitively (a
    pool with no other word falls back to a faker value of the type). It moves real values between utterances:
    selecting it logs a warning."""

    name = "corpus_same_type"
    draws_from_corpus = True
    unit = "word"

    def unit_for(self, typ: str) -> str:
        """Category spans are replaced whole ("high blood pressure" by a phrase of the same category)."""
        from ..categories.surrogates import ENTITY_UNIT
        return "entity" if typ in ENTITY_UNIT else self.unit

    def replace(self, toks, typ, ctx):
        from ..categories.surrogates import LEXICON_POOLS, category_value
        if typ in LEXICON_POOLS:
            return category_value(toks, typ, ctx)
        if typ in GENERATED_TYPES:
            return generated_value(toks, ctx, typ)
        from ..pools import PoolError
        try:
            s = ctx.pools.sampler("word", typ)
        except PoolError:
            s = None
        out = []
        for t in toks:
            avoid = {t.lower()} | ctx.entity_words    # no original entity word of this sentence, at any position
            w = s.draw_excluding(ctx.rng, avoid, key=lowered) if s is not None else None
            if w is None:
                f = ctx.faker()
                for _ in range(32):
                    w = faker_value(typ, 1, f)[0] if typ in FAKER_TYPES else f.word()
                    if w.lower() not in avoid:
                        break
                else:
                    w = typ     # the type's label: never an original word, nor one spelled from it
            out.append(w)
        return ctx.case(out)

    def epsilon(self, typ, p, observed, ctx):
        return EpsilonReport(None, "surrogate never equals its original: pi(t|t') depends on t', outside the lemma "
                                   "(numbers, identifiers, e-mails, amounts: generated)")
