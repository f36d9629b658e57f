"""Category-aware surrogates for the A.1 types (used by the default `surrogate` strategy and, for the generated
types, by every strategy that generates values).

  HEALTH BELIEF ETHNICITY SEXUAL MARITAL PROFESSION   a whole phrase of the same category drawn uniformly from the
                                                      category's public lexicon (never the original nor a phrase
                                                      sharing one of its words: "depression" never becomes
                                                      "postnatal depression"), one unit per entity:
                                                      "high blood pressure" -> "asthma"
  AGE TRANSACTION                                     numbers redrawn within their class, structure kept
                                                      ("forty five years old" -> "sixty two years old")
  CREDENTIAL                                          generated: digits -> random digits, words -> random words
  ADDRESS                                             generated: house number redrawn, street name from a list,
                                                      suffix kept ("twelve Baker Street" -> "forty Cedar Street")
  IP, MAC                                             generated addresses of the same written or spoken form
  ID PHONE CARD EMAIL URL POSTCODE ACCOUNT PLATE      the same shape, a valid checksum, no original character group
                                                      (strategies/identifiers.py): "LS2 9JT" -> "WD7 4QP"

Generated types (GENERATED) are never drawn from a corpus pool: a password or an address of one utterance never
travels into another. Every surrogate differs from its original, compared case-insensitively.

The corpus-pool strategies (same_type, single_same_type, full_entity, pseudonymize) and faker fall back to
`category_value` for a category span whenever they could only give the original back (a pool whose only value is
the original, compared case-insensitively; a faker word equal to it): `no_original_left` / `keeps_original`.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..lexicon import DIGIT_CLASS, DIGIT_WORDS
from ..wordforms import match_case
from . import lexicons as L

LEXICON_POOLS = {
    "HEALTH": sorted(L.HEALTH_STRONG - {"me", "add", "als", "stroke"}),
    "BELIEF": sorted(L.BELIEF_STRONG | L.POLITICS),
    "ETHNICITY": sorted(L.ETHNIC_STRONG | L.DEMONYMS),
    "SEXUAL": ["gay", "lesbian", "bisexual", "straight", "heterosexual", "homosexual", "asexual", "pansexual",
               "transgender", "queer", "non binary"],
    "MARITAL": ["married", "divorced", "widowed", "separated", "engaged", "single", "remarried"],
    "PROFESSION": sorted(L.PROFESSIONS),
}
GENERATED = frozenset({"AGE", "TRANSACTION", "CREDENTIAL", "ADDRESS", "IP", "MAC"})
# identifiers: shape-keeping surrogates with valid checksums (strategies/identifiers.py), one unit per entity
GENERATED |= frozenset({"ID", "PHONE", "CARD", "EMAIL", "URL", "POSTCODE", "ACCOUNT", "PLATE"})
ENTITY_UNIT = frozenset(LEXICON_POOLS) | GENERATED     # replaced as whole spans by the surrogate strategy
_PROPER = {"BELIEF", "ETHNICITY"}     # proper adjectives: capitalised in cased text
_STREET_NAMES = ["Oak", "Cedar", "Maple", "Willow", "Birch", "Elm", "Ash", "Hazel", "Rowan", "Holly", "Laurel",
                 "Meadow", "Orchard", "Brook", "Spring", "Mill", "Church", "Station", "Victoria", "Albert", "George",
                 "Windsor", "Chapel", "Market", "Bridge", "Castle", "Garden", "Forest", "Lake", "River"]
_CRED_WORDS = ["amber", "falcon", "pebble", "orchid", "copper", "lantern", "harbor", "velvet", "thistle", "comet",
               "saffron", "juniper", "marble", "cobalt", "meadow", "quartz", "raven", "tundra", "willow", "zephyr"]
_HEX = "0123456789abcdef"


def _int(rng, lo, hi) -> int:
    return int(rng.integers(lo, hi + 1))


def _other_digit_word(orig: str, rng, lo: int = 0) -> str:
    """A digit word other than `orig`: a spoken PIN digit that comes back by chance leaks that digit in place."""
    value = DIGIT_WORDS.get(orig.lower())                 # "oh" is zero too
    choices = [w for w in DIGIT_CLASS[lo:10] if DIGIT_WORDS[w] != value]
    return choices[_int(rng, 0, len(choices) - 1)]


def _other_digits(tok: str, rng) -> str:
    """Each written digit redrawn among the nine others, for the same reason."""
    return re.sub(r"\d", lambda m: str((int(m.group()) + _int(rng, 1, 9)) % 10), tok)


def _number_token(tok: str, rng) -> str:
    from ..wordforms import random_same_class
    new = random_same_class(tok, rng, avoid=True)
    return tok if new is None else new


_SUBCLASSES = {"HEALTH": [L.HEALTH_TREATMENTS], "BELIEF": [L.POLITICS]}


def _agreeing(pool: list[str], orig: str) -> list[str]:
    """The pool entries of the original's sub-class ("insulin" -> a medication, "Labour" -> a party) that keep the
    sentence grammatical: same initial vowel/consonant (for "a"/"an") and same plural ending."""
    vowel = orig[:1] in "aeiou"
    plural = orig.endswith("s")
    for pick in (lambda w: (w[:1] in "aeiou") == vowel and w.endswith("s") == plural,
                 lambda w: (w[:1] in "aeiou") == vowel, lambda w: True):
        got = [w for w in pool if pick(w) and w != orig]
        if got:
            return got
    return pool


_SHAREABLE = {"a", "an", "the", "of", "and", "in", "on", "to", "with"}


def _shares_word(entry: str, orig_words: set) -> bool:
    """True when a lexicon entry repeats a content word of the original ("postnatal depression" for "depression",
    "roman catholic" for "Catholic"): such a surrogate would keep the original token."""
    return bool((set(entry.split()) - _SHAREABLE) & orig_words)


def _lexicon(toks, typ, ctx) -> list[str]:
    orig = " ".join(toks).lower()
    words = {w for t in toks for w in t.lower().replace("-", " ").split()} - _SHAREABLE
    pool = LEXICON_POOLS[typ]
    for sub in _SUBCLASSES.get(typ, []):
        if orig in sub:
            pool = sorted(sub)
            break
    else:
        subs = set().union(*_SUBCLASSES.get(typ, [set()]))
        pool = [w for w in pool if w not in subs] or pool
    pool = [w for w in pool if not _shares_word(w, words)] or \
        [w for w in LEXICON_POOLS[typ] if not _shares_word(w, words)]
    pool = _agreeing(pool, orig)
    val = pool[_int(ctx.rng, 0, len(pool) - 1)]
    out = val.split()
    if typ in _PROPER and not ctx.lower:
        out = [w[:1].upper() + w[1:] for w in out]
    return out


def _numbers_kept_structure(toks, ctx) -> list[str]:
    out = []
    for k, t in enumerate(toks):
        if t.lower() == "a" and k + 1 < len(toks) and toks[k + 1].lower() in ("hundred", "thousand"):
            out.append(DIGIT_CLASS[_int(ctx.rng, 2, 9)])     # "a hundred" -> "seven hundred"
        elif re.search(r"\d", t):
            out.append(_other_digits(t, ctx.rng))
        elif t.lower() in DIGIT_WORDS:              # "forty five" -> "sixty two", never "sixty zero"
            out.append(match_case([t], [_other_digit_word(t, ctx.rng, lo=1)])[0])
        else:
            out.append(_number_token(t, ctx.rng))
    return out


def _credential(toks, ctx) -> list[str]:
    out = []
    for t in toks:
        low = t.lower()
        if low in DIGIT_WORDS:
            out.append(_other_digit_word(low, ctx.rng))
        elif re.search(r"\d", t) and not re.search(r"[a-zA-Z]", t):
            out.append(_other_digits(t, ctx.rng))
        elif re.search(r"\d", t):                   # mixed "Sunshine99": a word + the same number of digits
            w = _CRED_WORDS[_int(ctx.rng, 0, len(_CRED_WORDS) - 1)]
            out.append(w.capitalize() + "".join(str(_int(ctx.rng, 0, 9)) for _ in range(sum(c.isdigit() for c in t))))
        else:
            w = _CRED_WORDS[_int(ctx.rng, 0, len(_CRED_WORDS) - 1)]
            out.append(w.capitalize() if t[:1].isupper() else w)
    if [o.lower() for o in out] == [t.lower() for t in toks]:
        out = [o + str(_int(ctx.rng, 0, 9)) for o in out]
    return out


def _address(toks, ctx) -> list[str]:
    from ..wordforms import number_class
    out = []
    for t in toks:
        low = t.lower()
        if low in L.STREET_SUFFIXES or low == "and":
            out.append(t)
        elif number_class(t) or re.fullmatch(r"\d+[a-z]?", low):
            out.append(re.sub(r"\d", lambda m: str(_int(ctx.rng, 1, 9)), t) if re.search(r"\d", t)
                       else _number_token(t, ctx.rng))
        else:
            for _ in range(16):
                w = _STREET_NAMES[_int(ctx.rng, 0, len(_STREET_NAMES) - 1)]
                if w.lower() != low:
                    break
            out.append(w)
    return out


def _ip(toks, ctx) -> list[str]:
    out = []
    for t in toks:
        if re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", t):
            out.append(".".join(str(x) for x in [10, _int(ctx.rng, 0, 255), _int(ctx.rng, 0, 255),
                                                 _int(ctx.rng, 1, 254)]))
        elif ":" in t:
            out.append(":".join("".join(_HEX[_int(ctx.rng, 0, 15)] for _ in range(4)) for _ in range(8)))
        elif t.lower() in DIGIT_WORDS:      # another digit in place, as for a PIN
            out.append(match_case([t], [_other_digit_word(t, ctx.rng)])[0])
        elif t.isdigit():
            out.append(str((int(t) + _int(ctx.rng, 1, 255)) % 256))
        else:
            out.append(_number_token(t, ctx.rng))
    return out


def _mac(toks, ctx) -> list[str]:
    out = []
    for t in toks:
        low = t.lower()
        if re.fullmatch(r"([0-9a-f]{2}[:-]){5}[0-9a-f]{2}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}", low):
            new = "".join(_HEX[_int(ctx.rng, 0, 15)] if c in _HEX else c for c in low)
            out.append(new.upper() if t.isupper() else new)
        elif low in DIGIT_WORDS:
            out.append(match_case([t], [_other_digit_word(t, ctx.rng)])[0])
        elif re.fullmatch(r"[0-9a-f]{1,2}", low):
            new = "".join(_HEX[_int(ctx.rng, 0, 15)] for _ in low)
            out.append(new.upper() if t.isupper() else new)
        else:
            out.append(t)
    return out


def _identifier(typ: str):
    """The shape-keeping surrogate of an identifier type (strategies/identifiers.py), imported on use."""
    def gen(toks, ctx):
        from ..strategies.identifiers import identifier_value
        return identifier_value(toks, typ, ctx)
    return gen


_GENERATORS = {"AGE": _numbers_kept_structure, "TRANSACTION": _numbers_kept_structure, "CREDENTIAL": _credential,
               "ADDRESS": _address, "IP": _ip, "MAC": _mac,
               "ID": _identifier("ID"),
               "PHONE": _identifier("PHONE"),
               "CARD": _identifier("CARD"),
               "EMAIL": _identifier("EMAIL"),
               "URL": _identifier("URL"),
               "POSTCODE": _identifier("POSTCODE"),
               "ACCOUNT": _identifier("ACCOUNT"),
               "PLATE": _identifier("PLATE")}


def category_value(toks: Sequence[str], typ: str, ctx) -> list[str] | None:
    """The surrogate of a category span (None: not a category type). `ctx` is strategies.Context."""
    if typ in LEXICON_POOLS:
        return ctx.case(_lexicon(toks, typ, ctx))
    gen = _GENERATORS.get(typ)
    if gen is None:
        return None
    for _ in range(16):
        out = gen(list(toks), ctx)
        if [o.lower() for o in out] != [t.lower() for t in toks]:
            break
    return ctx.case(out)


def is_category(typ: str) -> bool:
    return typ in ENTITY_UNIT


def _key(x) -> str:
    return x.lower() if isinstance(x, str) else " ".join(t.lower() for t in x)


def no_original_left(sampler, originals) -> bool:
    """True when every item of a corpus pool is one of `originals` (words, or tuples of words for whole entities),
    compared case-insensitively: drawing from it could only give an original back (a one-value pool)."""
    orig = {_key(o) for o in originals}
    return all(_key(x) in orig for x in sampler.items)


def keeps_original(toks: Sequence[str], out: Sequence[str]) -> bool:
    return [o.lower() for o in out] == [t.lower() for t in toks]
