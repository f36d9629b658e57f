"""The `identifiers` detector: typed identifiers written or spoken (ID PHONE CARD EMAIL URL IP POSTCODE ACCOUNT PLATE).

Written: every window of up to 8 code-like tokens ("LS2 9JT", "GB82 WEST 1234 5698 7654 32", "078-05-1120") is
matched against formats.FORMATS (with checksums and cues). Spoken: runs of digit words, letters and NATO words
(spoken.runs) are matched by their compact string ("L S two nine J T" -> "LS29JT": a UK postcode), else typed by
the cue before them ("passport number is C F three eight ..." -> ID), else a mixed run of letters and digits of
four characters or more is an ID; e-mail and web addresses read out with "at" and "dot". Digit strings with no cue
and no format of their own stay the grammar's (NUM).
"""

from __future__ import annotations

import re
from typing import Sequence

from ..detector_registry import Detector
from ..lexicon import TLDS
from ..spans import Span
from .cues import cue_type, cues_before
from .formats import TYPES, match_compact, match_written
from .spoken import runs

MAX_WINDOW = 8
_STRIP = ".,;:!?\"'"
# cue-only formats (no shape of their own): the code must be long enough to be a code, not a count ("order 25")
_CUE_ONLY = {"id_cue", "licence", "plate_cue", "account", "phone_cue", "passport"}
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")     # a domain label: "gmail", "acme-corp"
_TIME_LETTERS = re.compile(r"\d[AP]M$")                  # "seven thirty p m" is a time
_ADDRESS_SEPS = {"dot": ".", "underscore": "_", "dash": "-", "hyphen": "-"}
_URL_TLDS = TLDS | {"ca", "au", "in", "sg", "pl", "nl", "es", "it", "ch", "be", "at", "ie", "app", "dev", "ai", "me",
                    "tv", "ly"}
_NOT_LOCAL = {"am", "i'm", "im", "we're", "were", "me", "us", "you", "him", "her", "them", "it", "is", "was", "are",
              "be", "look", "arrive", "stay",
              "meet", "work", "works", "worked", "working", "live", "lives", "lived", "living", "based", "shop",
              "here", "there", "home", "school", "least", "all", "once", "last", "first", "best", "the", "a", "an",
              "and", "or", "to", "of", "in", "on", "him", "them", "staying", "job", "office", "study", "studying"}


def _clean(t: str) -> str:
    return t.rstrip(_STRIP) if len(t) > 1 else t


def _code_like(t: str) -> bool:
    """A token that may be part of a written identifier."""
    c = _clean(t)
    if not c:
        return False
    if any(ch.isdigit() for ch in c) or "@" in c or "://" in c or c.lower().startswith("www."):
        return True
    if c in ("+", "(", ")", "-"):
        return True
    if "." in c.strip(".") and c.split(".")[-1].lower().split("/")[0] in _URL_TLDS:
        return True
    return c.isalpha() and (len(c) == 1 or c.isupper() and len(c) <= 8) or \
        c.isupper() and re.fullmatch(r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,3}", c) is not None      # "HH-JN" of a German plate


def _cased(tokens: Sequence[str]) -> bool:
    return any(ch.isupper() for t in tokens for ch in t)


class IdentifierDetector(Detector):
    name = "identifiers"
    types = TYPES

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        cands = self._written(tokens) + self._addresses(tokens) + self._spoken(tokens)
        taken = [False] * len(tokens)
        out = []
        for a, b, typ, how in cands:                 # written first, then spoken addresses, then spoken runs
            if not any(taken[a:b]):
                out.append(Span(a, b, typ, {f"identifiers:{how}"}))
                for i in range(a, b):
                    taken[i] = True
        return sorted(out, key=lambda s: s.start)

    # ------------------------------------------------------------------ written
    def _written(self, tokens):
        n = len(tokens)
        like = [_code_like(t) for t in tokens]
        if not any(like):
            return []
        cased = _cased(tokens)
        found = []
        i = 0
        while i < n:
            if not like[i]:
                i += 1
                continue
            j = i
            while j < n and like[j]:
                j += 1
            for a in range(i, j):                    # each start of the run, its longest matching window
                if not any(ch.isalnum() for ch in tokens[a]):
                    continue
                cues = cues_before(tokens, a)
                for b in range(min(j, a + MAX_WINDOW), a, -1):
                    text = " ".join(tokens[a:b - 1] + [_clean(tokens[b - 1])])
                    f = match_written(text, cues, cased)
                    if f is None or not self._plausible(f, text):
                        continue
                    found.append((a, b, f.type, f.name))
                    break
            i = j
        found.sort(key=lambda x: (-(x[1] - x[0]), x[0]))
        return found

    @staticmethod
    def _plausible(f, text: str) -> bool:
        code = re.sub(r"[^A-Za-z0-9]", "", text)
        if f.type == "IP" and not any(c.isdigit() for c in text):
            return False
        if f.name in _CUE_ONLY:
            has_l, has_d = any(c.isalpha() for c in code), any(c.isdigit() for c in code)
            return len(code) >= 5 or (has_l and has_d and len(code) >= 4)
        return True

    # ------------------------------------------------------------------ spoken
    def _spoken(self, tokens):
        out = []
        for r in runs(tokens):
            if r.words == 0 or len(r.text) < 3:
                continue                              # written only: the written windows had their chance
            if _TIME_LETTERS.search(r.text) or r.text.endswith(("AM", "PM")):
                continue
            cues = cues_before(tokens, r.start)
            f = match_compact(r.text, cues) if len(r.text) >= 4 else None
            typ, how = (f.type, f.name) if f else (None, "")
            if typ is None:
                ctyp = cue_type(cues)
                if ctyp in ("URL", "EMAIL"):
                    ctyp = None
                if r.letters and r.digits and len(r.text) >= 4:
                    typ, how = ctyp or "ID", "spoken_code"
                elif ctyp and r.digits and not r.letters and len(r.text) >= 4:
                    typ, how = ctyp, "spoken_cue"
                elif r.nato >= 2 and r.letters >= 3:
                    typ, how = ctyp or "ID", "spoken_letters"
                elif ctyp and r.letters >= 3 and not r.digits:
                    typ, how = ctyp, "spoken_letters"
            if typ is not None:
                out.append((r.start, r.end, typ, how))
        return out

    # ------------------------------------------------------------------ spoken e-mail and web addresses
    def _addresses(self, tokens):
        low = [_clean(t).lower() for t in tokens]
        n = len(tokens)
        out = []
        for i, w in enumerate(low):
            if w not in ("at", "@"):
                continue
            end = self._domain_end(low, i + 1)
            if end is None:
                continue
            a = i - 1
            if a < 0 or not _LABEL.fullmatch(low[a].replace("'", "")) or low[a] in _NOT_LOCAL and not (
                    a > 0 and low[a - 1] in _ADDRESS_SEPS):
                continue
            while a >= 2 and low[a - 1] in _ADDRESS_SEPS and low[a - 2].isalnum():
                a -= 2
            while a >= 1 and len(low[a - 1]) == 1 and low[a - 1].isalnum() and len(low[a]) == 1:
                a -= 1                                # spelled letters of the local part: "j o at ..."
            out.append((a, end, "EMAIL", "spoken_email"))
        for i in range(n):
            if low[i] not in ("www", "w") or (i > 0 and low[i - 1] in ("w", "www", "dot", "at")):
                continue
            k = i
            while k < n and low[k] == "w":
                k += 1
            if low[i] == "w" and k - i != 3:
                continue
            k = k if low[i] == "w" else i + 1
            if k < n and low[k] == "dot":
                end = self._domain_end(low, k + 1)
                if end is not None:
                    out.append((i, self._path_end(low, end), "URL", "spoken_url"))
        # "example dot co dot uk slash contact" after a web cue
        for i in range(n):
            if i + 2 < n and low[i + 1] == "dot" and low[i].isalnum() and low[i] not in _NOT_LOCAL and (
                    i == 0 or low[i - 1] not in ("at", "@", "dot", "w", "www")):
                end = self._domain_end(low, i)
                if end is not None and ("url" in cues_before(tokens, i) or
                                        end < n and low[end] == "slash"):
                    out.append((i, self._path_end(low, end), "URL", "spoken_url"))
        return out

    @staticmethod
    def _domain_end(low, j):
        """End of "gmail dot com" / "example dot co dot uk" starting at j (None: not a domain ending in a TLD)."""
        n = len(low)
        if j >= n or not _LABEL.fullmatch(low[j]) or low[j] in ("dot", "the", "a"):
            return None
        k, end = j + 1, None
        while k + 1 < n and low[k] == "dot" and _LABEL.fullmatch(low[k + 1]):
            if low[k + 1] in _URL_TLDS:
                end = k + 2
            k += 2
        return end

    @staticmethod
    def _path_end(low, end):
        while end + 1 < len(low) and low[end] == "slash" and low[end + 1].isalnum():
            end += 2
        return end
