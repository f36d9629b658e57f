"""Strategies that write a constant: keep, redact, typed and untyped placeholders, a named exemplar per type."""

from __future__ import annotations

from ..dp import INF, EpsilonReport
from .accounting import constant_eps
from .base import Strategy
from .helpers import avoided, clear, not_original

REDACT_TOKEN = "IIIII"
PLACEHOLDER_TOKEN = "PLACEHOLDER"


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
        return constant_eps(p, observed, (REDACT_TOKEN,), REDACT_TOKEN, seed000=0.0)


class TypedPlaceholder(Strategy):
    name = "typed_placeholder"

    def replace(self, toks, typ, ctx):
        return [typ]

    def epsilon(self, typ, p, observed, ctx):
        return constant_eps(p, observed, (typ,), f"the label {typ}", seed000=0.0)


class Placeholder(Strategy):
    name = "placeholder"
    unit = "word"

    def replace(self, toks, typ, ctx):
        return [PLACEHOLDER_TOKEN for _ in toks]

    def epsilon(self, typ, p, observed, ctx):
        return constant_eps(p, observed, PLACEHOLDER_TOKEN, PLACEHOLDER_TOKEN, seed000=0.0)


class PlaceholderEntity(Strategy):
    name = "placeholder_entity"

    def replace(self, toks, typ, ctx):
        return [PLACEHOLDER_TOKEN]

    def epsilon(self, typ, p, observed, ctx):
        return constant_eps(p, observed, (PLACEHOLDER_TOKEN,), PLACEHOLDER_TOKEN, seed000=0.0)


class NamedPlaceholder(Strategy):
    name = "named_placeholder"

    def _exemplar(self, typ, ctx) -> tuple:
        return tuple(ctx.exemplars.get(typ, typ).split())

    def replace(self, toks, typ, ctx):
        ex = self._exemplar(typ, ctx)
        if ctx.avoid_original and not clear(ex, avoided(toks, ctx)):
            return [typ]      # the exemplar is a word of this sentence's entities ("Smith" for Misses Smith)
        return not_original(toks, ctx.case(ex), typ, ctx)

    def epsilon(self, typ, p, observed, ctx):
        if ctx.avoid_original:
            return EpsilonReport(None, "avoid-original: an entity whose words include the exemplar gets the type "
                                       "label instead, so pi(t|t') depends on t' (the label reveals it), outside "
                                       "the lemma")
        ex = self._exemplar(typ, ctx)
        return constant_eps(p, {tuple(t.lower() for t in o) for o in observed}, tuple(t.lower() for t in ex),
                             f"the exemplar '{' '.join(ex)}'")
