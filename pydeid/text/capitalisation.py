"""Seed 001's capitalisation heuristic as a detector: every other capitalised word is a person name (cased text)."""

from __future__ import annotations

from typing import Sequence

from .cue_names import TITLE_WORDS
from .detector_registry import Detector
from .spans import Span

_CAP_STOP = {"I", "I'm", "I'll", "I've", "I'd", "OK", "Okay", "O.K.", "Oh", "Yes", "No", "Hello", "Hi", "Well",
             "So", "Good", "Thank", "Thanks", "Bye", "Goodbye", "Please", "Sorry", "Alright", "Sure", "Ah", "Uh", "Um"}
# titles, honorifics, job titles and genre words are capitalised without being names
_CAP_TITLE_WORDS = TITLE_WORDS | {
    "CEO", "CFO", "COO", "Technology", "Marketing", "Sales", "Company", "Inc", "Inc.", "Ltd", "Corp", "Group", "Team",
    "Department", "Rock", "Pop", "Jazz", "Blues", "Soul", "Metal", "Punk", "Folk", "Country", "Classical", "Indie",
    "Hip", "Hop", "Rap", "Reggae", "Techno", "House", "Disco", "Funk", "Gospel", "Latin", "Electronic", "Dance",
    "Ambient", "Acoustic", "Chill", "Lounge", "Opera", "Soundtrack"}


class CapitalisationDetector(Detector):
    """Seed 001 §4.2: words starting with an upper-case letter (other than those other grammars claim) are person
    names. Sentence-initial words and a small stop list are skipped; consecutive capitalised words form one span.
    On lower-case ASR output it finds nothing, by construction."""

    name, types = "capitalisation", ("PER",)     # the type is capitalisation_type of the config (default PER)

    def __init__(self, entity_type: str = "PER", skip_initial: bool = True, stop: set | None = None):
        self.entity_type = entity_type
        self.skip_initial = skip_initial
        self.stop = _CAP_STOP if stop is None else stop

    def _is_cap(self, toks: Sequence[str], i: int) -> bool:
        t = toks[i]
        if not t[:1].isupper() or t in self.stop or t in _CAP_TITLE_WORDS:
            return False
        letters = [c for c in t if c.isalpha()]
        if len(letters) > 1 and all(c.isupper() for c in letters):   # acronyms: COVID-19, EBITDA, NASA
            return False
        # a sentence also starts after a token that ends in . ? ! (whitespace tokens such as "pm." or "Yes!")
        if self.skip_initial and (i == 0 or toks[i - 1].endswith((".", "?", "!"))
                                  and toks[i - 1] not in ("Mr.", "Mrs.", "Ms.", "Dr.", "St.")):
            return False
        return any(c.isalpha() for c in t)

    @classmethod
    def from_config(cls, cfg) -> "CapitalisationDetector":
        return cls(cfg.capitalisation_type)

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        from .grammars import categories
        cats = categories(tokens)
        out: list[Span] = []
        i = 0
        while i < len(tokens):
            # month and weekday names are dates, not names (the date grammar claims them)
            if self._is_cap(tokens, i) and cats[i] not in "Mw":
                j = i + 1
                while j < len(tokens) and self._is_cap(tokens, j) and cats[j] not in "Mw":
                    j += 1
                out.append(Span(i, j, self.entity_type, {self.name}))
                i = j
            else:
                i += 1
        return out
