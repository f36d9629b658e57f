"""The identifier test set: mentions of identifiers written and spoken, in sentences and short dialogues, generated
from the DOCUMENTED formats (checksums computed by pydeid.text.identifiers.checksums), never copied from another
project's tests. Two draws of the same generator: seed 1 is the development part (looked at while fixing rules),
seed 2 the held-out part (reported). The issue's probes are added to both, verbatim.

Each item is one dialogue: a list of turns (tokens), the gold spans per turn (start, end, type), and what the item
is: form (written | spoken), format (a name of pydeid/text/identifiers/formats.py or a spoken style) and probe.
"""

from __future__ import annotations

import random
import string

from pydeid.text.identifiers import checksums as C

DIG = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NATO = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
        "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
        "x-ray", "yankee", "zulu"]
FIRST = ["anna", "james", "maria", "tom", "priya", "chen", "lucas", "sofia", "omar", "grace", "ivan", "nora"]
LAST = ["smith", "kowalski", "garcia", "rossi", "patel", "nguyen", "murphy", "schmidt", "dubois", "okafor"]
DOMAINS = ["gmail", "outlook", "yahoo", "mailbox", "proton", "fastmail", "acme-corp", "northwind"]
SITES = ["greenleaf-garden", "bluebird", "cityfix", "harbourview", "quickcart", "maplehealth", "sunnyside"]


def _digits(r, n, first="0123456789"):
    return r.choice(first) + "".join(r.choice(string.digits) for _ in range(n - 1))


# ------------------------------------------------------------------------------------------ value generators
def ssn(r):
    while True:
        d = _digits(r, 9)
        if C.us_ssn(d):
            return f"{d[:3]}-{d[3:5]}-{d[5:]}", d


def nhs(r):
    while True:
        d = _digits(r, 10, "456789")
        if C.nhs(d):
            return f"{d[:3]} {d[3:6]} {d[6:]}", d


def nino(r):
    first, second = "ABCEGHJKLMNPRSTWXYZ", "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = r.choice(first) + r.choice(second)
        if p not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    d = _digits(r, 6)
    s = r.choice("ABCD")
    return r.choice([f"{p} {d[:2]} {d[2:4]} {d[4:]} {s}", f"{p}{d}{s}"]), p + d + s


def nif(r):
    if r.random() < 0.5:
        d = _digits(r, 8)
        v = d + "TRWAGMYFPDXBNJZSQVHLCKE"[int(d) % 23]
    else:
        x = r.choice("XYZ")
        d = _digits(r, 7)
        v = x + d + "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(x)) + d) % 23]
    return v, v


def fiscal(r):
    s = "".join(r.choice(string.ascii_uppercase) for _ in range(6)) + _digits(r, 2) + r.choice("ABCDEHLMPRST") + \
        f"{r.randint(1, 71):02d}" + r.choice(string.ascii_uppercase) + _digits(r, 3)
    v = s + C.it_cf_check(s)
    return v, v


def tfn(r):
    while True:
        d = _digits(r, 9, "123456789")
        if C.au_tfn(d):
            return f"{d[:3]} {d[3:6]} {d[6:]}", d


def abn(r):
    while True:
        d = _digits(r, 11, "123456789")
        if C.au_abn(d):
            return f"{d[:2]} {d[2:5]} {d[5:8]} {d[8:]}", d


def medicare(r):
    while True:
        d = _digits(r, 10, "23456")
        if C.au_medicare(d):
            return f"{d[:4]} {d[4:9]} {d[9]}", d


def aadhaar(r):
    while True:
        d = _digits(r, 12, "23456789")
        if C.aadhaar(d):
            return f"{d[:4]} {d[4:8]} {d[8:]}", d


def pan(r):
    v = "".join(r.choice(string.ascii_uppercase) for _ in range(3)) + r.choice("PCHFATBLJG") + \
        r.choice(string.ascii_uppercase) + _digits(r, 4) + r.choice(string.ascii_uppercase)
    return v, v


def nric(r):
    while True:
        v = r.choice("STFG") + _digits(r, 7) + r.choice(string.ascii_uppercase)
        if C.sg_nric(v):
            return v, v


def pesel(r):
    while True:
        yy, mm, dd = r.randint(0, 99), r.randint(1, 12), r.randint(1, 28)
        d = f"{yy:02d}{mm + (20 if yy < 10 else 0):02d}{dd:02d}{_digits(r, 4)}"
        c = (10 - sum(int(x) * w for x, w in zip(d, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3))) % 10) % 10
        return d + str(c), d + str(c)


def passport(r):
    v = r.choice([_digits(r, 9), "".join(r.choice(string.ascii_uppercase) for _ in range(2)) + _digits(r, 7)])
    return v, v


def driving(r):
    v = "".join(r.choice(string.ascii_uppercase) for _ in range(5)) + _digits(r, 6) + \
        "".join(r.choice(string.ascii_uppercase) for _ in range(2)) + _digits(r, 1) + \
        "".join(r.choice(string.ascii_uppercase) for _ in range(2))
    return v, v


def phone(r):
    k = r.randrange(7)
    if k == 0:
        d = "020" + _digits(r, 8, "3789")
        return f"{d[:3]} {d[3:7]} {d[7:]}", d
    if k == 1:
        d = "07" + _digits(r, 9)
        return f"{d[:5]} {d[5:]}", d
    if k == 2:
        d = "20" + _digits(r, 8, "3789")
        return f"+44 {d[:2]} {d[2:6]} {d[6:]}", "44" + d
    if k == 3:
        a, b, c = _digits(r, 3, "23456789"), _digits(r, 3, "23456789"), _digits(r, 4)
        return r.choice([f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"+1 {a} {b} {c}"]), a + b + c
    if k == 4:
        d = "0" + _digits(r, 9, "123456789")
        return " ".join([d[:2], d[2:4], d[4:6], d[6:8], d[8:]]), d
    if k == 5:
        d = _digits(r, 9, "123456789")
        return f"+33 {d[0]} {d[1:3]} {d[3:5]} {d[5:7]} {d[7:]}", "33" + d
    d = "30" + _digits(r, 7)
    return f"+49 {d[:2]} {d[2:]}", "49" + d


def card(r):
    kind = r.randrange(3)
    pre, n = [("4", 16), (str(r.randint(51, 55)), 16), (r.choice(["34", "37"]), 15)][kind]
    while True:
        d = pre + _digits(r, n - len(pre))
        if C.luhn(d):
            break
    if n == 15:
        return f"{d[:4]} {d[4:10]} {d[10:]}", d
    sep = r.choice([" ", "-", ""])
    return sep.join(d[i:i + 4] for i in range(0, 16, 4)), d


def iban(r):
    country = r.choice(["GB", "DE", "FR", "NL", "ES"])
    if country == "GB":
        bban = "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + _digits(r, 14)
    elif country == "NL":
        bban = "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + _digits(r, 10)
    else:
        bban = _digits(r, C.IBAN_LENGTHS[country] - 4)
    v = country + C.iban_check_digits(country, bban) + bban
    grouped = " ".join(v[i:i + 4] for i in range(0, len(v), 4))
    return r.choice([grouped, grouped, v]), v


def uk_postcode(r):
    out = r.choice(["LS2", "M1", "B33", "SW1A", "EC1V", "CR2", "DN55", "W1D", "EH3", "G12", "BS8", "CF10", "NE1"])
    inw = r.choice("123456789") + "".join(r.choice("ABDEFGHJLNPQRSTUWXYZ") for _ in range(2))
    return f"{out} {inw}", out + inw


def postcode_other(r):
    k = r.randrange(4)
    if k == 0:
        z = _digits(r, 5, "123456789")
        return (z, z) if r.random() < 0.7 else (f"{z}-{_digits(r, 4)}", z)
    if k == 1:
        v = _digits(r, 4, "123456789") + " " + "".join(r.choice("ABCDEFGHJKLMNPRTUVWXYZ") for _ in range(2))
        return v, v.replace(" ", "")
    if k == 2:
        L, D = "ABCEGHJKLMNPRSTVXY", "0123456789"
        v = r.choice(L) + r.choice(D) + r.choice(L) + " " + r.choice(D) + r.choice(L) + r.choice(D)
        return v, v.replace(" ", "")
    v = _digits(r, 5, "123456789")
    return v, v


def plate(r):
    L = "ABCDEFGHJKLMNPRSTVWXYZ"
    k = r.randrange(5)
    if k == 0:
        v = r.choice(L) + r.choice(L) + _digits(r, 2) + " " + "".join(r.choice(L) for _ in range(3))
    elif k == 1:
        v = f"{r.choice(L)}{r.choice(L)}-{_digits(r, 3)}-{r.choice(L)}{r.choice(L)}"
    elif k == 2:
        v = _digits(r, 4) + " " + "".join(r.choice("BCDFGHJKLMNPRSTVWXYZ") for _ in range(3))
    elif k == 3:
        v = f"{r.choice(L)}{r.choice(L)} {_digits(r, 3)} {r.choice(L)}{r.choice(L)}"
    else:
        v = f"{r.choice(['B', 'M', 'HH', 'K'])}-{r.choice(L)}{r.choice(L)} {_digits(r, 4, '123456789')}"
    return v, v.replace(" ", "").replace("-", "")


def account(r):
    if r.random() < 0.5:
        return f"{_digits(r, 2)}-{_digits(r, 2)}-{_digits(r, 2)}", None
    d = _digits(r, 8)
    return d, d


def email(r):
    first, sep, last, dom = r.choice(FIRST), r.choice([".", "_", ""]), r.choice(LAST), r.choice(DOMAINS)
    v = f"{first}{sep}{last}@{dom}.{r.choice(['com', 'co.uk', 'org', 'net', 'de'])}"     # draw order kept
    return v, v


def url(r):
    s = r.choice(SITES)
    v = r.choice([f"https://www.{s}.com/account/{r.randint(100, 999)}", f"www.{s}.co.uk", f"{s}.org/contact",
                  f"http://{s}.net"])
    return v, v


def ip(r):
    if r.random() < 0.6:
        v = ".".join(str(r.randint(1, 254)) for _ in range(4))
    else:
        g = [f"{r.randint(0, 65535):x}" for _ in range(8)]
        v = r.choice([":".join(g), f"{g[0]}:{g[1]}::{g[7]}"])
    return v, v


# (format, type, generator, written templates); {} is the value
WRITTEN = [
    ("us_ssn", "ID", ssn, ["my social security number is {}", "SSN {} on the form", "Her SSN: {}.",
                           "The applicant's social security number, {}, was verified."]),
    ("uk_nhs", "ID", nhs, ["My NHS number is {}.", "NHS no. {}", "Please quote NHS number {} when you call."]),
    ("uk_nino", "ID", nino, ["My national insurance number is {}.", "NI number {}", "His NINO is {} I think."]),
    ("es_nif", "ID", nif, ["Mi NIF es {}", "My NIE is {}.", "DNI {} presented at the desk."]),
    ("it_fiscal", "ID", fiscal, ["Il mio codice fiscale è {}", "Her fiscal code is {}."]),
    ("au_tfn", "ID", tfn, ["My tax file number is {}.", "TFN {} attached."]),
    ("au_abn", "ID", abn, ["Our ABN is {}.", "Invoice from ABN {}"]),
    ("au_medicare", "ID", medicare, ["My Medicare number is {}.", "Medicare card {}"]),
    ("in_aadhaar", "ID", aadhaar, ["My Aadhaar number is {}.", "Aadhaar {} linked to the account."]),
    ("in_pan", "ID", pan, ["My PAN is {}.", "PAN card {} submitted."]),
    ("sg_nric", "ID", nric, ["My NRIC is {}.", "NRIC number {} on file."]),
    ("pl_pesel", "ID", pesel, ["Mój PESEL to {}", "My PESEL number is {}."]),
    ("passport", "ID", passport, ["My passport number is {}.", "passport no {} expires next year"]),
    ("uk_driving", "ID", driving, ["My driving licence number is {}.", "Licence {} was checked."]),
    ("phone", "PHONE", phone, ["Call me on {}.", "My mobile is {}", "You can reach the office at {} after nine.",
                               "Phone: {}"]),
    ("card", "CARD", card, ["My card number is {}.", "Charge it to {} please.", "Visa {} expiring 09/27"]),
    ("iban", "ACCOUNT", iban, ["My IBAN is {}.", "Please transfer it to {} today.", "IBAN: {}"]),
    ("account", "ACCOUNT", account, ["My sort code is {}.", "account number {}", "The bank account number is {}."]),
    ("email", "EMAIL", email, ["Email me at {}.", "My address is {}", "Write to {} for details."]),
    ("url", "URL", url, ["See {} for the form.", "Our website is {}.", "I ordered it from {} yesterday."]),
    ("ip", "IP", ip, ["The server is at {}.", "my IP address is {}", "Requests came from {} overnight."]),
    ("uk_postcode", "POSTCODE", uk_postcode, ["My postcode is {}.", "We live at 4 Park Lane, Leeds {}.",
                                              "Send it to {} please"]),
    ("postcode_other", "POSTCODE", postcode_other, ["My zip code is {}.", "postcode {}", "The postal code is {}."]),
    ("plate", "PLATE", plate, ["The car registration is {}.", "Number plate {} was caught speeding.",
                               "My reg is {}"]),
]


# ------------------------------------------------------------------------------------------ spoken forms
def say_digits(d: str, r, style: str) -> list[str]:
    """Digits read out: singles ("seven seven"), with "oh" for zero, doubles/triples, or in pairs."""
    out, i = [], 0
    while i < len(d):
        c = d[i]
        if style == "pairs" and i + 1 < len(d) and c != "0" and r.random() < 0.8:
            n = int(d[i:i + 2])
            out += [TEENS[n - 10]] if n < 20 else [TENS[n // 10]] + ([DIG[n % 10]] if n % 10 else [])
            if n % 10 == 0 and n >= 20:
                pass
            i += 2
            continue
        if style in ("double", "pairs") and d[i:i + 3] == c * 3:
            out += ["triple", "oh" if c == "0" else DIG[int(c)]]
            i += 3
            continue
        if style in ("double", "pairs") and i + 1 < len(d) and d[i + 1] == c:
            out += ["double", "oh" if c == "0" else DIG[int(c)]]
            i += 2
            continue
        out.append("oh" if c == "0" and style != "zero" else DIG[int(c)])
        i += 1
    return out


def say_code(v: str, r, digit_style: str, letter_style: str) -> list[str]:
    out, i = [], 0
    while i < len(v):
        j = i
        while j < len(v) and v[j].isdigit():
            j += 1
        if j > i:
            out += say_digits(v[i:j], r, digit_style)
            i = j
            continue
        c = v[i]
        if c.isalpha():
            out.append(NATO[ord(c.upper()) - 65] if letter_style == "nato" else c.lower())
        i += 1
    return out


def say_email(v: str) -> list[str]:
    local, dom = v.split("@")
    words = []
    for part in local.replace(".", " dot ").replace("_", " underscore ").split():
        words.append(part)
    words.append("at")
    words += dom.replace(".", " dot ").split()
    return words


SPOKEN = [   # (format, type, generator, templates: {} is the spoken value)
    ("us_ssn", "ID", ssn, ["my social security number is {}", "the ssn is {}"]),
    ("uk_nhs", "ID", nhs, ["my nhs number is {}"]),
    ("uk_nino", "ID", nino, ["my national insurance number is {}", "it's {} my ni number"]),
    ("passport", "ID", passport, ["my passport number is {}", "passport {}"]),
    ("phone", "PHONE", phone, ["my phone number is {}", "you can call me on {}", "my mobile is {}"]),
    ("card", "CARD", card, ["my card number is {}", "the long number on the card is {}"]),
    ("iban", "ACCOUNT", iban, ["my iban is {}"]),
    ("account", "ACCOUNT", account, ["my account number is {}", "the sort code is {}"]),
    ("uk_postcode", "POSTCODE", uk_postcode, ["my postcode is {}", "the post code is {}", "it's {} the postcode"]),
    ("postcode_other", "POSTCODE", postcode_other, ["my zip code is {}", "the postcode is {}"]),
    ("plate", "PLATE", plate, ["the registration is {}", "my reg is {}", "the number plate is {}"]),
    ("nric_nocue", "ID", nric, ["it's {}", "that would be {}"]),
]


def _sent(template: str, value_toks: list[str], typ: str):
    pre, post = template.split("{}")
    a, b = pre.split(), post.split()
    toks = a + value_toks + b
    return toks, [(len(a), len(a) + len(value_toks), typ)]


def _value_tokens(written: str) -> list[str]:
    toks = written.split()
    return toks


def generate(seed: int, n_written: int = 250, n_spoken: int = 200) -> list[dict]:
    r = random.Random(seed)
    items = []
    for k in range(n_written):
        fmt, typ, gen, templates = WRITTEN[k % len(WRITTEN)]
        shown, _ = gen(r)
        tpl = r.choice(templates)
        if tpl.rstrip().endswith("{}.") or tpl.rstrip().endswith("{}"):
            toks, gold = _sent(tpl.replace("{}.", "{} ."), _value_tokens(shown), typ)
        else:
            toks, gold = _sent(tpl, _value_tokens(shown), typ)
        items.append({"id": f"w{seed}-{k:03d}", "form": "written", "format": fmt, "turns": [toks], "gold": [gold]})
    for k in range(n_spoken):
        fmt, typ, gen, templates = SPOKEN[k % len(SPOKEN)]
        shown, comp = gen(r)
        if comp is None:
            comp = shown.replace("-", "")
        comp = comp.replace(" ", "").replace("-", "")
        dstyle = r.choice(["singles", "singles", "double", "pairs", "zero"])
        lstyle = r.choice(["letters", "letters", "nato"])
        value = say_code(comp, r, dstyle, lstyle)
        tpl = r.choice(templates)
        toks, gold = _sent(tpl, value, typ)
        items.append({"id": f"s{seed}-{k:03d}", "form": "spoken", "format": f"{fmt}/{dstyle}/{lstyle}",
                      "turns": [toks], "gold": [gold]})
    # spoken e-mail and web addresses
    for k in range(20):
        v, _ = email(r)
        value = say_email(v)
        toks, gold = _sent(r.choice(["my email is {}", "you can email me at {}", "it's {}"]), value, "EMAIL")
        items.append({"id": f"e{seed}-{k:03d}", "form": "spoken", "format": "email", "turns": [toks],
                      "gold": [gold]})
    for k in range(10):
        s = r.choice(SITES)
        value = r.choice([["w", "w", "w", "dot", s, "dot", "com"], ["www", "dot", s, "dot", "co", "dot", "uk"],
                          [s, "dot", "org", "slash", "contact"]])
        toks, gold = _sent(r.choice(["go to {}", "the website is {}"]), value, "URL")
        items.append({"id": f"u{seed}-{k:03d}", "form": "spoken", "format": "url", "turns": [toks], "gold": [gold]})
    # dialogues: a code read back, a code asked for then given in pieces, a number over three turns
    for k in range(30):
        shown, comp = uk_postcode(r)
        back = say_code(comp[-3:], r, "singles", "letters")
        back = say_digits(comp[-4], r, "singles") + back if comp[-4].isdigit() else back
        turns = [f"my postcode is {shown}".split(), "okay let me read that back".split(), back, "that's right".split()]
        gold = [[(3, 3 + len(shown.split()), "POSTCODE")], [], [(0, len(back), "POSTCODE")], []]
        items.append({"id": f"d{seed}-{k:03d}", "form": "spoken", "format": "readback", "turns": turns,
                      "gold": gold})
    for k in range(30):
        _, d = phone(r)
        d = "0" + d[-10:] if not d.startswith("0") else d
        pieces = [d[i:i + 2] for i in range(0, len(d), 2)][:5]
        sp = [say_digits(p, r, r.choice(["singles", "pairs"])) for p in pieces]
        cue = k % 2 == 0
        turns = ([["can", "I", "take", "your", "phone", "number", "?"]] if cue else [["okay", "go", "ahead"]]) + sp
        gold = [[]] + [[(0, len(s), "PHONE")] for s in sp]
        items.append({"id": f"t{seed}-{k:03d}", "form": "spoken", "format": "turns_cue" if cue else "turns_nocue",
                      "turns": turns, "gold": gold})
    return items


# the probes, verbatim (form spoken; the SSN written)
PROBES = [
    {"id": "probe-postcode", "form": "written", "format": "probe",
     "turns": [["my", "postcode", "is", "LS2", "9JT"], ["two", "nine", "J", "T"]],
     "gold": [[(3, 5, "POSTCODE")], [(0, 4, "POSTCODE")]]},
    {"id": "probe-passport", "form": "spoken", "format": "probe",
     "turns": [["my", "passport", "number", "is", "C", "F", "three", "eight", "four", "one", "nine", "two", "six"]],
     "gold": [[(4, 13, "ID")]]},
    {"id": "probe-phone-turns", "form": "spoken", "format": "probe",
     "turns": [["oh", "one"], ["seven", "seven"], ["nine", "two"]],
     "gold": [[(0, 2, "PHONE")], [(0, 2, "PHONE")], [(0, 2, "PHONE")]]},
    {"id": "probe-ssn", "form": "written", "format": "probe",
     "turns": [["my", "social", "security", "number", "is", "078-05-1120"]], "gold": [[(5, 6, "ID")]]},
]
