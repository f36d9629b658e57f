"""Probabilistic text de-identification (seed 000's algorithm) over tagged sentences, with per-type strategies.

    for every sensitive unit t' (a word, or a whole entity for entity strategies):
        r ~ U(0, 1); if r <= p: replace t' with t ~ pi(t | t')

Output tags keep the entity types (B-/I- over the replacement tokens) so a tagger can be trained on the result.
The report holds, per type, the strategy, counts and the epsilon of eq. (2) for the policy actually used.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from pydeid.io.conll import Sentence

from .context_spans import dialogue_context, extend_spelled  # noqa: F401 (extend_spelled re-exported)
from .dp import INF, EpsilonReport, combine_max
from .generate import words_of
from .lexicon import DAYPARTS, MONTHS, WEEKDAYS, identifying
from .pools import PoolError, Pools
from .strategies.shapes import agree_article
from .strategies import DEFAULT_EXEMPLARS, Context, Strategy, corpus_pool_warning, make_strategy, text_case

log = logging.getLogger("pydeid.transform")


# the closed classes a surrogate is drawn from as the corpus says them (Context.closed_counts)
_CLOSED_DATE_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(DAYPARTS)
_HOUR_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                         "twelve"})


def closed_counts(sentences, span_of) -> dict:
    """How often the corpus's entities say each month, weekday and part of the day, every word of its dates and
    times ("beginning", "middle", "second" of "the second week"), and (as "hour:<word>") the first number word of
    each time: surrogates of those closed classes are drawn by these counts."""
    c: Counter = Counter()
    for s, sp in zip(sentences, span_of):
        for a, b, typ in sp:
            words = [t.lower() for t in s.tokens[a:b]]
            c.update(w for w in words if w in _CLOSED_DATE_WORDS or typ in ("DATE", "TIME") and w.isalpha())
            if typ == "TIME":
                first = next((w for w in words if w in _HOUR_WORDS), None)
                if first:
                    c["hour:" + first] += 1
    return dict(c)

@dataclass
class TransformConfig:
    strategies: dict = field(default_factory=lambda: {"default": "surrogate"})
    p: float = 1.0
    seed: int = 0
    avoid_original: bool = False
    exemplars: dict = field(default_factory=lambda: dict(DEFAULT_EXEMPLARS))
    pseudonym_source: str = "faker"    # faker | corpus (corpus: real names move between utterances)
    faker_locale: str = "en_US"
    propagate_names: bool = True       # untagged mentions of a name tagged elsewhere in the dialogue (propagate.py)
    continue_numbers: bool = True      # digits read out over several turns are one number (dialogue.py)


@dataclass
class TypeStats:
    strategy: str
    entities: int = 0
    units: int = 0
    replaced: int = 0
    observed: set = field(default_factory=set)


@dataclass
class TransformResult:
    sentences: list[Sentence]
    stats: dict[str, TypeStats]
    epsilon: dict[str, EpsilonReport]
    overall: EpsilonReport
    pseudonym_map: dict

    def report_lines(self, p: float) -> list[str]:
        lines = [f"replacement probability p = {p}"]
        for typ in sorted(self.stats):
            st = self.stats[typ]
            e = self.epsilon[typ]
            lines.append(f"  {typ:5s} {st.strategy:18s} entities={st.entities} units={st.units} "
                         f"replaced={st.replaced} epsilon={e.fmt()}  ({e.note})")
        o = self.overall
        if o.epsilon is None:
            lines.append("overall epsilon (seed 000 eq. 2): NOT COVERED by the lemma -- no finite DP guarantee is "
                         "claimed (" + o.note + ")")
        elif math.isinf(o.epsilon):
            lines.append("overall epsilon (seed 000 eq. 2): INFINITE -- no DP guarantee (" + o.note + ")")
        else:
            lines.append(f"overall epsilon (seed 000 eq. 2): {o.epsilon:.4g} ({o.note}; entity types public)")
        return lines

    def report_dict(self, p: float) -> dict:
        def enc(e: EpsilonReport):
            return {"epsilon": (None if e.epsilon is None else ("inf" if math.isinf(e.epsilon) else e.epsilon)),
                    "covered": e.epsilon is not None, "note": e.note, "seed000": e.seed000, "text": e.fmt()}
        return {"p": p,
                "types": {t: {"strategy": s.strategy, "entities": s.entities, "units": s.units,
                              "replaced": s.replaced, **enc(self.epsilon[t])} for t, s in sorted(self.stats.items())},
                "overall": enc(self.overall)}


class TextTransformer:
    def __init__(self, config: TransformConfig, pools: Pools):
        if not 0.0 <= config.p <= 1.0:
            raise ValueError(f"p must lie in [0, 1], got {config.p}")
        self.config = config
        self.pools = pools
        self._strats: dict[str, Strategy] = {}
        warning = corpus_pool_warning(config.strategies, config.pseudonym_source)
        if warning:
            log.warning(warning)

    def strategy_for(self, typ: str) -> Strategy:
        name = self.config.strategies.get(typ, self.config.strategies.get("default", "surrogate"))
        if name not in self._strats:
            self._strats[name] = make_strategy(name, p=self.config.p, pseudonym_source=self.config.pseudonym_source)
        return self._strats[name]

    def transform(self, sentences: Sequence[Sentence], dialogues: Sequence[str] | None = None,
                  spans: Sequence[list[tuple[int, int, str]]] | None = None) -> TransformResult:
        """Transform sentences; `spans` overrides the sentences' own tags (e.g. detector output). With
        `propagate_names`, an untagged mention of a name tagged elsewhere in its dialogue is replaced too."""
        cfg = self.config
        ctx = Context(rng=np.random.default_rng(cfg.seed), pools=self.pools, seed=cfg.seed,
                      exemplars=dict(DEFAULT_EXEMPLARS, **cfg.exemplars), avoid_original=cfg.avoid_original,
                      faker_locale=cfg.faker_locale)
        stats: dict[str, TypeStats] = {}
        out_sents: list[Sentence] = []
        dlg_of = [dialogues[k] if dialogues is not None else (s.id or "") for k, s in enumerate(sentences)]
        span_of = [spans[k] if spans is not None else s.spans() for k, s in enumerate(sentences)]
        span_of = dialogue_context([s.tokens for s in sentences], span_of, dlg_of,
                                   numbers=cfg.continue_numbers, names=cfg.propagate_names)
        # the value words of every entity of the input: no generated surrogate may hold one (generate.py)
        ctx.corpus_words = frozenset(w for s, sp in zip(sentences, span_of) for a, b, typ in sp
                                     for w in words_of(s.tokens[a:b], typ))
        ctx.closed_counts = closed_counts(sentences, span_of)
        dialogue_words: dict[str, set] = {}
        for s, d, sp in zip(sentences, dlg_of, span_of):
            dialogue_words.setdefault(d, set()).update(identifying(t for a, b, _ in sp for t in s.tokens[a:b]))
        for k, s in enumerate(sentences):
            ctx.dialogue = dlg_of[k]
            ctx.dialogue_words = frozenset(dialogue_words[ctx.dialogue])
            sp = span_of[k]
            case = text_case(s.tokens)
            ctx.lower, ctx.upper = case == "lower", case == "upper"
            ctx.entity_words = frozenset(t.lower() for a, b, _ in sp for t in s.tokens[a:b])
            toks, tags = self._transform_one(s.tokens, sp, ctx, stats)
            out_sents.append(Sentence(toks, tags, s.id, [], list(s.comments)))
        eps = {t: self.strategy_for(t).epsilon(t, cfg.p, st.observed, ctx) for t, st in stats.items()}
        protected = [e for t, e in eps.items() if not self.strategy_for(t).keeps_types]
        overall = combine_max(protected)
        kept = sorted(t for t in eps if self.strategy_for(t).keeps_types)
        if kept and not protected:
            overall = EpsilonReport(float("inf"), "every type is kept: nothing is protected")
        elif kept:
            overall.note += f"; types kept unprotected and outside the bound: {', '.join(kept)}"
        return TransformResult(out_sents, stats, eps, overall, ctx.pseudonym_map)

    def epsilon_at(self, gold: Sequence[Sentence], p_by_type: dict[str, float]) -> tuple[dict, EpsilonReport]:
        """Eq. (2) per gold type at its own replacement probability (p x detection recall, seed 000 section 3),
        over the gold sensitive units, and the max over types."""
        cfg = self.config
        ctx = Context(rng=np.random.default_rng(cfg.seed), pools=self.pools, seed=cfg.seed,
                      exemplars=dict(DEFAULT_EXEMPLARS, **cfg.exemplars), avoid_original=cfg.avoid_original,
                      faker_locale=cfg.faker_locale)
        observed: dict[str, set] = {}
        for s in gold:
            for a, b, typ in s.spans():
                strat = self.strategy_for(typ)
                o = observed.setdefault(typ, set())
                if strat.unit == "word" or strat.handles_coin:
                    o.update(s.tokens[a:b])
                else:
                    o.add(tuple(s.tokens[a:b]))
        eps = {t: self._epsilon_of_type(t, min(1.0, p_by_type.get(t, cfg.p)), o, ctx) for t, o in observed.items()}
        protected = [e for t, e in eps.items() if not self.strategy_for(t).keeps_types]
        return eps, combine_max(protected)

    def _epsilon_of_type(self, typ, p, observed, ctx) -> EpsilonReport:
        """A gold type the detector never tagged has no pool to draw from: its units all pass unchanged."""
        try:
            return self.strategy_for(typ).epsilon(typ, p, observed, ctx)
        except PoolError:
            return EpsilonReport(INF, f"no {typ} in the replacement pool: the detector tagged no {typ}, so every "
                                      f"{typ} unit passes unchanged")

    def _transform_one(self, tokens, spans, ctx: Context, stats) -> tuple[list[str], list[str]]:
        p = self.config.p
        out_t: list[str] = []
        out_g: list[str] = []
        pos = 0
        for a, b, typ in sorted(spans):
            out_t.extend(tokens[pos:a])
            out_g.extend(["O"] * (a - pos))
            strat = self.strategy_for(typ)
            st = stats.setdefault(typ, TypeStats(strat.name))
            st.entities += 1
            orig = list(tokens[a:b])
            ctx.span, ctx.span_index = orig, None    # a word unit sees its span ("k o w ...": spelled letters)
            ctx.sentence, ctx.span_start = tokens, a
            if strat.handles_coin:
                new = strat.replace(orig, typ, ctx)
                st.units += len(orig)
                st.replaced += sum(x.lower() != y.lower() for x, y in zip(orig, new)) if len(new) == len(orig) \
                    else len(orig)
                st.observed.update(orig)
            elif getattr(strat, "unit_for", lambda t: strat.unit)(typ) == "word":
                new = []
                for j, t in enumerate(orig):   # every token of the entity is a unit, punctuation too (seed 004 t. 8)
                    ctx.span_index = j
                    st.units += 1
                    st.observed.add(t)
                    if ctx.rng.random() <= p:
                        r = strat.replace([t], typ, ctx)
                        new.extend(r)
                        st.replaced += _changed([t], r)   # only units whose words changed count as replaced
                    else:
                        new.append(t)
            else:
                st.units += 1
                st.observed.add(tuple(orig))
                if ctx.rng.random() <= p:
                    new = strat.replace(orig, typ, ctx)
                    st.replaced += _changed(orig, new)
                else:
                    new = orig
            if new and out_t and out_g[-1] == "O" and out_t[-1].lower() in ("a", "an") and \
                    getattr(strat, "agrees_articles", False) and [t.lower() for t in new] != [t.lower() for t in orig]:
                # "a Indian" never follows from "a Mexican"; in capitals every word looks like an initialism
                # ("A NICE" is no "AN NICE"), so the word is read in lower case and the article kept in capitals
                art = agree_article(out_t[-1], new[0].lower() if ctx.upper else new[0])
                out_t[-1] = art.upper() if ctx.upper else art
            out_t.extend(new)
            out_g.extend([("B-" if i == 0 else "I-") + typ for i in range(len(new))])
            pos = b
        out_t.extend(tokens[pos:])
        out_g.extend(["O"] * (len(tokens) - pos))
        return out_t, out_g


def _changed(orig, new) -> int:
    """1 when a unit's output differs from its original (case ignored: a case change hides nothing)."""
    return int([t.lower() for t in orig] != [t.lower() for t in new])


def lowercase_sentences(sents: Sequence[Sentence]) -> list[Sentence]:
    return [Sentence([t.lower() for t in s.tokens], list(s.tags), s.id, s.extra, s.comments) for s in sents]


PUNCT = set(".,;:!?\"'()[]-")


def strip_punct(sents: Sequence[Sentence]) -> list[Sentence]:
    """Drop punctuation tokens (seed 004 'nopunct' variants); an entity that loses its first token stays an entity."""
    out = []
    for s in sents:
        toks, tags = [], []
        prev_typ = None
        for t, g in zip(s.tokens, s.tags):
            if t in PUNCT or all(c in PUNCT for c in t):
                if g == "O":
                    prev_typ = None
                continue
            typ = g[2:] if g != "O" else None
            if g.startswith("I-") and prev_typ != typ:
                g = "B-" + typ
            toks.append(t)
            tags.append(g)
            prev_typ = typ
        out.append(Sentence(toks, tags, s.id, [], s.comments))
    return out
