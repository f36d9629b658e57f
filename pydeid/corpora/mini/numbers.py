"""Numbers, dates and times spelled out as an English speaker says them (and as espeak speaks them)."""

from __future__ import annotations

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORD_ONES = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
            "eighteenth", "nineteenth"]
ORD_TENS = ["", "", "twentieth", "thirtieth"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DIGIT_WORDS = ONES[:10]


def cardinal(n: int) -> list[str]:
    """0..9999 as words ("two hundred and twelve")."""
    if n < 0 or n > 9999:
        raise ValueError(n)
    if n < 20:
        return [ONES[n]]
    if n < 100:
        t, o = divmod(n, 10)
        return [TENS[t]] + ([ONES[o]] if o else [])
    if n < 1000:
        h, r = divmod(n, 100)
        return [ONES[h], "hundred"] + (["and"] + cardinal(r) if r else [])
    th, r = divmod(n, 1000)
    out = cardinal(th) + ["thousand"]
    if r:
        out += (["and"] if r < 100 else []) + cardinal(r)
    return out


def ordinal(n: int) -> list[str]:
    """1..31 as ordinal words ("twenty first")."""
    if n < 20:
        return [ORD_ONES[n]]
    t, o = divmod(n, 10)
    return [ORD_TENS[t]] if o == 0 else [TENS[t], ORD_ONES[o]]


def year(y: int, short_ok: bool = True) -> list[str]:
    """1950..2039 as spoken: "nineteen ninety five", "two thousand and three", "twenty twenty"."""
    if 1900 <= y < 2000:
        return ["nineteen"] + (cardinal(y - 1900) if y % 100 >= 10 else ["oh"] + cardinal(y - 1900))
    if 2000 <= y < 2010:
        return ["two", "thousand"] + (["and"] + cardinal(y - 2000) if y > 2000 else [])
    return ["twenty"] + cardinal(y - 2000)


def short_year(y: int) -> list[str]:
    """'ninety five' (VerbMobil style "March of ninety five")."""
    r = y % 100
    return cardinal(r) if r >= 10 else ["oh"] + cardinal(r)


def clock(h: int, m: int, style: str) -> list[str]:
    """A time of day in one of several spoken styles; h in 0..23, m in {0, 15, 30, 45, or any}."""
    h12 = h % 12 or 12
    nxt = (h + 1) % 12 or 12
    if style == "past" and m in (15, 30):
        return (["a", "quarter"] if m == 15 else ["half"]) + ["past"] + cardinal(h12)
    if style == "past" and m == 45:
        return ["a", "quarter", "to"] + cardinal(nxt)
    if style == "pm" and m == 0:
        return cardinal(h12) + (["pm"] if h >= 12 else ["in", "the", "morning"])
    if style == "daypart" and m == 0:
        part = "morning" if h < 12 else ("afternoon" if h < 18 else "evening")
        return cardinal(h12) + ["in", "the", part]
    if m == 0:
        return cardinal(h12) + (["sharp"] if style == "sharp" else [])
    if m < 10:
        return cardinal(h12) + ["oh"] + cardinal(m)
    return cardinal(h12) + cardinal(m)


def digits(ds: str, zero: str = "zero") -> list[str]:
    return [zero if d == "0" else DIGIT_WORDS[int(d)] for d in ds]
