"""Surrogates from outside the corpus: faker values of the type, and the default `surrogate` (generate.py: faker
names of several locales, gazetteer places, generated digits, letters, e-mails and amounts, category phrases)."""

from __future__ import annotations

from ..dp import INF, EpsilonReport
from ..lexicon import LOC_HEADS, MONTH_ABBR, WEEKDAYS, identifying
from ..pools import GENERATED_TYPES
from ..wordforms import match_case, number_class, random_same_class, weighted_choice
from .accounting import TYPE_PUBLIC, generated_eps
from .base import SamplingStrategy, Strategy
from .identifiers import SHAPED_TYPES, identifier_value
from .helpers import FAKER_TYPES, avoided, first_clear, flat, faker_value, generated_value, not_original
from .numbers import RandomDigits
from .spoken_years import redraw_year, spoken_year_spans
from .shapes import (FEAST_WORDS, article_for, day_number, is_title, keep_style, kept_titles, name_tokens,
                     other_feast, redraw_code, shaped_value, span_gender, spoken_number, written_time, year_number)


# a closed kind of places (50 states) with its wider kind of the same shape, for when the corpus names its draw
_WIDER_PLACE = {"state": "us_city", "state_code": "province_code"}


class FakerSurrogate(SamplingStrategy):
    name = "faker"
    n_estimate = 4000
    agrees_articles = True

    def replace(self, toks, typ, ctx):
        f = ctx.faker()
        if typ in SHAPED_TYPES:     # a typed identifier: its format's shape and a valid checksum (identifiers.py)
            return ctx.case(identifier_value(toks, typ, ctx))
        shaped = shaped_value(toks, typ, ctx.rng)      # an identifier, a written date, "in a month" keep their shape
        if shaped is not None:
            return ctx.case(keep_style(toks, shaped, False))
        # "Mrs Anna Kowalski" -> "Mrs Ella Ward": kept titles (and "and", punctuation) stay, each name word gets a
        # faker name (shapes.name_tokens); a name without a kept title ("KING", "Anna King") is redrawn whole below
        if typ == "PER" and any(kept_titles(toks)):
            return ctx.case(keep_style(toks, self._titled(toks, ctx, f)))
        # faker has no spelled-number generator: numbers (and number-only spans of types it does not know) are
        # redrawn by class. A name, place, company, date or time always gets a faker value, whatever its words
        # (a person called "April" must not fall back to a month redraw that may return "April")
        if typ == "NUM" or (typ not in FAKER_TYPES and all(number_class(t) for t in toks)):
            return RandomDigits().replace(toks, typ, ctx)
        avoid = avoided(toks, ctx) if ctx.avoid_original else None
        # [typ]: faker keeps giving a word of the sentence's entities ("eleven thirty" -> "eleven pm")
        val = first_clear(lambda: ctx.case(faker_value(typ, len(toks), f)), avoid,
                          None if avoid is None else [t.lower() for t in toks]) or [typ]
        return not_original(toks, keep_style(toks, val) if typ in FAKER_TYPES else val, typ, ctx)

    def _titled(self, toks, ctx, f) -> list[str]:
        """A titled name word by word: one word a surname, several first names and a surname; of the gender of the
        title or a pronoun (shapes.span_gender); no original word with `avoid_original`."""
        name = name_tokens(toks)
        n = sum(name)
        first = {"f": f.first_name_female, "m": f.first_name_male}.get(
            span_gender(toks, ctx.sentence, ctx.span_start), f.first_name)
        avoid = avoided(toks, ctx) if ctx.avoid_original else None
        gen = first_clear(lambda: [f.last_name()] if n == 1 else [first() for _ in range(n - 1)] + [f.last_name()],
                          avoid) or ["PER"] * n
        it = iter(gen)
        return [next(it) if nm else t for t, nm in zip(toks, name)]

    def epsilon(self, typ, p, observed, ctx):
        if typ == "NUM":  # replaced by class redraws (see replace); units are whole entities (tuples)
            return RandomDigits().epsilon(typ, p, flat(observed), ctx)
        if p == 1.0 and not ctx.avoid_original:
            return EpsilonReport(0.0, f"p=1; faker surrogates; {TYPE_PUBLIC}")
        from collections import Counter

        from faker import Faker
        f = Faker(ctx.faker_locale)
        f.seed_instance(12345)
        sizes = sorted({len(o) for o in observed}) or [1]
        c = Counter(tuple(faker_value(typ, sizes[i % len(sizes)], f)) for i in range(self.n_estimate))
        pi = {k: v / self.n_estimate for k, v in c.items()}
        r = self._eps(p, pi, observed, ctx, f"pi estimated from {self.n_estimate} faker draws")
        return EpsilonReport(r.epsilon, "estimate: " + r.note)


# closed classes of date and time words a surrogate redraws within ("the middle of August" -> "the end of June")
_DATE_CLASSES = (frozenset({"today", "tomorrow", "yesterday", "tonight"}), frozenset({"now"}),
                 frozenset(MONTH_ABBR - {"sept"}), frozenset({"noon", "midnight", "midday"}),
                 frozenset({"beginning", "middle", "end", "start"}), frozenset({"early", "late", "mid"}),
                 # a meal names a time of day: another meal, never a weekday ("at supper" -> "at lunch")
                 frozenset({"breakfast", "brunch", "lunch", "lunchtime", "dinner", "dinnertime", "supper", "teatime"}),
                 # the parts of a day people meet in: "the night" for "the afternoon" gave surrogates away
                 frozenset({"morning", "afternoon", "evening"}))
_MEALS = _DATE_CLASSES[-2]
_HOUR_AFTER = {"am", "pm", "a.m.", "p.m.", "a.m", "p.m", "o'clock", "oclock"}

# words that qualify a date without naming one ("a BUSY week", "ALL week", spaCy's DATE "the BEST month of the year"):
# redrawn within their class, as every identifying word of a span is (the leak rule), never as a weekday
_DATE_DETERMINERS = ("all", "every", "each")
_DATE_ADJECTIVES = ("best", "worst", "busy", "long", "short", "good", "great", "whole", "entire", "quiet", "lovely",
                    "wonderful", "hard", "big", "special", "nice", "bad", "perfect", "happy", "fun")


def _date_qualifier(low: str) -> tuple[str, ...] | None:
    """The class a plain word of a date or time span is redrawn in (None: not a plain word; the words of feasts
    and named days, "christmas", "independence", are the date itself)."""
    from ..gazetteer import common_words
    if low in _DATE_DETERMINERS:
        return _DATE_DETERMINERS
    if low in _DATE_ADJECTIVES or low in common_words() and low not in FEAST_WORDS:
        return _DATE_ADJECTIVES
    return None


def _first_case(toks, out: list[str], typ: str) -> list[str]:
    """A date, time or number's first word capitalised as its original's is (a sentence start): the same surrogate
    is reused for a later mention in another position."""
    if typ in ("PER", "LOC", "ORG", "GPE", "FAC") or not out or not toks[0][:1].isalpha() or not out[0][:1].isalpha():
        return out
    first = out[0][:1].upper() if toks[0][:1].isupper() else out[0][:1].lower() if not out[0].isupper() else out[0][:1]
    return [first + out[0][1:]] + out[1:]


def _singular_noun(tok: str) -> bool:
    """A word that a count of one stays a count before ("weekend", "week"): letters, no number word, no plural."""
    low = tok.lower()
    return low.isalpha() and not number_class(tok) and not low.endswith("s") and low not in ("of", "and", "or")


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
    agrees_articles = True     # the driver makes an "a"/"an" before the span agree with the surrogate

    def unit_for(self, typ: str) -> str:
        return "entity"

    def _map(self, ctx, typ) -> dict:
        return ctx.pseudonym_map.setdefault(ctx.dialogue, {}).setdefault(typ, {})

    def replace(self, toks, typ, ctx):
        gen = ctx.value_generator()
        m = self._map(ctx, typ)
        key = " ".join(t.lower() for t in toks)
        if typ != "PER" and key in m and not (identifying(m[key].split()) & identifying(ctx.entity_words)):
            return ctx.case(_first_case(toks, m[key].split(), typ))   # unless it holds a word of another entity here
        from ..generate import words_of
        avoid = words_of(toks, typ) | words_of(ctx.entity_words, typ) | \
            {w for v in m.values() for w in words_of(v.split(), typ)}     # distinct originals, distinct surrogates
        out = _first_case(toks, keep_style(toks, self._make(list(toks), typ, ctx, gen, avoid, m),
                                           typ in ("PER", "LOC", "ORG", "GPE", "FAC")), typ)
        if typ != "PER":
            m[key] = " ".join(out)
        return ctx.case(out)

    def _make(self, toks, typ, ctx, gen, avoid, m) -> list[str]:
        from ..categories.surrogates import GENERATED as CATEGORY_GENERATED
        from ..categories.surrogates import LEXICON_POOLS, category_value
        from ..generate import is_spoken_address, place_kind, words_of
        from ..grammars import spelled_spans
        # a lone "a" or "I" is the article or the pronoun, not a spelled letter ("in a month" never "in d month")
        spelled = {i for a, b in spelled_spans(toks, min_letters=1) for i in range(a, b)
                   if not (b - a == 1 and toks[a].lower() in ("a", "i") and len(toks) > 1)}
        if spelled and typ not in SHAPED_TYPES and all(i in spelled or number_class(t) for i, t in enumerate(toks)):
            return gen.letters(toks)             # "K two W A L S K I": letters and digits of the same count
        if is_spoken_address(toks):
            return gen.spoken_address(toks, avoid)
        if typ not in LEXICON_POOLS and typ not in CATEGORY_GENERATED:
            out = None
            for _ in range(16):     # the span's own shape first: an identifier, a written date, "in a month"
                out = shaped_value(toks, typ, ctx.rng)
                if out is None or not ((words_of(out) & gen.excluded) - words_of(toks)) and \
                        not (words_of(out) & avoid):
                    break
            if out is not None:
                return out
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
            kind = place_kind(toks)      # a country for a country, a state for a state, a city for anything else
            if kind == "city" and any(t.lower() in LOC_HEADS for t in toks) and \
                    any(t.lower() not in LOC_HEADS for t in toks):   # "Bosnia and Herzegovina" is a country
                # "X National Park": the heads are kept, so they may be words of this or another entity
                return gen.draw(lambda: gen.headed(toks, LOC_HEADS), avoid, heads=LOC_HEADS) or [typ]
            wider = _WIDER_PLACE.get(kind)
            if wider:
                # one draw of the kind; a state the corpus names sends it to the wider kind. Redrawing among the few
                # states a corpus does not name made each of them a surrogate marker (SNIPS names most states)
                got = gen.draw(lambda: gen.place(kind), avoid, tries=1) or gen.draw(lambda: gen.place(wider), avoid)
                if got:
                    return got
            return gen.draw(lambda: gen.place(kind), avoid) or gen.draw(gen.place, avoid) or [typ]
        if typ == "ORG":
            if len(toks) == 1 and toks[0].isupper() and toks[0].isalpha() and 2 <= len(toks[0]) <= 5:
                return gen.draw(lambda: [redraw_code(toks[0], ctx.rng)], avoid) or [typ]     # "EAT" -> "QOF"
            return gen.draw(lambda: gen.company(toks), avoid) or [typ]     # "City Tavern" -> "Moran Tavern"
        return self._words(toks, typ, ctx, gen, avoid, spelled)

    def _person(self, toks, ctx, gen, avoid, m, spelled) -> list[str]:
        """Word by word, each word through the dialogue's map ("Anna Kowalski", later "Kowalski": one surname).
        Titles beside the name are kept ("Mrs", "Judge"; shapes.name_tokens); in a name of several words the last
        is a surname and the others first names, a single name after a title a surname; a new first name takes the
        gender of a title or a pronoun around the span (shapes.span_gender)."""
        from ..generate import word_forms
        # the name's words (shapes.name_tokens): not a kept title, glue word or punctuation ("KING" tagged PER, the
        # "King" of "Anna King" are names: a kept title would publish them)
        names = [i for i, (t, n) in enumerate(zip(toks, name_tokens(toks))) if n and i not in spelled and word_forms(t)]
        titled = any(kept_titles(toks)) or (ctx.span_start > 0 and len(ctx.sentence) > ctx.span_start
                                            and is_title(ctx.sentence[ctx.span_start - 1]))
        gender = span_gender(toks, ctx.sentence, ctx.span_start)
        out = []
        for i, t in enumerate(toks):
            forms = word_forms(t)
            if i in spelled:
                out.extend(gen.letters([t]))
            elif i not in names:
                out.append(t)                    # "Mr", "Judge", "the", punctuation: kept ("May" is a name here)
            elif forms[0] in m:
                out.append(m[forms[0]])
            else:
                used = {v.lower() for v in m.values()}
                if len(names) > 1:
                    kind = "last" if i == names[-1] else "first"
                else:       # one name: a surname after a title, a first name when a pronoun gives a gender
                    kind = "last" if titled else "first" if gender else None
                w = gen.draw(lambda: [gen.name_word(t, kind, gender)], avoid | used)
                m[forms[0]] = w[0] if w else "PER"
                out.append(m[forms[0]])
        return out

    def _words(self, toks, typ, ctx, gen, avoid, spelled) -> list[str]:
        """Dates, times and other types word by word: a number, month or weekday word redrawn within its class, a
        relative day among the others, structure kept, any other word a weekday (DATE, TIME) or a faker word."""
        from ..generate import closed_words, is_value_word, word_forms
        from ..lexicon import CLOCK_WORDS, DAYPARTS
        # a spoken year is redrawn as a whole year of its era, in its style ("nineteen ninety four" -> "nineteen
        # eighty seven"), never word by word ("sixty eighty seven")
        years = {}
        for a, b, y, style in spoken_year_spans(toks) if typ == "DATE" else ():
            new_year = redraw_year(toks[a:b], y, style, ctx.rng, {w for t in toks for w in word_forms(t)}
                                   | set(ctx.entity_words))
            if new_year is not None:
                years[a] = (b, new_year)
        out: list[str] = []
        counts: list[int] = []      # where "one" of "one weekend" stands in `out`: it becomes "a"/"an"
        skip = 0
        for i, t in enumerate(toks):
            if i in years:
                skip = years[i][0]
                out.extend(years[i][1])
            if i < skip:
                continue
            low = t.lower()
            forms = word_forms(t)
            dated = (day_number(t, ctx.rng) or year_number(t, ctx.rng)) if typ == "DATE" else \
                written_time(t, ctx.rng) if typ == "TIME" else None
            if dated is None and typ in ("DATE", "TIME"):
                dated = spoken_number(toks, i, typ, ctx.rng, ctx.entity_words, ctx.closed_counts)
            if i in spelled:
                out.extend(gen.letters([t]))
            elif dated is not None:     # "the 31st" -> "the 12th", "2019" -> "1987", "10:30" -> "07:45": valid
                if dated:               # "" : the ordinal of "twenty seventh", now one word ("ninth")
                    out.append(dated)
            elif low == "one" and i + 1 < len(toks) and _singular_noun(toks[i + 1]):
                # "one weekend in July" -> "a weekend", never "three weekend" (nor "one": no original word back)
                counts.append(len(out))       # the article agrees with the word after it, once that is drawn
                out.append(t)
            elif typ == "TIME" and t.isdigit() and i + 1 < len(toks) and toks[i + 1].lower() in _HOUR_AFTER:
                hours = [h for h in range(1, 13) if str(h) != t.lstrip("0") and str(h) not in ctx.entity_words]
                h = hours[int(ctx.rng.integers(len(hours)))]      # "7 AM" -> "4 AM", never "51 am"
                out.append(f"{h:02d}" if len(t) == 2 and t[0] == "0" else str(h))
            elif number_class(t):       # "three oh five" never "eight five oh" beside "six thirty five"
                for _ in range(16):
                    new = random_same_class(t, ctx.rng, avoid=True, counts=ctx.closed_counts)
                    if new.lower() not in ctx.entity_words:
                        break
                out.append(new)
            elif any(low in c for c in _DATE_CLASSES) or (low in DAYPARTS or low == "meal") and typ == "TIME":
                cls = next((c for c in _DATE_CLASSES if low in c), DAYPARTS)    # never "in the noon"
                if low == "meal":
                    cls = _MEALS
                others = sorted(cls - {low, "start"} - ctx.entity_words)     # "start of June" is rare in speech
                out.append(match_case([t], [weighted_choice(others, ctx.rng, ctx.closed_counts)])[0] if others else t)
            elif not forms or low in closed_words() or not is_value_word(forms[0]):
                out.append(t)
            elif typ in ("DATE", "TIME") and (qualifiers := _date_qualifier(low)):
                # of the same article ("a LITTLE" -> "a NICE", never "an ENTIRE"): the spoken fill re-says the
                # span, not the article before it
                others = [w for w in qualifiers if w != low and w not in ctx.entity_words
                          and article_for(w) == article_for(low)] or \
                    [w for w in qualifiers if w != low and w not in ctx.entity_words]
                out.append(match_case([t], [others[int(ctx.rng.integers(len(others)))]])[0])   # never "MONDAY month"
            elif typ in ("DATE", "TIME") and low in FEAST_WORDS:
                out.append(match_case([t], [other_feast(low, ctx.rng)])[0])     # "this CHRISTMAS spirit"
            elif typ in ("DATE", "TIME"):     # a holiday or another named day: a weekday of no entity here
                days = [d for d in WEEKDAYS if d != low and d not in ctx.entity_words] or WEEKDAYS
                out.append(match_case([t], [weighted_choice(days, ctx.rng, ctx.closed_counts).capitalize()])[0])
            else:
                w = gen.draw(lambda: [gen.word()], avoid)
                out.append(w[0] if w else typ)
        for k in counts:
            art = article_for(out[k + 1]) if k + 1 < len(out) else "a"
            cap = out[k][:1].isupper() and not out[k].isupper()
            out[k] = art.capitalize() if cap else match_case([out[k]], [art])[0]
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
