"""The operator base class (as Presidio's anonymizer operators): a strategy has a name, declares what it needs and
how it is applied (the unit one coin toss replaces; whether it keeps a secret map; whether its values come from the
corpus) and replaces one span given its context (`replace`), with the epsilon of the policy it uses (`epsilon`)."""

from __future__ import annotations

import math
from typing import Sequence

from ..dp import EpsilonReport, epsilon_eq2
from .accounting import TYPE_PUBLIC, one_value_pool_eps
from .context import Context
from .helpers import avoided, clear, lowered


class Strategy:
    """One replacement operator. A subclass sets `name` (what --strategy TYPE=NAME types), declares what it needs,
    implements `replace` (one span -> its replacement words) and `epsilon` (seed 000 eq. 2 for its policy), and is
    listed in registry.STRATEGIES."""

    name = ""
    unit = "entity"          # "word" or "entity": what one coin toss replaces
    handles_coin = False     # the strategy applies p itself (consistent maps)
    keeps_types = False      # the type is not protected (keep): outside the epsilon bound
    draws_from_corpus = False   # replacements are entities of the corpus itself: selecting it logs a warning
    needs_secret = False     # keeps a map from originals to surrogates that must go to --secret-dir

    @classmethod
    def build(cls, p: float = 1.0, pseudonym_source: str = "faker") -> "Strategy":
        """The operator for one transformation (p and the pseudonym source, for the strategies that use them)."""
        return cls()

    def unit_for(self, typ: str) -> str:
        """The unit of type `typ` (a strategy may replace some types whole and others word by word)."""
        return self.unit

    def replace(self, toks: Sequence[str], typ: str, ctx: Context) -> list[str]:
        raise NotImplementedError

    def epsilon(self, typ: str, p: float, observed: set, ctx: Context) -> EpsilonReport:
        raise NotImplementedError


class SamplingStrategy(Strategy):
    """Draws from an independent distribution pi; `avoid_original` redraws a value equal to the original, which
    makes pi depend on t' and takes the policy outside the lemma."""

    def _eps(self, p, pi, observed, ctx, what, typ: str = "") -> EpsilonReport:
        if ctx.avoid_original:
            return EpsilonReport(None, "avoid-original redraws a surrogate equal to the original: pi(t|t') depends "
                                       "on t' (and an original never appears as a surrogate), outside the lemma")
        from ..categories.surrogates import is_category
        if is_category(typ):
            one = one_value_pool_eps(p, pi, observed, typ)
            if one is not None:
                return one
        e = epsilon_eq2(p, pi, observed)
        if p == 1.0:
            note = f"p=1; {what}; {TYPE_PUBLIC}"
        elif math.isinf(e):
            missing = [t for t in sorted(observed, key=str) if pi.get(t, 0.0) == 0.0]   # same example in every process
            note = (f"p<1 and {len(missing)} private unit(s) have pi(t)=0 under {what} (e.g. "
                    f"{'a multi-word entity' if missing and isinstance(missing[0], tuple) and len(missing[0]) > 1 else 'an unseen token'})")
        else:
            pmin = min(v for v in (pi.get(t, 0.0) for t in set(observed) | set(pi)) if v > 0)
            note = f"eq.2 with min pi(t) = {pmin:.4g} over {len(set(observed) | set(pi))} private units; {what}; " \
                   f"{TYPE_PUBLIC}"
        return EpsilonReport(e, note)

    def _draw(self, sampler, unit, toks, ctx):
        """A pool item for the unit `unit` (a word, or a tuple of words) of the span `toks`. The independent policy
        (seed 000's lemma) draws with the pool's frequencies, the original included. Avoid-original draws among the
        items that are not the unit and share no identifying word with any entity of the sentence ("ten forty"
        never becomes "ten ten" or "forty five"); None when the pool has no such item (the caller falls back to a
        generated value, never to a plain draw that may give the original back)."""
        if not ctx.avoid_original:
            return sampler.draw(ctx.rng)
        avoid, low = avoided(toks, ctx), lowered(unit)
        return sampler.draw_where(ctx.rng, lambda x: lowered(x) != low and clear(x, avoid))
