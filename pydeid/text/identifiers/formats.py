"""The written shapes of identifiers, one Format per documented national or international format.

A Format matches the text of a window of tokens joined by single spaces (`pattern`, anchored) and, for spoken
forms, the compact string a spoken run stands for (`compact`: letters and digits only, "two nine J T" -> "29JT").
A `check` (checksums.py) raises confidence; `cue` names the cue group (cues.py) a format needs before it, because
its shape alone is too common ("90210" is a ZIP only after "zip"). `upper`: the letters must be upper case in
cased text (a plate "AB12 CDE", never "ab12 cde" of running text).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Callable

from . import checksums as C

TYPES = ("ID", "PHONE", "CARD", "EMAIL", "URL", "IP", "POSTCODE", "ACCOUNT", "PLATE")


@dataclass(frozen=True)
class Format:
    name: str
    type: str
    pattern: str                      # over the written window (spaces between tokens)
    check: Callable[[str], bool] | None = None   # over the compact string
    cue: str | None = None            # a cue group that must precede (cues.CUES)
    upper: bool = False               # letters upper case in cased text
    compact: str | None = None        # over the compact string of a spoken run (None: not said aloud this way)
    needs_check: bool = True          # the check must pass (False: it only raises confidence)


def digits(s: str) -> str:
    return re.sub(r"\D", "", s)


def compact(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", s).upper()


_TLD = (r"(?:com|org|net|edu|gov|io|co|uk|de|fr|nl|es|it|eu|info|biz|us|ca|au|in|sg|pl|ch|be|at|ie|se|no|dk|fi|"
        r"pt|app|dev|ai|me|tv|ly|gl)")
_S = r"[ -]?"                         # an optional group separator

FORMATS: list[Format] = [
    # contact data
    Format("email", "EMAIL", r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", None),
    Format("url", "URL", rf"(?:https?://|www\.)[^\s]+|[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.{_TLD}(?:/[^\s]*)?", None),
    Format("ipv4", "IP", r"\d{1,3}(?:\.\d{1,3}){3}", None),
    Format("ipv6", "IP", r"[0-9a-fA-F:]*:[0-9a-fA-F:]*:[0-9a-fA-F:.]*", None),
    # payment and bank
    Format("iban", "ACCOUNT", r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?", C.iban,
           compact=r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}"),
    Format("card", "CARD", r"\d{4}(?:[ -]?\d{4}){2}[ -]?\d{1,7}|\d{4}[ -]?\d{6}[ -]?\d{5}", C.luhn,
           compact=r"\d{13,19}"),
    Format("card_cue", "CARD", r"\d{4}(?:[ -]?\d{4}){2}[ -]?\d{1,7}|\d{4}[ -]?\d{6}[ -]?\d{5}", None, cue="card",
           compact=r"\d{13,19}"),
    Format("sort_code", "ACCOUNT", r"\d{2}-\d{2}-\d{2}", None, cue="account", compact=r"\d{6}"),
    Format("aba", "ACCOUNT", r"\d{9}", C.aba_routing, cue="account", compact=r"\d{9}"),
    Format("account", "ACCOUNT", r"\d{6,17}|\d{2,6}(?:[ -]\d{2,8}){1,3}", None, cue="account", compact=r"\d{6,17}"),
    # national identity, tax and health numbers
    Format("us_ssn", "ID", r"\d{3}-\d{2}-\d{4}", C.us_ssn),
    Format("us_ssn_cue", "ID", r"\d{3}[ -]?\d{2}[ -]?\d{4}", C.us_ssn, cue="ssn", compact=r"\d{9}"),
    Format("uk_nino", "ID", r"(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]",
           None, upper=True, compact=r"(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]"),
    Format("uk_nhs", "ID", r"\d{3}[ -]?\d{3}[ -]?\d{4}", C.nhs, cue="nhs", compact=r"\d{10}"),
    Format("uk_driving", "ID", r"[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2}", None, upper=True),
    Format("es_nif", "ID", r"[XYZ]?\d{7,8}-?[A-Z]", C.es_nif, compact=r"[XYZ]?\d{7,8}[A-Z]"),
    Format("it_fiscal", "ID", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", C.it_fiscal_code,
           compact=r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]"),
    Format("au_abn", "ID", r"\d{2} \d{3} \d{3} \d{3}|\d{11}", C.au_abn),
    Format("au_tfn", "ID", r"\d{3} ?\d{3} ?\d{3}", C.au_tfn, cue="tax", compact=r"\d{9}"),
    Format("au_medicare", "ID", r"\d{4} ?\d{5} ?\d(?:[ -]?\d)?", C.au_medicare, cue="medicare", compact=r"\d{10,11}"),
    Format("in_aadhaar", "ID", r"\d{4} \d{4} \d{4}", C.aadhaar),
    Format("in_aadhaar_cue", "ID", r"\d{12}", C.aadhaar, cue="tax", compact=r"\d{12}"),
    Format("in_pan", "ID", r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]", None, upper=True,
           compact=r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]"),
    Format("sg_nric", "ID", r"[STFG]\d{7}[A-Z]", C.sg_nric, compact=r"[STFG]\d{7}[A-Z]"),
    Format("pl_pesel", "ID", r"\d{11}", C.pesel, cue="tax", compact=r"\d{11}"),
    Format("passport", "ID", r"[A-Z]{0,2}\d{6,9}|[A-Z]{1,2} ?\d{6,9}", None, cue="passport",
           compact=r"[A-Z]{0,2}\d{6,9}"),
    Format("licence", "ID", r"(?=[A-Z0-9 -]*\d)[A-Z0-9]{1,8}(?:[ -][A-Z0-9]{1,8}){0,3}", None, cue="licence",
           compact=r"(?=.*\d)[A-Z0-9]{5,18}"),
    # phone numbers: international (E.164 written with groups), UK/IE, US/CA, FR national
    Format("phone_intl", "PHONE", r"\+\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){1,6}",
           lambda s: 8 <= len(digits(s)) <= 15),
    Format("phone_00", "PHONE", r"00\d{1,3}(?:[ .-]?\d{1,5}){2,6}", lambda s: 10 <= len(digits(s)) <= 15),
    Format("phone_uk", "PHONE", r"0\d{2,4}[ -]?\d{3,4}[ -]?\d{3,4}|\(0\d{2,4}\) ?\d{3,4}[ -]?\d{3,4}",
           lambda s: len(digits(s)) in (10, 11)),
    Format("phone_us", "PHONE", r"\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]\d{4}|\( ?[2-9]\d{2} ?\) ?[2-9]\d{2}[ .-]?\d{4}",
           None),
    Format("phone_fr", "PHONE", r"0[1-9](?:[ .]\d{2}){4}", None),
    Format("phone_cue", "PHONE", r"\+?\(?\d{2,5}\)?(?:[ .-]?\d{2,5}){0,5}", lambda s: 6 <= len(digits(s)) <= 15,
           cue="phone", compact=r"\d{6,15}"),
    # postcodes: UK, CA, NL, IE (shapes of their own); US ZIP and 4/5-digit European codes after a cue
    Format("uk_postcode", "POSTCODE", r"(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})", None,
           upper=True, compact=r"[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?\d[ABD-HJLNP-UW-Z]{2}"),
    Format("ca_postcode", "POSTCODE", r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d", None,
           upper=True, compact=r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]\d[ABCEGHJ-NPRSTV-Z]\d"),
    Format("ie_eircode", "POSTCODE", r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}", None, upper=True,
           cue="postcode"),
    Format("nl_postcode", "POSTCODE", r"[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}", None, upper=True, cue="postcode",
           compact=r"[1-9]\d{3}[A-Z]{2}"),
    Format("zip", "POSTCODE", r"\d{5}(?:-\d{4})?|\d{4}|\d{2}-\d{3}|\d{4}-\d{3}|\d{3} \d{2}|[A-Z]-\d{4,5}", None,
           cue="postcode", compact=r"\d{4,9}"),
    Format("us_zip_state", "POSTCODE", r"(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|"
           r"MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC) \d{5}(?:-\d{4})?",
           None, upper=True),
    # vehicle registration plates: UK (2001), FR (SIV), ES (2000), IT, DE, NL side codes
    Format("uk_plate", "PLATE", r"[A-HJ-PR-Y][A-HJ-PR-Y]\d{2} ?[A-HJ-PR-Z]{3}", None, upper=True,
           compact=r"[A-HJ-PR-Y]{2}\d{2}[A-HJ-PR-Z]{3}"),
    Format("fr_plate", "PLATE", r"[A-HJ-NP-TV-Z]{2}-\d{3}-[A-HJ-NP-TV-Z]{2}", None, upper=True),
    Format("es_plate", "PLATE", r"\d{4} ?[BCDFGHJKLMNPRSTVWXYZ]{3}", None, upper=True),
    Format("it_plate", "PLATE", r"[A-HJ-NPR-TV-Z]{2} ?\d{3} ?[A-HJ-NPR-TV-Z]{2}", None, upper=True),
    Format("de_plate", "PLATE", r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} ?\d{1,4}[EH]?", None, upper=True),
    Format("nl_plate", "PLATE", r"(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9]{1,3}-[A-Z0-9]{2,3}-[A-Z0-9]{1,2}", None,
           upper=True),
    Format("plate_cue", "PLATE", r"(?=[A-Z0-9 -]*\d)[A-Z0-9]{1,4}(?:[ -][A-Z0-9]{1,4}){0,2}", None, cue="plate",
           compact=r"(?=.*\d)(?=.*[A-Z])[A-Z0-9]{4,8}"),
    # a code after a cue of its kind ("membership number", "reference", "policy number")
    Format("id_cue", "ID", r"(?=[A-Z0-9 -]*\d)[A-Z0-9]{2,12}(?:[ -][A-Z0-9]{1,8}){0,3}", None, cue="id",
           compact=r"(?=.*\d)[A-Z0-9]{5,18}"),
]
_FLAGS = {True: 0, False: re.I}
COMPILED = [(f, re.compile(f.pattern, _FLAGS[f.upper]), re.compile(f.pattern, re.I),
             re.compile(f.compact) if f.compact else None) for f in FORMATS]


def valid_ip(s: str) -> bool:
    try:
        ipaddress.ip_address(s)
        return True
    except ValueError:
        return False


def match_written(text: str, cues: set[str], cased: bool) -> Format | None:
    """The first format (in FORMATS order) whose pattern matches all of `text` and whose cue and check hold."""
    for f, rx, rx_any, _ in COMPILED:
        if f.cue and f.cue not in cues:
            continue
        if not (rx if cased else rx_any).fullmatch(text):
            continue
        if f.type == "IP" and not valid_ip(text):
            continue
        if f.check is not None and not f.check(compact(text) if f.type not in ("PHONE",) else text):
            continue
        return f
    return None


def match_compact(s: str, cues: set[str]) -> Format | None:
    """The first format a spoken run's compact string ("LS29JT") fits."""
    for f, _, _, crx in COMPILED:
        if crx is None or (f.cue and f.cue not in cues):
            continue
        if crx.fullmatch(s) and (f.check is None or f.check(s)):
            return f
    return None


def checked(f: Format) -> bool:
    return f.check is not None and f.type != "PHONE"
