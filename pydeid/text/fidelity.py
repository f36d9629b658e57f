"""Does a surrogate pass for a real value of its original's kind? One checker per kind, written independently of
the generators (strategies/shapes.py) so that it can catch them out:

  code        a written identifier (digits, or letters and digits, with separators): the same shape (each digit a
              digit, each letter a letter of the same case, separators in place) and no original group of letters
              or digits kept (in its place; anywhere for a group of two characters or more); a British postcode a
              British postcode of a real area
  date        a written date (12/03/2019, 2019-03-12) a valid date of the same format; spoken and written days
              valid (no "the thirty-second", no "February 30", no "52nd"); a year a plausible year
  time        a written time (10:30, 7pm) a valid time of the same format
  relative    a relative date or a duration ("in a month", "next week", "two hours", "tomorrow") stays relative:
              a time unit or a relative day, no month, weekday or calendar day
  number      a count or number (digits or number words) stays a number of the same style (digits / words)
  calendar    a month or weekday name stays a month or weekday name, whatever its type
  title       every title of the original ("Mr", "Dr", "Judge") is kept in place
  gender      the first name agrees with a gendered title or the first pronoun after it
  article     an "a"/"an" before the span (or inside it) agrees with the word after it
  letters     no single letter where the original had a word ("in d month")
  word-class  a part of the day, clock word, month, weekday or relative day stays one of its class in place
  case        a lower-case original gives a lower-case surrogate, a capitalised one a capitalised one

`check` returns the failed checks of one (original, surrogate) pair; `kind` the class a pair is counted in.
"""

from __future__ import annotations

import datetime
import re
from typing import Sequence

from .lexicon import DIGIT_WORDS, MONTHS, ORDINALS, SCALE_WORDS, TEEN_WORDS, TENS_WORDS, WEEKDAYS

_UNITS = {"second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "fortnight",
          "fortnights", "month", "months", "year", "years", "weekend", "weekends", "decade", "decades"}
_RELATIVE_DAYS = {"today", "tomorrow", "yesterday", "tonight"}
_RELATIVE_MARKS = {"next", "last", "this", "coming", "ago", "later", "following", "previous", "past", "within"}
_TITLES = {"mr", "mrs", "ms", "miss", "mister", "misses", "missus", "dr", "doctor", "prof", "professor", "sir",
           "dame", "lord", "lady", "judge", "justice", "rev", "reverend", "captain", "officer", "sergeant",
           "detective", "inspector", "president", "senator", "mayor", "minister"}
_FEMALE_CUES = {"mrs", "ms", "miss", "misses", "missus", "dame", "lady", "she", "her", "hers", "herself"}
_MALE_CUES = {"mr", "mister", "sir", "lord", "he", "him", "his", "himself"}
_PRONOUNS = {"she", "her", "hers", "herself", "he", "him", "his", "himself"}
_UK_POSTCODE = re.compile(r"^([A-Z]{1,2})\d[A-Z\d]? ?\d[A-Z]{2}$")
_WDATE = re.compile(r"^(\d{1,4})([-/.])(\d{1,2})\2(\d{2,4})[.,]?$")
_WTIME = re.compile(r"^(\d{1,2})(:(\d{2}))?(:\d{2})?\s?([ap]\.?m\.?)?$", re.I)
_DAY_ORD = re.compile(r"^(\d{1,2})(st|nd|rd|th)$", re.I)
_NUMBER_WORDS = set(DIGIT_WORDS) | set(TEEN_WORDS) | set(TENS_WORDS) | set(SCALE_WORDS) | {"and", "a", "double",
                                                                                             "triple"}
_ORD_WORDS = set(ORDINALS) | {f"{t}-{o}" for t in ("twenty", "thirty") for o in ORDINALS if ORDINALS[o] < 10}


def _low(toks) -> list[str]:
    return [t.lower().strip(".,;:!?") for t in toks]


def _groups(s: str) -> list[str]:
    return re.findall(r"[A-Za-z]+|\d+", s)


def _shape(s: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", s)))


def is_written_code(toks: Sequence[str]) -> bool:
    s = "".join(toks)
    return 1 <= len(toks) <= 3 and all(re.fullmatch(r"[A-Za-z0-9]+([-/.:][A-Za-z0-9]+)*[.,]?", t) for t in toks) \
        and all(re.search(r"\d", t) or (t.isupper() and len(t) <= 3) for t in toks) \
        and (sum(c.isdigit() for c in s) >= 3 or (any(c.isdigit() for c in s) and any(c.isalpha() for c in s))) \
        and not any(_DAY_ORD.match(t) for t in toks) and not any(t.lower() in ("am", "pm") for t in toks)


def _valid_written_date(tok: str) -> bool:
    m = _WDATE.match(tok)
    if not m:
        return False
    a, _, b, c = m.groups()
    try:
        if len(a) == 4:
            datetime.date(int(a), int(b), int(c))
            return True
        y = int(c) if len(c) == 4 else 2000 + int(c)
        for d, mo in ((int(a), int(b)), (int(b), int(a))):
            try:
                datetime.date(y, mo, d)
                return True
            except ValueError:
                pass
    except ValueError:
        pass
    return False


def _is_written_date(tok: str) -> bool:
    m = _WDATE.match(tok)
    if not m:
        return False
    a, _, b, c = m.groups()
    return (len(a) == 4 and int(b) <= 12) or (len(a) <= 2 and len(c) in (2, 4) and min(int(a), int(b)) <= 12
                                                 and max(int(a), int(b)) <= 31)


def _valid_written_time(tok: str) -> bool:
    m = _WTIME.match(tok)
    if not m or (m.group(2) is None and m.group(5) is None):
        return False
    h = int(m.group(1))
    if m.group(5):
        return 1 <= h <= 12 and (m.group(3) is None or int(m.group(3)) < 60)
    return h <= 23 and int(m.group(3)) < 60


def _is_relative(toks) -> bool:
    low = _low(toks)
    for i, w in enumerate(low):
        if w not in _UNITS:
            continue
        prev = low[i - 1] if i else ""
        if w == "second" and prev not in ("a", "one", "1"):
            continue                    # "the twenty second" is a day
        if w in ("day", "days") and (prev.endswith("'s") or prev == "'" or toks[i][:1].isupper()):
            continue                    # "Mother's Day", "Pioneer Day" are named days
        return True
    return any(w in _RELATIVE_DAYS for w in low)


def _is_absolute(toks) -> bool:
    low = _low(toks)
    return any(w in MONTHS or w in WEEKDAYS or w in _ORD_WORDS or _DAY_ORD.match(w) or _is_written_date(w)
               for w in low)


def _is_number(toks) -> bool:
    low = [w for w in _low(toks) if w]
    return bool(low) and all(w in _NUMBER_WORDS or re.fullmatch(r"\d[\d,.]*", w) for w in low) and \
        any(w not in ("and", "a") for w in low)


def _style(toks) -> str:
    return "digits" if any(c.isdigit() for c in "".join(toks)) else "words"


def kind(orig: Sequence[str], typ: str) -> str:
    """The class a pair is counted in: code, date, time, relative, number, calendar, person, name, other."""
    low = _low(orig)
    if is_written_code(orig):
        if len(orig) == 1 and _is_written_date(orig[0]):
            return "date"
        if len(orig) == 1 and _WTIME.match(orig[0]) and not orig[0].isdigit():
            return "time"
        if typ in ("DATE", "TIME") and len(orig) == 1 and re.fullmatch(r"(19|20)\d\d", orig[0]):
            return "date"
        return "code"
    if typ in ("DATE", "TIME", "NUM") and _is_relative(orig) and not _is_absolute(orig):
        return "relative"
    if _is_number(orig):
        return "number"
    if low and all(w in MONTHS or w in WEEKDAYS for w in low if w) and typ not in ("PER",):
        return "calendar"
    if typ in ("DATE",):
        return "date"
    if typ in ("TIME",):
        return "time"
    if typ == "PER":
        return "person"
    if typ in ("LOC", "ORG", "GPE", "FAC"):
        return "name"
    return "other"


def _date_words_valid(toks) -> bool:
    """Spoken or written days are days a month has (with that month when it is named), years plausible."""
    low = _low(toks)
    month = next((MONTHS.index(w) + 1 for w in low if w in MONTHS), None)
    for w in low:
        day = None
        if w in _ORD_WORDS:
            tens, _, unit = w.rpartition("-")
            day = ORDINALS.get(unit, 0) + {"twenty": 20, "thirty": 30}.get(tens, 0)
        elif _DAY_ORD.match(w):
            day = int(_DAY_ORD.match(w).group(1))
            n = day % 100
            want = "th" if 10 <= n <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
            if _DAY_ORD.match(w).group(2).lower() != want:
                return False
        elif re.fullmatch(r"\d{4}", w):
            if not 1800 <= int(w) <= 2100:
                return False
        elif re.fullmatch(r"\d{1,2}", w) and month is not None:
            day = int(w)
        if day is not None:
            if not 1 <= day <= 31:
                return False
            if month is not None:
                try:
                    datetime.date(2024, month, day)
                except ValueError:
                    return False
    return True


def _spoken_years_valid(orig, new) -> bool:
    """A spoken year ("nineteen ninety four") stays as many spoken years, each within thirty years of the first
    original one ("sixty eighty seven" is none, "eighteen seventy eight" is of another era)."""
    from .strategies.spoken_years import spoken_year_spans
    yo, yn = spoken_year_spans(orig), spoken_year_spans(new)
    if not yo:
        return True
    return len(yn) == len(yo) and all(abs(n[2] - yo[0][2]) <= 30 for n in yn)


def check(orig: Sequence[str], new: Sequence[str], typ: str, out_sentence: Sequence[str] = (),
          out_start: int = 0, in_sentence: Sequence[str] = (), in_start: int = 0) -> list[str]:
    """The checks the surrogate `new` of `orig` (type `typ`) fails ([]: it passes for a value of the same kind).
    `out_sentence`/`out_start`: the output sentence and where `new` starts in it (the article before it);
    `in_sentence`/`in_start`: the input sentence (pronouns and titles around the original)."""
    fails = []
    k = kind(orig, typ)
    lo, ln = _low(orig), _low(new)
    if not new:
        return ["empty"]
    if " ".join(new) == typ and " ".join(orig) != typ:
        fails.append("type-label")     # "LOC" for "Norfolk Island": a placeholder, not a value
    if k == "code":
        so, sn = " ".join(orig), " ".join(new)
        if _shape(so) != _shape(sn) and not (_UK_POSTCODE.match(so) and _UK_POSTCODE.match(sn)):
            fails.append("code-shape")
        go, gn = _groups(so), _groups(sn)
        if any(x == y for x, y in zip(go, gn)) or {g for g in go if len(g) > 1} & set(gn):
            fails.append("code-group-kept")      # in its place, or a group of two characters or more anywhere
        if _UK_POSTCODE.match(so) and not _UK_POSTCODE.match(sn):
            fails.append("postcode-format")
    elif k == "date":
        if len(orig) == 1 and _is_written_date(orig[0]):
            if len(new) != 1 or not _valid_written_date(new[0]) or _shape(new[0]) != _shape(orig[0]):
                fails.append("date-format")
        elif not _date_words_valid(new):
            fails.append("date-invalid")
        if not _spoken_years_valid(orig, new):
            fails.append("year-invalid")
        if _is_relative(new) and not _is_relative(orig):
            fails.append("absolute-became-relative")
        if _style(orig) != _style(new):
            fails.append("number-style")
    elif k == "time":
        if len(orig) == 1 and _WTIME.match(orig[0]) and not orig[0].isdigit():
            if len(new) != 1 or not _valid_written_time(new[0]) or _shape(new[0]).replace("A", "a") != \
                    _shape(orig[0]).replace("A", "a") and not _valid_written_time(new[0]):
                fails.append("time-format")
        if _style(orig) != _style(new):
            fails.append("number-style")
    elif k == "relative":
        if not _is_relative(new) or _is_absolute(new):
            fails.append("relative-became-absolute")
        if lo == ln:
            fails.append("unchanged")
    elif k == "number":
        if not _is_number(new):
            fails.append("number-became-other")
        elif _style(orig) != _style(new):
            fails.append("number-style")
    elif k == "calendar":
        if not all(w in MONTHS or w in WEEKDAYS for w in ln if w):
            fails.append("calendar-became-other")
    # closed classes kept in place: a part of the day stays one ("in the morning" never "in the noon")
    if len(orig) == len(new):
        for a, b in zip(lo, ln):
            ca, cb = _word_class(a), _word_class(b)
            if ca and cb and ca != cb:
                fails.append("word-class")
                break
    # titles kept in place (a person's: "MS" may be Mississippi)
    if typ == "PER" and [w for w in lo if w in _TITLES] != [w for w in ln if w in _TITLES]:
        fails.append("title")
    # gender of the first given name against a gendered title or the first pronoun after the span
    if typ == "PER":
        from .strategies.shapes import name_gender
        g = _cue_gender(orig, in_sentence, in_start)
        names = [t for t in new if t.lower().rstrip(".") not in _TITLES and any(c.isalpha() for c in t)]
        titled = any(w in _TITLES for w in lo) or (in_start > 0 and in_sentence
                                                   and in_sentence[in_start - 1].lower().rstrip(".") in _TITLES)
        first = names[0] if len(names) >= 2 or (len(names) == 1 and not titled) else None
        if g and first and name_gender(first) not in (None, g):
            fails.append("gender")
    # articles: before the span and inside it
    seq = ([out_sentence[out_start - 1]] if out_sentence and out_start > 0 else []) + list(new)
    for a, w in zip(seq, seq[1:]):
        if a.lower() in ("a", "an") and any(c.isalpha() for c in w) and not (len(w) == 1 and w.isalpha()):
            if _article(w) != a.lower():
                fails.append("article")
                break
    # a single letter where the original had none
    if sum(len(t) == 1 and t.isalpha() and t.lower() not in ("a", "i") for t in new) > \
            sum(len(t) == 1 and t.isalpha() and t.lower() not in ("a", "i") for t in orig):
        fails.append("letter")
    # case
    letters_o, letters_n = "".join(c for c in "".join(orig) if c.isalpha()), "".join(c for c in "".join(new)
                                                                                     if c.isalpha())
    if letters_o and letters_n:
        if letters_o.islower() and not letters_n.islower():
            fails.append("case")
        elif letters_o.isupper() and len(letters_o) > 1 and k != "code" and not letters_n.isupper():
            fails.append("case")
        elif k != "code" and orig[0][:1].isupper() and new[0][:1].islower():
            fails.append("case")          # a capitalised first word (a name, a sentence start) stays capitalised
    return fails


_WORD_CLASSES = {"daypart": {"morning", "afternoon", "evening", "night"}, "clock": {"noon", "midnight", "midday"},
                 "month": set(MONTHS), "weekday": set(WEEKDAYS), "relday": _RELATIVE_DAYS}


def _word_class(w: str) -> str | None:
    return next((k for k, v in _WORD_CLASSES.items() if w in v), None)


def _cue_gender(orig, sentence, start) -> str | None:
    before = [sentence[start - 1].lower()] if sentence and start > 0 else []
    for w in _low(orig) + before:
        if w in _FEMALE_CUES and w not in _PRONOUNS:
            return "f"
        if w in _MALE_CUES and w not in _PRONOUNS:
            return "m"
    for w in _low(sentence[start + len(orig):start + len(orig) + 15]) if sentence else []:
        if w in _FEMALE_CUES and w in _PRONOUNS:
            return "f"
        if w in _MALE_CUES and w in _PRONOUNS:
            return "m"
    return None


def _article(word: str) -> str:
    w = word.lower()
    if w[0].isdigit():
        return "an" if w[0] == "8" or re.match(r"1[18](\D|$)", w) else "a"
    if w.startswith(("hour", "honest", "honour", "honor", "heir")):
        return "an"
    if w.startswith(("uni", "use", "usu", "uti", "eu", "one", "once")):
        return "a"
    if word.isupper() and 1 < len(word) <= 4:
        return "an" if w[0] in "aefhilmnorsx" else "a"
    return "an" if w[0] in "aeiou" else "a"
