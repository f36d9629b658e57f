"""Typed identifiers, written and spoken: national ids, phone and card numbers, e-mail and web addresses, IPs,
postcodes, bank accounts and IBANs, vehicle plates (issue 40).

  checksums.py   the check digits of the formats (Luhn, mod 97, NHS mod 11, NIF, codice fiscale, TFN, ABN,
                 Medicare, Aadhaar Verhoeff, NRIC, PESEL, ABA)
  formats.py     one Format per documented written shape, with its check and the cue it needs
  cues.py        words that name an identifier's kind before it ("postcode", "passport number")
  spoken.py      spoken runs of digits, letters and NATO words, and the compact string they stand for
  detector.py    the `identifiers` detector (registered in detector_registry)
  dialogue.py    read-backs and codes over several turns of one dialogue
"""

from .formats import TYPES

__all__ = ["TYPES"]
