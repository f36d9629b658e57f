"""Words before an identifier that name its kind ("my passport number is", "postcode", "sort code"): a cue group
lets a format whose shape alone is too common match ("90210" after "zip") and types a spoken code."""

from __future__ import annotations

from typing import Sequence

# cue group -> words (lower case, punctuation stripped); two-word cues are written with a space
CUES = {
    "plate": {"plate", "plates", "numberplate", "reg", "registration", "car reg", "number plate"},
    "postcode": {"postcode", "postcodes", "zip", "zipcode", "postal", "post code", "eircode", "plz"},
    "account": {"account", "iban", "sort", "routing", "bank", "bic", "swift", "aba"},
    "card": {"card", "visa", "mastercard", "amex", "debit", "credit"},
    "ssn": {"ssn", "social", "social security"},
    "passport": {"passport"},
    "licence": {"licence", "license", "driving", "driver's", "drivers", "dl"},
    "nhs": {"nhs", "chi"},
    "tax": {"tax", "tfn", "abn", "pan", "aadhaar", "aadhar", "nric", "pesel", "fiscal", "codice", "nif", "nie", "dni",
            "fin", "national", "insurance", "nino", "ni", "identity", "personal"},
    "medicare": {"medicare"},
    "phone": {"phone", "telephone", "mobile", "cell", "landline", "tel", "fax", "whatsapp", "cellphone", "ring",
              "dial", "extension", "call me", "reach me", "text me", "ring me"},
    "id": {"id", "identification", "membership", "member", "customer", "reference", "ref", "policy", "patient",
           "booking", "order", "ticket", "confirmation", "tracking", "case", "claim", "serial", "voucher", "student",
           "employee", "staff", "badge", "loyalty"},
    "url": {"website", "site", "url", "link", "web", "homepage", "page", "domain", "http", "https"},
    "email": {"email", "e-mail", "mail", "emails", "gmail"},
}
# the type a cue group gives a code that fits no format of its own
CUE_TYPES = {"plate": "PLATE", "postcode": "POSTCODE", "account": "ACCOUNT", "card": "CARD", "ssn": "ID",
             "passport": "ID", "licence": "ID", "nhs": "ID", "tax": "ID", "medicare": "ID", "phone": "PHONE",
             "id": "ID", "url": "URL", "email": "EMAIL"}
# when several groups are in the window, the most specific decides ("licence plate" is a plate, "ID card" an ID)
ORDER = ("plate", "postcode", "account", "ssn", "passport", "nhs", "medicare", "tax", "licence", "phone", "card",
         "id", "url", "email")
_WORD = {w: g for g, ws in CUES.items() for w in ws if " " not in w}
_PAIR = {tuple(w.split()): g for g, ws in CUES.items() for w in ws if " " in w}
_STOP = {".", "!", "?", ";"}
WINDOW = 6


def _norm(t: str) -> str:
    return t.lower().strip(".,;:!?\"'()").replace("\u2019", "'")


def cues_before(tokens: Sequence[str], start: int, window: int = WINDOW) -> set[str]:
    """The cue groups named in the `window` tokens before `start` (not across a sentence end)."""
    out: set[str] = set()
    i = start - 1
    while i >= 0 and i >= start - window:
        if tokens[i] in _STOP:
            break
        w = _norm(tokens[i])
        g = _WORD.get(w)
        if g:
            out.add(g)
        if i > 0 and (_norm(tokens[i - 1]), w) in _PAIR:
            out.add(_PAIR[(_norm(tokens[i - 1]), w)])
        i -= 1
    if "card" in out and ("id" in out or "tax" in out):
        out.discard("card")            # "ID card number", "identity card"
    if "plate" in out:
        out -= {"licence", "id"}       # "licence plate number"
    if "postcode" in out:
        out.discard("id")              # "post code"
    return out


def cue_type(groups: set[str]) -> str | None:
    g = next((g for g in ORDER if g in groups), None)
    return CUE_TYPES[g] if g else None


def cue_at_end(tokens: Sequence[str]) -> set[str]:
    """The cue groups of a turn that ends asking for or announcing a code ("what's your postcode?", "the reg is")."""
    words = [t for t in tokens if any(c.isalnum() for c in t)]
    while words and _norm(words[-1]) in ("is", "it's", "was", "please", "again", "then", "number", "code", "no"):
        if _norm(words[-1]) in ("number", "code", "no") and len(words) > 1:
            g = cues_before(words, len(words))
            if g:
                return g
        words.pop()
    return cues_before(words, len(words), window=2) if words else set()
