"""Shape-keeping surrogates of identifiers (ID PHONE CARD EMAIL URL POSTCODE ACCOUNT PLATE), for every strategy that
generates values (registered in categories/surrogates._GENERATORS).

The surrogate has the shape of its original: the same digit and letter groups and separators ("LS2 9JT" -> "WD7
4QP", "078-05-1120" -> "412-37-5586"), the same spoken form ("two nine J T" -> "five three R M", "double five" ->
"double eight", "seventy seven" -> "forty two", "charlie foxtrot" -> "papa sierra"); a valid checksum when the
original's format has one and the original passes it (Luhn, IBAN mod 97, NHS mod 11, NIF letter ...), so the
surrogate looks real; no character group (a written group between separators, a spoken word) of the original comes
back. Kept as structure: separators, "double"/"triple", "at"/"dot"/"slash", a web scheme, "www", the top-level
domain, an IBAN's or a phone number's country prefix (they name a country, not a person). Drawn from ctx.rng:
seeded.
"""

from __future__ import annotations

import re
import string
from typing import Sequence

from ..identifiers.formats import COMPILED, compact, valid_ip
from ..identifiers.spoken import NATO, compact_of
from ..lexicon import DIGIT_CLASS, DIGIT_WORDS, REPEAT_WORDS, TEEN_CLASS, TEEN_WORDS, TENS_CLASS, TENS_WORDS, TLDS
from ..wordforms import match_case
from .codes import redraw_code

SHAPED_TYPES = frozenset({"ID", "PHONE", "CARD", "EMAIL", "URL", "POSTCODE", "ACCOUNT", "PLATE"})
_KEEP_WORDS = {"double", "triple", "at", "dot", "slash", "dash", "hyphen", "underscore", "colon", "plus", "and",
               "area", "code", "extension", "ext", "w", "www", "http", "https", "uh", "um", "then"} | set(TLDS)
_NATO_BY_LETTER: dict[str, list[str]] = {}
for _w, _l in NATO.items():
    _NATO_BY_LETTER.setdefault(_l, []).append(_w)
_NATO_WORDS = sorted({ws[0] for ws in _NATO_BY_LETTER.values()})
_WORDS = ["amber", "falcon", "pebble", "orchid", "copper", "lantern", "harbor", "velvet", "thistle", "comet",
          "saffron", "juniper", "marble", "cobalt", "meadow", "quartz", "raven", "tundra", "willow", "zephyr"]
MAX_TRIES = 4000


def _pick(rng, seq, avoid=None):
    choices = [c for c in seq if c != avoid] or list(seq)
    return choices[int(rng.integers(len(choices)))]


def _written_token(t: str, typ: str, rng, first: bool) -> str:
    """Every digit a random digit and every letter another letter of the same case (codes.redraw_code); separators,
    a scheme, "www", the TLD and a country prefix kept."""
    if typ in ("EMAIL", "URL"):
        return _address(t, rng)
    keep = 0
    if first and typ == "ACCOUNT" and re.match(r"[A-Z]{2}\d{2}", t):
        keep = 2                                          # the IBAN's country code
    if first and typ == "PHONE" and t.startswith("+"):
        keep = len(t) if t[1:].isdigit() and len(t) <= 4 else 1     # "+44" alone: the country prefix
    return redraw_code(t, rng, keep, any_digit=True)    # identifier_value refuses original groups


def _address(t: str, rng) -> str:
    m = re.match(r"(https?://)?(www\.)?(.*)", t, re.I)
    scheme, www, rest = m.group(1) or "", m.group(2) or "", m.group(3)
    parts = re.split(r"([@./:_+-])", rest)
    last_label = max((i for i, p in enumerate(parts) if p and p.isalnum() and i > 0 and parts[i - 1] == "."),
                     default=None)
    if "/" in rest:       # the TLD of a URL is the label before its first "/"
        slash = parts.index("/")
        last_label = max((i for i in range(slash) if parts[i].isalnum() and i > 0 and parts[i - 1] == "."),
                         default=last_label)
    out = []
    for i, p in enumerate(parts):
        if not p or not p.isalnum() or i == last_label:
            out.append(p)
        else:
            out.append("".join(str(int(rng.integers(10))) if c.isdigit() else
                               _pick(rng, string.ascii_lowercase, c.lower()) for c in p))
    return scheme + www + "".join(out)


def _spoken_token(toks: Sequence[str], i: int, rng) -> str | None:
    """The spoken word at i redrawn within its class (None: not a spoken piece)."""
    t = toks[i]
    low = t.lower()
    prev = toks[i - 1].lower() if i > 0 else ""
    if low in DIGIT_WORDS and low != "o":
        lo = 1 if prev in TENS_WORDS else 0               # "forty two", never "forty zero"
        return match_case([t], [_pick(rng, DIGIT_CLASS[lo:], DIGIT_CLASS[DIGIT_WORDS[low]])])[0]
    if low in TENS_WORDS:
        return match_case([t], [_pick(rng, TENS_CLASS, low)])[0]
    if low in TEEN_WORDS:
        return match_case([t], [_pick(rng, TEEN_CLASS, low)])[0]
    if low in NATO:
        return match_case([t], [_pick(rng, _NATO_WORDS, _NATO_BY_LETTER[NATO[low]][0])])[0]
    if len(t) == 1 and t.isalpha():
        new = _pick(rng, string.ascii_uppercase, t.upper())
        return new if t.isupper() else new.lower()
    return None


def _one(toks: Sequence[str], typ: str, rng) -> list[str]:
    out = []
    first = True
    for i, t in enumerate(toks):
        low = t.lower()
        if low in _KEEP_WORDS or low in REPEAT_WORDS or not any(c.isalnum() for c in t):
            out.append(t)
            continue
        new = _spoken_token(toks, i, rng)
        if new is None:
            if any(c.isdigit() for c in t) or t.isupper() or re.search(r"[@./:]", t):
                new = _written_token(t, typ, rng, first)
            else:                                          # a word of a spoken address ("bloggs", "gmail")
                new = _pick(rng, _WORDS, low)
        out.append(new)
        first = False
    return out


def _groups(toks: Sequence[str]) -> set[str]:
    """The character groups of a span's written tokens of two characters or more (the alphanumeric runs between
    separators: "LS2", "9JT", "1120"); spoken words and single characters are compared in place (_same_place)."""
    out = set()
    for i, t in enumerate(toks):
        if _spoken_token(toks, i, _NoRng()) is None:
            out |= {g.lower() for g in re.findall(r"[A-Za-z0-9]+", t) if len(g) > 1}
    return out


def _same_place(toks: Sequence[str], out: Sequence[str], keep: set[str]) -> bool:
    """A spoken word or a one-character group that comes back in its own place ("seven" for "seven")."""
    return any(t.lower() == o.lower() and t.lower() not in keep and t.lower() not in _KEEP_WORDS
               and t.lower() not in REPEAT_WORDS and (len(t) == 1 or _spoken_token(toks, i, _NoRng()) is not None)
               for i, (t, o) in enumerate(zip(toks, out)))


def _structure(toks: Sequence[str], typ: str) -> set[str]:
    keep = {w for w in _groups(toks) if w in _KEEP_WORDS or w in REPEAT_WORDS}
    if toks:
        m = re.match(r"\+(\d{1,3})$", toks[0])
        if typ == "PHONE" and m:
            keep.add(m.group(1))
        if typ == "ACCOUNT" and re.match(r"[A-Z]{2}\d{2}", toks[0]):
            keep.add(toks[0][:2].lower())
    for t in toks:
        for m in re.finditer(r"(https?)://|(www)\.|\.([a-z]{2,4})(?=$|/)", t.lower()):
            keep |= {g for g in m.groups() if g}
    return keep


def _written(toks: Sequence[str]) -> bool:
    return all(_spoken_token(toks, i, _NoRng()) is None for i in range(len(toks)))


def _fits(f, rx_any, crx, toks, written) -> bool:
    if written:
        return rx_any.fullmatch(" ".join(toks)) is not None
    return crx is not None and crx.fullmatch(compact_of(toks)) is not None


def _check_of(toks: Sequence[str], typ: str):
    """The checksum the original passes (None: its format has none, or it fails it)."""
    written = _written(toks)
    for f, _, rx_any, crx in COMPILED:
        if f.type != typ or f.check is None or f.type == "PHONE":
            continue
        if _fits(f, rx_any, crx, toks, written) and f.check(compact_of(toks)):
            return f.check
    return None


def _format_of(toks: Sequence[str], typ: str):
    """The first format of `typ` whose shape (letter classes included) the original has: the surrogate keeps it."""
    written = _written(toks)
    return next(((f, rx_any, crx) for f, _, rx_any, crx in COMPILED
                 if f.type == typ and not f.cue and _fits(f, rx_any, crx, toks, written)), None)


class _NoRng:
    def integers(self, n):
        return 0


def identifier_value(toks: Sequence[str], typ: str, ctx) -> list[str]:
    """A surrogate of the same shape as `toks`, with a valid checksum when the original has one, sharing no character
    group with it (structure aside)."""
    toks = list(toks)
    check = _check_of(toks, typ)
    shape = _format_of(toks, typ)
    written = _written(toks)
    keep = _structure(toks, typ)
    orig = _groups(toks) - keep
    out = toks
    for _ in range(MAX_TRIES):
        out = _one(toks, typ, ctx.rng)
        if out == toks or (_groups(out) & orig) or _same_place(toks, out, keep):
            continue
        if check is not None and not check(compact_of(out)):
            continue
        if shape is not None and not _fits(*shape, out, written):
            continue
        if typ == "IP" and not valid_ip(out[0]):
            continue
        break
    return out


def is_valid_like(toks: Sequence[str], typ: str) -> bool:
    """True when `toks` passes the checksum of a format of `typ` (tests and the bench)."""
    return _check_of(toks, typ) is not None


__all__ = ["SHAPED_TYPES", "compact", "identifier_value", "is_valid_like"]
