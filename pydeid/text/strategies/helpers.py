"""Low-level helpers shared by the strategy operators: what a surrogate must avoid, fallbacks when a pool has
nothing left, faker values of a type, generated values for numbers and identifiers. Below every operator module
(they import it, it imports none of them), above wordforms/lexicon/categories (no import cycle)."""

from __future__ import annotations

from typing import Sequence

from ..lexicon import DIGIT_CLASS, MONTHS, TEEN_CLASS, WEEKDAYS, identifying
from ..wordforms import _ORDINAL_CLASS, number_class, other_letter, random_same_class
from .context import Context


def clean_tokens(value: str) -> list[str]:
    toks = []
    for t in value.replace("-", " ").split():
        t = t.strip(".,;:!?()\"'")
        if t:
            toks.append(t)
    return toks or ["x"]


def lowered(x):
    return x.lower() if isinstance(x, str) else tuple(t.lower() for t in x)


def avoided(toks: Sequence[str], ctx: Context) -> set[str]:
    """The words an avoid-original surrogate must not contain: the identifying words (lexicon.identifying, lower-
    cased) of its original span and of every other entity of the sentence, so no original word comes back, in its
    place or moved to another entity ("Bob met Alice" never becomes "Alice met Bob")."""
    return identifying(toks) | identifying(ctx.entity_words)


def clear(value, avoid: set) -> bool:
    """`value` (a word or a sequence of words) has no identifying word in `avoid`."""
    return not (identifying((value,) if isinstance(value, str) else value) & avoid)


def first_clear(make, avoid: set | None, orig: list[str] | None = None, tries: int = 32) -> list[str] | None:
    """The first of up to `tries` values of `make()` with no identifying word in `avoid` (None: any value) and, with
    `orig` (lower-cased words), not the original itself; None when every draw failed."""
    for _ in range(tries):
        val = make()
        if (avoid is None or clear(val, avoid)) and (orig is None or [v.lower() for v in val] != orig):
            return val
    return None


def fallback_word(t: str, typ: str, ctx: Context, avoid: set) -> list[str]:
    """One word for `t` when the pool has nothing left that avoids the originals: a faker word of the type (a
    same-category phrase for a category type), else the type's label; never an original word."""
    return _fallback([t], typ, ctx, avoid, 1)


def fallback_entity(toks: Sequence[str], typ: str, ctx: Context, avoid: set) -> list[str]:
    """fallback_word for a whole span: a faker value of the type with as many words where faker gives them."""
    return _fallback(toks, typ, ctx, avoid, len(toks))


def _fallback(toks, typ, ctx, avoid, n_words) -> list[str]:
    from ..categories.surrogates import category_value, is_category
    low = [t.lower() for t in toks]
    if is_category(typ):
        got = category_value(toks, typ, ctx)
        if got and clear(got, avoid) and [g.lower() for g in got] != low:
            return got
        return [typ]
    f = ctx.faker()

    def make():
        val = faker_value(typ, n_words, f) if typ in FAKER_TYPES else [f.word() for _ in range(n_words)]
        return ([w for w in val if identifying([w])][:1] or val[:1]) if n_words == 1 else val
    val = first_clear(make, avoid, low)
    return ctx.case(val) if val else [typ]


def category_fallback(sampler, originals, toks, typ, ctx) -> list[str] | None:
    """A sensitive-category span (HEALTH, BELIEF ...) whose corpus pool holds nothing but its original(s) gets a
    generated same-category value instead of the original back (None: not that case)."""
    from ..categories.surrogates import category_value, is_category, no_original_left
    if is_category(typ) and no_original_left(sampler, originals):
        return category_value(toks, typ, ctx)
    return None


def not_original(toks, out, typ, ctx) -> list[str]:
    """A category span's output that equals its original (case-insensitively) becomes a generated same-category
    value (a faker word or an exemplar that happens to be the original)."""
    from ..categories.surrogates import category_value, is_category, keeps_original
    return category_value(toks, typ, ctx) if is_category(typ) and keeps_original(toks, out) else out


KEEP_IN_NUMBERS = {"area", "code", "double", "triple", "and", "point", "dot", "at", "extension", "ext", "number",
                   "hundred", "thousand", "million", "billion",
                    "-", "(", ")", ",", ".", ":", "/", "+", "#"}


def generated_value(toks: Sequence[str], ctx: Context, typ: str | None = None) -> list[str]:
    """A generated surrogate for a number, identifier, e-mail or amount span: each number word or digit string is
    redrawn within its class and never equals the original (so a phone number never travels to another utterance);
    an e-mail address becomes a generated one; structure words ("area code", "double", "dot") are kept; any other
    word becomes a random digit word. A category type (seed 004 A.1: ADDRESS, CREDENTIAL, IP ...) gets its own
    generator (categories/surrogates.py). Letters spelled one by one become other letters."""
    if typ is not None:
        from ..categories.surrogates import category_value
        got = category_value(toks, typ, ctx)
        if got is not None:
            return got
    from ..grammars import spelled_spans
    # letters spelled one by one ("k o w a l s k i", not the "a" of "a hundred"), seen in the whole entity when a
    # word unit of it is replaced alone
    whole, at = (ctx.span, ctx.span_index) if len(toks) == 1 and ctx.span_index is not None else (toks, 0)
    spelled = {i - at for a, b in spelled_spans(whole) for i in range(a, b)}
    out = []
    for i, t in enumerate(toks):
        if i in spelled:
            out.append("-".join(other_letter(p, ctx.rng) for p in t.split("-")))
        elif t.lower() in KEEP_IN_NUMBERS:
            out.append(t)
        elif "@" in t and "." in t.split("@")[-1]:
            n = "".join(str(int(ctx.rng.integers(10))) for _ in range(4))
            out.append(f"user{n}@example.com")
        else:
            new = random_same_class(t, ctx.rng, avoid=True)
            lead = not any(number_class(x) for x in out) or (i + 1 < len(toks) and toks[i + 1].lower() in
                                                               ("hundred", "thousand", "million", "billion"))
            if new is not None and lead and new.lower() in ("zero", "oh", "o") and t.lower() not in ("zero", "oh", "o"):
                new = DIGIT_CLASS[int(ctx.rng.integers(1, 10))]     # a number starts with zero only if it did
                new = new if new != t.lower() else DIGIT_CLASS[(DIGIT_CLASS.index(new) % 9) + 1]
            out.append(new if new is not None else DIGIT_CLASS[int(ctx.rng.integers(10))])
    return ctx.case(out)




def flat(observed) -> set:
    """Tokens of a set of units (words, or tuples of words for entity strategies)."""
    out = set()
    for t in observed:
        out.update(t if isinstance(t, tuple) else (t,))
    return out


def _spoken_time(f) -> list[str]:
    h = DIGIT_CLASS[1:] + TEEN_CLASS[:3]
    r = f.random_int(0, 2)
    hour = h[f.random_int(0, len(h) - 1)]
    if r == 0:
        return [hour, f.random_element(["am", "pm"])]
    if r == 1:
        return [f.random_element(["half", "quarter"]), "past", hour]
    return [hour, "o'clock"]


# drawn by faker's seeded generator from fixed lists: faker's own day_of_week()/month_name() fall between 1970 and
# the current time, so their value would depend on when a run happens, not only on its seed
_WEEKDAY_NAMES = tuple(w.capitalize() for w in WEEKDAYS)
_MONTH_NAMES = tuple(m.capitalize() for m in MONTHS)


def _spoken_date(f) -> list[str]:
    r = f.random_int(0, 2)
    if r == 0:
        return [f.random_element(_WEEKDAY_NAMES)]
    if r == 1:
        return [f.random_element(_MONTH_NAMES), "the", _ORDINAL_CLASS[f.random_int(0, len(_ORDINAL_CLASS) - 1)]]
    return [f.random_element(_WEEKDAY_NAMES), "the", _ORDINAL_CLASS[f.random_int(0, len(_ORDINAL_CLASS) - 1)]]


FAKER_TYPES = ("PER", "LOC", "ORG", "DATE", "TIME")


def faker_value(typ: str, n_words: int, f) -> list[str]:
    if typ == "PER":
        return [f.last_name()] if n_words == 1 else [f.first_name(), f.last_name()]
    if typ == "LOC":
        return clean_tokens(f.city())
    if typ == "ORG":
        return clean_tokens(f.company())
    if typ == "DATE":
        return _spoken_date(f)
    if typ == "TIME":
        return _spoken_time(f)
    from ..categories.surrogates import LEXICON_POOLS
    if typ in LEXICON_POOLS:       # a sensitive category (HEALTH, BELIEF ...): a phrase of its public lexicon
        return f.random_element(LEXICON_POOLS[typ]).split()
    return clean_tokens(f.word())
