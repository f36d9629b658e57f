"""Regular grammars for numbers, dates, times, amounts and e-mail addresses, spoken or written (seed 001 §3).

Seed 001 compiles BNF grammars to transducers and composes them with each utterance. We do the equivalent with
one regular expression per grammar over a *category string*: every token becomes one character naming its class
(D digit word, T teen, Y tens, M month, w weekday, ...), so a regex match [i, j) over that string is exactly the
token span [i, j). This works on lower-case, unpunctuated ASR output ("nine seven three area code one two three",
"double four", "oh") as well as on written text ("973-123-4567", "4111 1111 1111 1111", "10:30am", "$12.50").

Each match records its sub-type (phone, card, pin, id, number, amount, date, time, email); `type_map` turns it into
the entity type of the tag set (by default NUM for identifiers and amounts, DATE, TIME).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from .lexicon import (AMPM, CLOCK_WORDS, CURRENCY_WORDS, DAYPARTS, DIGIT_WORDS, MONTH_ABBR, MONTHS,
                      NUMBER_CONTEXT, ORDINAL_WORDS, RELATIVE_DAYS, RELATIVE_MODIFIERS, REPEAT_WORDS, SCALE_WORDS,
                      TEEN_WORDS, TENS_WORDS, TLDS, WEEKDAYS)
from .detector_registry import Detector
from .spans import Span

DEFAULT_TYPE_MAP = {"phone": "NUM", "card": "NUM", "pin": "NUM", "id": "NUM", "number": "NUM", "amount": "AMOUNT",
                    "email": "NUM", "date": "DATE", "time": "TIME", "spelled": "NUM"}
_RE_SPELLED = re.compile(r"^[A-Za-z](-[A-Za-z]){2,}$")      # "K-O-W-A-L-S-K-I"


def spelled_spans(tokens: Sequence[str], min_letters: int = 3) -> list[tuple[int, int]]:
    """Words spelled out letter by letter, as callers spell a name, an e-mail or a reference: a run of at least
    `min_letters` single-letter tokens ("k o w a l s k i", the pronoun "I" and the article "a" included), or one
    token of letters joined by hyphens."""
    out, i = [], 0
    while i < len(tokens):
        if _RE_SPELLED.match(tokens[i]):
            out.append((i, i + 1))
            i += 1
            continue
        j = i
        while j < len(tokens) and len(tokens[j]) == 1 and tokens[j].isalpha():
            j += 1
        if j - i >= min_letters:
            out.append((i, j))
        i = max(j, i + 1)
    return out

_RE_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
_RE_WDATE = re.compile(r"^(\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4})$")
_RE_WPHONE = re.compile(r"^\+?\(?\d{2,4}\)?[-./]\d{3,4}[-./]?\d{3,4}$")
_RE_WTIME = re.compile(r"^(\d{1,2}:\d{2}(:\d{2})?([ap]\.?m\.?)?|\d{1,2}[ap]\.?m\.?)$", re.I)
_RE_WAMOUNT = re.compile(r"^([$€£]\d[\d,]*(\.\d+)?|\d[\d,]*(\.\d+)?[$€£])$")
_RE_WORD_ORD = re.compile(r"^\d{1,2}(st|nd|rd|th)$", re.I)
_RE_DIGITS = re.compile(r"^\d+([-,]\d+)*$")
_RE_YEAR = re.compile(r"^((1[89]|20)\d\d|'\d0s|\d0'?s|(19|20)\d0'?s)$")   # 1999, 2020, '90s, 80s, 1990s
_DECADE_WORDS = {"twenties", "thirties", "forties", "fourties", "fifties", "sixties", "seventies", "eighties",
                 "nineties"}
_CLOCK_UNITS = {"second", "seconds", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs"}
_DAY_UNITS = {"day", "days", "weeks", "months", "years", "decade", "decades"}
_CALENDAR = {"fiscal", "financial", "fy", "q1", "q2", "q3", "q4", "h1", "h2"}
_MONTHS = set(MONTHS) | MONTH_ABBR
_TRAILING_PUNCT = ".,;:!?"


def token_category(tok: str) -> str:
    """One character naming the grammar class of a token."""
    low = tok.lower()
    if low not in (".", ",") and len(low) > 1:
        low = low.rstrip(_TRAILING_PUNCT) or low
    if low == ",":
        return ","
    if _RE_EMAIL.match(low):
        return "E"
    if _RE_EMAIL_HEAD.match(low):    # "jack@gmail" of a spoken "jack@gmail dot com"
        return "a"
    if low in DIGIT_WORDS or re.fullmatch(r"\d", low):
        return "D"
    if _RE_WDATE.match(low):
        return "V"
    if _RE_WTIME.match(low):
        return "Q"
    if _RE_WPHONE.match(low):
        return "P"
    if _RE_WAMOUNT.match(low):
        return "G"
    if _RE_YEAR.match(low) or low in _DECADE_WORDS:
        return "Z"
    if _RE_WORD_ORD.match(low) or low in ORDINAL_WORDS:
        return "O"
    if _RE_DIGITS.match(low):
        return "W"
    if low in ("$", "€", "£"):
        return "S"
    if low in TEEN_WORDS:
        return "T"
    if low in TENS_WORDS:
        return "Y"
    if low in REPEAT_WORDS:
        return "R"
    if low in SCALE_WORDS:
        return "H"
    if low in _MONTHS:
        return "M"
    if low in WEEKDAYS or low.endswith("s") and low[:-1] in WEEKDAYS:   # "on wednesdays"
        return "w"
    if low in ("o'clock", "oclock"):
        return "c"
    if low == "clock":
        return "k"
    if low in AMPM:
        return "m"
    if low in CLOCK_WORDS:
        return "n"
    if low in DAYPARTS:
        return "g"
    if low in MEALS:
        return "h"
    if low == "time" or low == "times":
        return "v"
    if low in CURRENCY_WORDS:
        return "$"
    if low in RELATIVE_DAYS:
        return "r"
    if low in RELATIVE_MODIFIERS:
        return "x"
    if low == "weekend":
        return "e"
    if low in ("week", "month", "year"):
        return "u"
    if low in _DAY_UNITS:
        return "U"
    if low in _CLOCK_UNITS:
        return "s"
    if low == "now":
        return "y"
    if low == "from":
        return "F"
    if low == "ago" or low == "later":
        return "l"
    if low in ("within", "for"):
        return "I"
    if low in _CALENDAR:
        return "K" if low == "fiscal" or low == "financial" or low == "fy" else "J"
    if low == ":":
        return ":"
    if low in ("beginning", "middle", "end", "start"):
        return "b"
    if low == "a":
        return "j"
    if low in ("half", "quarter"):
        return "q"
    if low in ("past", "to", "after", "till", "before"):
        return "p"
    if low == "area":
        return "A"
    if low == "code":
        return "C"
    if low in ("extension", "ext"):
        return "X"
    if low in NUMBER_CONTEXT:
        return "N"
    if low == "the":
        return "t"
    if low == "of":
        return "f"
    if low == "in":
        return "i"
    if low == "and":
        return "&"
    if low == "point":
        return "z"
    if low == "dot":
        return "d"
    if low == "at":
        return "@"
    if low in TLDS:
        return "L"
    return "."


# meals name a time of day after "at" or before "time" ("at lunch", "brunch time"); alone they are food
MEALS = {"breakfast", "brunch", "lunch", "lunchtime", "dinner", "supper", "meal", "tea"}
_RE_EMAIL_HEAD = re.compile(r"^[\w.+-]+@[\w-]+$")
_AMBIGUOUS_MONTHS = {"may", "march"}   # also a modal verb / a verb: a month only when cased or next to a day


def categories(tokens: Sequence[str]) -> str:
    cats = [token_category(t) for t in tokens]
    for i, tok in enumerate(tokens):
        if cats[i] == "M" and tok.lower() in _AMBIGUOUS_MONTHS and not tok[:1].isupper():
            nxt = cats[i + 1] if i + 1 < len(tokens) else ""
            prv = cats[i - 1] if i > 0 else ""
            if not (nxt and nxt in "ODWTYt" or prv in ("f", "i") and i > 1 and cats[i - 2] in "O"):
                cats[i] = "."
    # spoken "a m" / "p m", and "o clock"
    for i in range(len(tokens) - 1):
        a, b = tokens[i].lower(), tokens[i + 1].lower().rstrip(_TRAILING_PUNCT)
        if a in ("a", "p") and b == "m":
            cats[i] = cats[i + 1] = "m"
        if a == "o" and b == "clock":
            cats[i] = cats[i + 1] = "c"
    return "".join(cats)


_NUMT = r"(?:[DT]|YD?)"                     # a clock number 1..59 spoken
_ORD = r"(?:Y?O)"                           # "fourteenth", "twenty first"
_YEAR = r"(?:T(?:Y|T|D)D?|TH(?:&?[DTY]D?)?|YD?|DH&?(?:[DTY]D?)?|DH|W)"
_NUMW = r"(?:RD|[DWTYHz&])"

# (sub-type, pattern); longer matches win, then earlier grammars.
GRAMMARS: list[tuple[str, str]] = [
    ("email", r"E"),
    ("email", r"a(?:d[^@d,])*dL"),
    ("email", r"[^@d,.](?:d[^@d,])*@[^@d,](?:d[^@d,])*dL|\.(?:d[^@d,])*@[^@d,](?:d[^@d,])*dL"),
    ("email", r"[^@d,t](?:d[^@d,])+dL"),    # a spoken web address: "www dot vorondil dot net" (two dots or more)
    ("date", r"V"),
    ("date", rf"x?w,?(?:t?{_ORD}(?:fM)?)?"),
    ("date", rf"t?{_ORD},?f?M(?:,?f?{_YEAR})?"),                 # the fifth of april, fifth april
    ("date", rf"M,?t?(?:{_ORD}|[DW]|T|YD?)(?:,?f?{_YEAR})?"),
    ("date", rf"Mf{_YEAR}"),
    ("date", r"M"),
    ("date", rf"t{_ORD}"),
    ("date", r"r|x[uw]|[xt]?e"),
    ("date", r"t?bfM|t?{_ORD}ufM|t?{_ORD}u(?:fx?u)?".replace("{_ORD}", _ORD)),
    ("date", r"(?<=i)T[TY]D?"),
    ("date", r"t?Z"),                                            # 1990, 2020, the 70s, the eighties
    ("date", rf"t?{_ORD}q(?:f(?:t?u|Z|W))?|J(?:Z|W)?|K(?:u|Z|W|q)|t?bfZ"),   # the third quarter (of 2019),
    #                                                                         fiscal 2020, Q3 2021
    ("date", rf"[iI]?(?:{_NUMW}|j)+[uU](?:Fy|l)?"),               # in two weeks, three days from now
    ("time", rf"[iI]?(?:{_NUMW}|j)+s(?:&?(?:{_NUMW}|j)+s)*(?:Fy|l)?"),   # fifteen minutes from now
    ("time", r"Q(?:m)?"),
    ("wtime", r"[DW]:[DW]m?|[DW][DW]?m"),                        # 7 : 30 pm, 10 am, 7 30 pm
    ("time", rf"{_NUMT}c"),
    ("time", rf"j?(?:q|{_NUMT})p{_NUMT}(?:c|m)?"),
    ("clock", r"[DT](?:YD?|DD|T)"),
    ("time", rf"{_NUMT}{_NUMT}?m(?:itg)?"),
    ("time", rf"{_NUMT}{_NUMT}?(?:c)?itg"),
    ("time", r"n|xg|(?<=[rw])g"),                                # this morning; (tomorrow) morning
    ("time", r"(?<=@)h|h(?=v)"),                                 # at lunch, (at) dinner (time), brunch (time)
    ("time", rf"(?<=@){_NUMT}{_NUMT}?(?=[^DWRTYHmc]|$)"),
    ("amount", r"G|SW"),
    ("amount", rf"{_NUMW}+\$(?:&{_NUMW}+\$)?"),
    ("phone", r"P"),
    ("number", r"(?:AC)?(?:R[DW]|[DWTYH])(?:AC|R[DW]|[DWTYH]|&(?=[DTYH]))*"),
]
_COMPILED = [(sub, re.compile(pat)) for sub, pat in GRAMMARS]


def _is_clock(toks: Sequence[str]) -> bool:
    """'ten thirty', 'three forty five', 'five oh five', 'twelve fifteen': an hour 1-12 then valid minutes."""
    low = [t.lower() for t in toks]
    hour = {**DIGIT_WORDS, **TEEN_WORDS}.get(low[0])
    if hour is None or not 1 <= hour <= 12:
        return False
    rest = low[1:]
    if len(rest) == 2 and rest[0] in ("oh", "o") and rest[1] in DIGIT_WORDS:
        return True
    if len(rest) == 1 and rest[0] in TEEN_WORDS:
        return True
    if rest and rest[0] in TENS_WORDS and TENS_WORDS[rest[0]] <= 50:
        return len(rest) == 1 or (len(rest) == 2 and rest[1] in DIGIT_WORDS and DIGIT_WORDS[rest[1]] > 0)
    return False


def _is_written_clock(toks: Sequence[str], cats: str) -> bool:
    """'7 : 30 pm', '10 am', '7 30 pm', '9 pm': an hour 0-24 (1-12 before am/pm), then minutes 00-59."""
    nums = [t for t, c in zip(toks, cats) if c in "DW"]
    vals = []
    for t in nums:
        v = DIGIT_WORDS.get(t.lower()) if not t.isdigit() else int(t)
        if v is None or not t.isdigit() and t.lower() in ("oh", "o", "nought"):
            return False
        vals.append(v)
    has_ampm = cats.endswith("m")
    if not vals or not (1 if has_ampm else 0) <= vals[0] <= (12 if has_ampm else 24):
        return False
    if len(vals) == 2 and not (0 <= vals[1] <= 59 and len(nums[1]) == 2 and nums[1].isdigit()):
        return False
    return has_ampm or ":" in cats


def luhn_ok(digits: str) -> bool:
    if not digits.isdigit() or len(digits) < 2:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def count_digits(tokens: Sequence[str], cats: str) -> tuple[int, str | None]:
    """Number of digits a spoken/written number run stands for, and its digit string when fully written."""
    n = 0
    written = []
    all_written = True
    for i, (tok, c) in enumerate(zip(tokens, cats)):
        low = tok.lower().rstrip(_TRAILING_PUNCT) or tok
        if c == "D":
            n += 1
            if low.isdigit():
                written.append(low)
            else:
                all_written = False
        elif c == "W" or c == "P":
            ds = re.sub(r"\D", "", low)
            n += len(ds)
            written.append(ds)
        elif c == "R":
            n += REPEAT_WORDS[low] - 1
            all_written = False
        elif c in "TY":
            n += 1 if (c == "Y" and i + 1 < len(cats) and cats[i + 1] == "D") else 2
            all_written = False
        elif c == "H":
            n += 2
            all_written = False
    return n, ("".join(written) if all_written and written else None)


CALL_VERBS = frozenset({"call", "ring", "text", "dial", "phone", "reach", "contact", "whatsapp", "sms"})


@dataclass
class GrammarConfig:
    min_digits: int = 3          # a bare digit run shorter than this needs a context word ("number", "extension")
    context_window: int = 2      # how many tokens before a short run may hold the context word
    type_map: dict | None = None


# a number right after one of these names a provision of a law or of rules of procedure ("Article 8", "Rule 52 § 1",
# "section 189", in ASR-style text "rule 52 1"), not a person's identifier; a run of 7 digits or more still is one
PROVISION_WORDS = frozenset({"article", "articles", "art", "rule", "rules", "section", "sections", "subsection",
                             "paragraph", "paragraphs", "para", "chapter", "protocol", "regulation", "clause",
                             "schedule", "§", "§§"})


_REFERENCE = re.compile(r"(?:[A-Za-z]{1,3}[-‑])?(\d{3,7})/\d{2,4}")


def is_reference_number(tok: str) -> bool:
    """A written file or application number: 3-7 digits, a slash, the 2- or 4-digit year ("28045/02", "nos.
    4578/04"); a date's day or month never has three digits, so "12/05" stays a date."""
    return _REFERENCE.fullmatch(tok) is not None


class GrammarDetector(Detector):
    """Spoken and written numbers, dates, times, amounts, e-mails (seed 001 grammars)."""

    name = "grammar"
    # the default types, and the sub-types a type_map may give their own type (phone -> PHONE ...; number and
    # spelled stay NUM)
    types = tuple(dict.fromkeys(list(DEFAULT_TYPE_MAP.values()) +
                                [k.upper() for k in DEFAULT_TYPE_MAP if k not in ("number", "spelled")]))

    def __init__(self, config: GrammarConfig | None = None, references: bool = True, **kw):
        self.config = config or GrammarConfig(**kw)
        self.type_map = dict(DEFAULT_TYPE_MAP, **(self.config.type_map or {}))
        self.references = references      # written application numbers (a court rule: detectors.RULE_GROUPS)

    @classmethod
    def from_config(cls, cfg) -> "GrammarDetector":
        return cls(GrammarConfig(**cfg.grammar), references="court" not in cfg.rules_off)

    def _classify_number(self, tokens, cats, start, end) -> str | None:
        n, written = count_digits(tokens[start:end], cats[start:end])
        if start > 0 and tokens[start - 1].lower().rstrip(".") in PROVISION_WORDS and n < 7:
            return None
        before = cats[max(0, start - self.config.context_window):start]
        has_context = any(c in "NXC" for c in before)
        if "AC" in cats[start:end] or (7 <= n <= 12 and "P" not in cats[start:end] and written is None):
            return "phone" if n >= 7 else ("id" if n >= self.config.min_digits or has_context else None)
        if written is not None and 13 <= len(written) <= 19:
            return "card" if luhn_ok(written) else "id"
        if written is not None and 7 <= len(written) <= 12:
            # a phone number: after "number"/"phone", after a calling verb ("call me on", "text me at"), or written
            # in groups with a trunk prefix ("07911 123456", "0161 496 0000")
            calling = any(t.lower() in CALL_VERBS for t in tokens[max(0, start - 3):start])
            grouped = end - start >= 2 and written.startswith("0") and 10 <= len(written) <= 11
            return "phone" if (has_context and "N" in before) or calling or grouped else "id"
        if n >= self.config.min_digits:
            if "H" in cats[start:end] and not has_context and n < 7:
                return None   # "nine hundred and ninety" with no context word is a quantity, not a digit string
            return "pin" if n <= 6 and has_context else ("id" if n > 6 else "number")
        if has_context and n >= 1:
            return "number"
        return None

    def candidates(self, tokens: Sequence[str]) -> list[tuple[int, int, str]]:
        cats = categories(tokens)
        found: list[tuple[int, int, str, int]] = []
        for rank, (sub, rx) in enumerate(_COMPILED):
            pos = 0
            while pos < len(cats):
                m = rx.search(cats, pos)
                if not m:
                    break
                a, b = m.start(), m.end()
                if b == a:
                    pos = a + 1
                    continue
                # strip leading/trailing commas and articles that only glue the grammar together
                while b > a and cats[b - 1] in ",&":
                    b -= 1
                while a < b and cats[a] in ",":
                    a += 1
                label = sub
                if sub == "clock":
                    label = "time" if _is_clock(tokens[a:b]) else None
                if sub == "wtime":
                    label = "time" if _is_written_clock(tokens[a:b], cats[a:b]) else None
                if sub == "number":
                    label = self._classify_number(tokens, cats, a, b)
                if label and b > a:
                    found.append((a, b, label, rank))
                pos = m.end()
        # named days: holidays and observances (holidays.py), before the grammars' own dates when longer
        from .holidays import holiday_spans
        found += [(a, b, "date", -1) for a, b in holiday_spans(tokens)]
        found += [(a, b, "spelled", -2) for a, b in spelled_spans(tokens)]
        if self.references:
            found += [(i, i + 1, "id", -3) for i, t in enumerate(tokens) if is_reference_number(t)]
        # longest first, then grammar order; keep non-overlapping
        found.sort(key=lambda x: (-(x[1] - x[0]), x[3], x[0]))
        taken = [False] * len(tokens)
        kept = []
        for a, b, label, _ in found:
            if not any(taken[a:b]):
                kept.append((a, b, label))
                for i in range(a, b):
                    taken[i] = True
        return sorted(kept)

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        return [Span(a, b, self.type_map[label], {f"grammar:{label}"}) for a, b, label in self.candidates(tokens)]
