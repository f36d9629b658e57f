"""Check digits of the identifier formats (each from the format's published definition). A valid checksum raises a
recogniser's confidence; the surrogates of identifiers/ and strategies/identifiers.py keep it valid."""

from __future__ import annotations

import re

from ..grammars import luhn_ok as luhn   # payment cards (ISO/IEC 7812): the grammar's Luhn check


def iban(s: str) -> bool:
    """ISO 13616: country code, 2 check digits, the national number; mod 97 of the rearranged number is 1."""
    s = s.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", s):
        return False
    if IBAN_LENGTHS.get(s[:2], len(s)) != len(s):
        return False
    return int("".join(str(int(c, 36)) for c in s[4:] + s[:4])) % 97 == 1


def iban_check_digits(country: str, bban: str) -> str:
    n = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    return f"{98 - n % 97:02d}"


# lengths of the IBAN of common countries (the ISO 13616 registry)
IBAN_LENGTHS = {"GB": 22, "DE": 22, "FR": 27, "ES": 24, "IT": 27, "NL": 18, "BE": 16, "AT": 20, "CH": 21, "IE": 22,
                "PL": 28, "PT": 25, "SE": 24, "NO": 15, "DK": 18, "FI": 18, "LU": 20, "CZ": 24, "GR": 27, "HU": 28}


def nhs(digits: str) -> bool:
    """UK NHS number: 10 digits, weights 10..2 on the first nine, check = 11 - sum mod 11 (11 -> 0; 10 invalid)."""
    if not re.fullmatch(r"\d{10}", digits):
        return False
    c = 11 - sum(int(d) * w for d, w in zip(digits[:9], range(10, 1, -1))) % 11
    c = 0 if c == 11 else c
    return c != 10 and c == int(digits[9])


def us_ssn(digits: str) -> bool:
    """US SSN: area 001-899 except 666, group 01-99, serial 0001-9999 (SSA's rules since 2011)."""
    if not re.fullmatch(r"\d{9}", digits):
        return False
    a, g, s = digits[:3], digits[3:5], digits[5:]
    return a not in ("000", "666") and a[0] != "9" and g != "00" and s != "0000"


_NIF_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def es_nif(s: str) -> bool:
    """Spanish DNI/NIF (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter): the letter is number mod 23."""
    s = s.replace("-", "").replace(" ", "").upper()
    m = re.fullmatch(r"([XYZ]?)(\d{7,8})([A-Z])", s)
    if not m or len(m.group(1) + m.group(2)) != 8:
        return False
    num = str("XYZ".index(m.group(1))) + m.group(2) if m.group(1) else m.group(2)
    return _NIF_LETTERS[int(num) % 23] == m.group(3)


_CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def it_cf_check(s15: str) -> str:
    total = 0
    for i, c in enumerate(s15):
        v = int(c) if c.isdigit() else ord(c) - 65
        total += _CF_ODD[v] if i % 2 == 0 else v
    return chr(65 + total % 26)


def it_fiscal_code(s: str) -> bool:
    """Italian codice fiscale: 16 characters, the last a check letter over odd/even position tables."""
    s = s.upper()
    return bool(re.fullmatch(r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", s)) and it_cf_check(s[:15]) == s[15]


def au_tfn(digits: str) -> bool:
    """Australian tax file number: 9 digits, weights 1 4 3 7 5 8 6 9 10, sum divisible by 11."""
    return bool(re.fullmatch(r"\d{9}", digits)) and \
        sum(int(d) * w for d, w in zip(digits, (1, 4, 3, 7, 5, 8, 6, 9, 10))) % 11 == 0


def au_abn(digits: str) -> bool:
    """Australian business number: 11 digits; first digit minus 1, weights 10 1 3 5 ... 19, sum divisible by 89."""
    if not re.fullmatch(r"\d{11}", digits) or digits[0] == "0":
        return False
    ds = [int(digits[0]) - 1] + [int(d) for d in digits[1:]]
    return sum(d * w for d, w in zip(ds, (10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19))) % 89 == 0


def au_medicare(digits: str) -> bool:
    """Australian Medicare card: 10 or 11 digits, first 2-6, 9th digit = weights 1 3 7 9 1 3 7 9 mod 10."""
    if not re.fullmatch(r"[2-6]\d{9,10}", digits):
        return False
    return sum(int(d) * w for d, w in zip(digits[:8], (1, 3, 7, 9, 1, 3, 7, 9))) % 10 == int(digits[8])


# Verhoeff's dihedral-group tables (Aadhaar's check digit)
_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]


def verhoeff(digits: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def aadhaar(digits: str) -> bool:
    """Indian Aadhaar: 12 digits, first 2-9, Verhoeff check digit."""
    return bool(re.fullmatch(r"[2-9]\d{11}", digits)) and verhoeff(digits)


def sg_nric(s: str) -> bool:
    """Singapore NRIC/FIN: S/T/F/G + 7 digits + check letter (weights 2 7 6 5 4 3 2)."""
    s = s.upper()
    m = re.fullmatch(r"([STFG])(\d{7})([A-Z])", s)
    if not m:
        return False
    total = sum(int(d) * w for d, w in zip(m.group(2), (2, 7, 6, 5, 4, 3, 2))) + (4 if m.group(1) in "TG" else 0)
    table = "JZIHGFEDCBA" if m.group(1) in "ST" else "XWUTRQPNMLK"
    return table[total % 11] == m.group(3)


def pesel(digits: str) -> bool:
    """Polish PESEL: 11 digits, weights 1 3 7 9 1 3 7 9 1 3, check = (10 - sum mod 10) mod 10."""
    if not re.fullmatch(r"\d{11}", digits):
        return False
    s = sum(int(d) * w for d, w in zip(digits[:10], (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)))
    return (10 - s % 10) % 10 == int(digits[10])


def aba_routing(digits: str) -> bool:
    """US ABA routing number: 9 digits, weights 3 7 1, sum divisible by 10."""
    return bool(re.fullmatch(r"\d{9}", digits)) and \
        sum(int(d) * w for d, w in zip(digits, (3, 7, 1) * 3)) % 10 == 0 and digits != "000000000"
