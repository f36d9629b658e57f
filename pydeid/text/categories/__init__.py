"""Sensitive categories beyond named entities (seed 004 appendix A.1; GDPR art. 9 special categories).

Each category is an entity type of its own, tagged, replaced and masked like PER or DATE:

  HEALTH       conditions, disabilities, medication ("I suffer from depression", "I'm on insulin")
  BELIEF       religious, philosophical and political beliefs ("I'm Catholic", "I vote Labour")
  ETHNICITY    racial or ethnic origin ("I'm Basque", "my mother is Korean", "of Indian descent")
  SEXUAL       sexual orientation and gender identity ("I'm gay", "he is transgender")
  AGE          ages ("forty five years old", "my son is ten")
  MARITAL      marital status ("divorced", "I'm single")
  PROFESSION   occupation and employment status ("I work as a lawyer", "I'm retired")
  CREDENTIAL   passwords, PINs, passcodes, CVVs after "password/PIN/passcode/CVV is"
  ADDRESS      street addresses, spoken or written ("twelve Baker Street", "221b Baker Street")
  IP, MAC      computer identifiers, spoken or written ("one nine two dot one six eight ...", 00:1A:2B:...)
  TRANSACTION  amounts of money paid, received, owed ("I paid fifty euros")

E-mail addresses and phone numbers (contact data) are the grammar detector's (type NUM by default, or EMAIL and
PHONE with the grammar option `type_map: {email: EMAIL, phone: PHONE}`) and the identifiers detector's, which
types them (pydeid/text/identifiers).

The `categories` detector (CategoryDetector) runs one small rule class per family (families.py) over normalised
lower-case tokens, so cased and ASR-style text give the same spans. Surrogates per category: surrogates.py.
"""

from __future__ import annotations

from typing import Sequence

from ..detector_registry import Detector
from ..spans import Span
from .context import norm_tokens
from .families import FAMILIES

CATEGORY_TYPES = {
    "HEALTH": "health conditions, disabilities, medication",
    "BELIEF": "religious, philosophical and political beliefs",
    "ETHNICITY": "racial or ethnic origin",
    "SEXUAL": "sexual orientation, gender identity",
    "AGE": "ages",
    "MARITAL": "marital status",
    "PROFESSION": "occupation, employment status",
    "CREDENTIAL": "passwords, PINs, passcodes, CVVs",
    "ADDRESS": "street addresses",
    "IP": "IP addresses",
    "MAC": "MAC addresses",
    "TRANSACTION": "amounts paid, received, owed",
    "EMAIL": "e-mail addresses (grammar detector with type_map email: EMAIL)",
    "PHONE": "phone numbers (grammar detector with type_map phone: PHONE)",
}
# what the categories detector itself emits
DETECTED_TYPES = tuple(t for f in FAMILIES.values() for t in f.types)
# words that name a category, never a person or a place ("my IP address is ...": spaCy calls "IP" a person)
CUE_WORDS = frozenset({"ip", "mac", "pin", "cvv", "cvc", "password", "passcode", "wifi", "wi-fi", "email", "e-mail",
                       "address", "router", "modem", "gateway", "server", "login", "iban", "sort", "code"})


class CategoryDetector(Detector):
    """The A.1 categories as one detector ("categories" in the detector registry); families overlap-resolved in
    registry order."""

    name, types = "categories", DETECTED_TYPES

    @classmethod
    def from_config(cls, cfg) -> "CategoryDetector":
        return cls(court="court" not in cfg.rules_off)

    def __init__(self, families: Sequence[str] | None = None, court: bool = True):
        names = list(families or FAMILIES)
        unknown = [n for n in names if n not in FAMILIES]
        if unknown:
            raise ValueError(f"unknown category family {', '.join(unknown)} (choose from {', '.join(FAMILIES)})")
        # court: a nationality before "national"/"citizen" is an ethnicity (a court rule: detectors.RULE_GROUPS)
        self.families = [FAMILIES[n](court=court) if n == "ethnicity" else FAMILIES[n]() for n in names]

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        low = norm_tokens(tokens)
        taken = [False] * len(tokens)
        out: list[Span] = []
        for fam in self.families:
            for s in fam.detect(tokens, low):
                if not any(taken[s.start:s.end]):
                    out.append(s)
                    for i in range(s.start, s.end):
                        taken[i] = True
        return sorted(out, key=lambda s: s.start)


def veto_names(tokens: Sequence[str], spans: list[Span]) -> list[Span]:
    """Drop name-like spans (PER, ORG, LOC) of a tagger or gazetteer that consist only of category cue words
    ("IP", "PIN", "MAC"): they name a kind of data, not a person."""
    low = norm_tokens(tokens)
    return [s for s in spans if s.type not in ("PER", "ORG", "LOC")
            or not all(low[i] in CUE_WORDS for i in range(s.start, s.end))]
