"""Digits spelled as words for scoring: Whisper writes "5", "1990", "$3", "20%", "3rd", "10:30", "1,000";
corpus references spell what was said ("five", "nineteen ninety", "three dollars"). Applied to references and
hypotheses alike (pydeid.asr.textnorm, numbers=true), before punctuation is removed.

Conventions (pydeid.align.normalize.spell_number): four-digit numbers from 1100 to 2099 are read as years in
pairs ("nineteen ninety", "nineteen hundred"; "two thousand five" for 2000-2009), others as cardinals without "and" ("one hundred five");
"3.5" is "three point five"; "10:30" is "ten thirty" ("10:00" "ten o'clock" is not guessed: "ten"); ordinals
("3rd") as ordinal words; "$3" "three dollars", "$3.50" "three dollars fifty"; "20%" "twenty percent".
"""

from __future__ import annotations

import re

_NUM = re.compile(r"(?P<cur>[$£€])?(?P<num>\d+(?:,\d{3})*(?:\.\d+)?)(?P<ord>st|nd|rd|th)?(?P<pct>%)?")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_CUR = {"$": ("dollar", "dollars", "cent", "cents"), "£": ("pound", "pounds", "penny", "pence"),
        "€": ("euro", "euros", "cent", "cents")}


def _spell(digits: str) -> list[str]:
    from pydeid.align.normalize import spell_number
    n = int(digits)
    if len(digits) == 4 and 2000 <= n <= 2009:  # "two thousand five", not "twenty oh five"
        return ["two", "thousand"] + (spell_number(str(n - 2000)) if n > 2000 else [])
    if len(digits) == 4 and 1100 <= n <= 1999 and n % 100 == 0:  # "nineteen hundred"
        return spell_number(str(n // 100)) + ["hundred"]
    return spell_number(digits)


def _ordinal(digits: str, suffix: str) -> list[str]:
    import inflect
    return [w for w in re.split(r"[\s,\-]+", inflect.engine().number_to_words(digits + suffix, andword="")) if w]


def _time(m: re.Match) -> str:
    h, mm = m.group(1), m.group(2)
    words = _spell(str(int(h)))
    if mm != "00":
        words += (["oh"] if mm[0] == "0" else []) + _spell(str(int(mm)))
    return " " + " ".join(words) + " "


def _number(m: re.Match) -> str:
    cur, num, ord_, pct = m.group("cur"), m.group("num").replace(",", ""), m.group("ord"), m.group("pct")
    if ord_ and "." not in num:
        words = _ordinal(num, ord_)
    elif cur and "." in num:
        whole, frac = num.split(".", 1)
        one, many, sub1, subn = _CUR[cur]
        words = _spell(whole) + [one if whole == "1" else many]
        if frac.strip("0"):
            words += _spell(str(int(frac[:2].ljust(2, "0"))))
    elif "." in num:
        whole, frac = num.split(".", 1)
        words = _spell(whole) + ["point"] + [w for d in frac for w in _spell(d)]
    else:
        words = _spell(num)
        if cur:
            one, many = _CUR[cur][:2]
            words.append(one if num == "1" else many)
    if pct:
        words.append("percent")
    return " " + " ".join(words) + " "


def spell_numbers(text: str) -> str:
    """Every digit string of `text` as words (see the module doc); text without digits is returned unchanged."""
    if not any(c.isdigit() for c in text):
        return text
    text = _TIME.sub(_time, text)
    return " ".join(_NUM.sub(_number, text).split())
