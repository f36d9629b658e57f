"""Entity detectors and their combination.

  grammar          spoken/written numbers, dates, times, amounts, e-mails (grammars.py, seed 001)
  capitalisation   seed 001's heuristic: every other capitalised word is a person name (cased text only)
  flair            the trained BiLSTM-CRF tagger (flair_ner.py)
  spacy            an installed spaCy English pipeline, when one is importable (never downloaded)

`Detection` runs the configured detectors over token lists and combines their spans (spans.combine); every span
records which detector(s) found it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Sequence

from .grammars import GrammarConfig, GrammarDetector
from .spans import Span, combine

log = logging.getLogger(__name__)

_CAP_STOP = {"I", "I'm", "I'll", "I've", "I'd", "OK", "Okay", "O.K.", "Oh", "Yes", "No", "Hello", "Hi", "Well",
             "So", "Good", "Thank", "Thanks", "Bye", "Goodbye", "Please", "Sorry", "Alright", "Sure", "Ah", "Uh", "Um"}
_SENT_END = {".", "?", "!"}


class CapitalisationDetector:
    """Seed 001 §4.2: words starting with an upper-case letter (other than those other grammars claim) are person
    names. Sentence-initial words and a small stop list are skipped; consecutive capitalised words form one span.
    On lower-case ASR output it finds nothing, by construction."""

    name = "capitalisation"

    def __init__(self, entity_type: str = "PER", skip_initial: bool = True, stop: set | None = None):
        self.entity_type = entity_type
        self.skip_initial = skip_initial
        self.stop = _CAP_STOP if stop is None else stop

    def _is_cap(self, toks: Sequence[str], i: int) -> bool:
        t = toks[i]
        if not t[:1].isupper() or t in self.stop:
            return False
        if self.skip_initial and (i == 0 or toks[i - 1] in _SENT_END):
            return False
        return any(c.isalpha() for c in t)

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


SPACY_LABELS = {"PERSON": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", "NORP": "ORG",
                "DATE": "DATE", "TIME": "TIME", "CARDINAL": "NUM", "MONEY": "NUM", "QUANTITY": "NUM"}


def spacy_status(model: str = "en_core_web_sm") -> tuple[bool, str]:
    """(available, why): a spaCy pipeline is used only when both spaCy and the named package are installed."""
    try:
        import spacy  # noqa: F401
    except ImportError:
        return False, "spaCy is not installed"
    import importlib.util
    if importlib.util.find_spec(model) is None:
        return False, f"spaCy is installed but its pipeline package '{model}' is not (we never download one)"
    return True, f"spaCy pipeline {model}"


class SpacyDetector:
    name = "spacy"

    def __init__(self, model: str = "en_core_web_sm"):
        ok, why = spacy_status(model)
        if not ok:
            raise RuntimeError(f"spaCy backend unavailable: {why}")
        import spacy
        from spacy.tokens import Doc
        self.nlp = spacy.load(model)
        self._Doc = Doc

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        doc = self._Doc(self.nlp.vocab, words=list(tokens))
        for _, proc in self.nlp.pipeline:
            doc = proc(doc)
        return [Span(e.start, e.end, SPACY_LABELS[e.label_], {self.name}) for e in doc.ents
                if e.label_ in SPACY_LABELS]


@dataclass
class DetectionConfig:
    detectors: list = field(default_factory=lambda: ["flair", "grammar"])
    combine: str = "union"                       # union | priority
    priority: list = field(default_factory=lambda: ["flair", "spacy", "grammar", "capitalisation"])
    flair_model: str | None = None
    spacy_model: str = "en_core_web_sm"
    grammar: dict = field(default_factory=dict)  # GrammarConfig fields (min_digits, type_map ...)
    capitalisation_type: str = "PER"

    @classmethod
    def from_yaml(cls, path, **overrides) -> "DetectionConfig":
        d = {}
        if path:
            from pydeid.io.config import dataclass_keys, load_yaml
            names = ("flair", "grammar", "capitalisation", "spacy")
            d = load_yaml(path, allowed=dataclass_keys(cls), nested={"grammar": dataclass_keys(GrammarConfig)},
                          values={"detectors": names, "priority": names, "combine": ("union", "priority")})
        d.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


class Detection:
    def __init__(self, cfg: DetectionConfig):
        self.cfg = cfg
        self.detectors = {}
        self.unavailable: dict[str, str] = {}
        for name in cfg.detectors:
            if name == "grammar":
                self.detectors[name] = GrammarDetector(GrammarConfig(**cfg.grammar))
            elif name == "capitalisation":
                self.detectors[name] = CapitalisationDetector(cfg.capitalisation_type)
            elif name == "flair":
                if not cfg.flair_model:
                    raise ValueError("detector 'flair' needs a model (--model)")
                from .flair_ner import FlairDetector
                self.detectors[name] = FlairDetector(cfg.flair_model)
            elif name == "spacy":
                ok, why = spacy_status(cfg.spacy_model)
                if ok:
                    self.detectors[name] = SpacyDetector(cfg.spacy_model)
                else:
                    self.unavailable[name] = why
                    log.warning("detector spacy unavailable: %s", why)
            else:
                raise ValueError(f"unknown detector {name!r} (flair, grammar, capitalisation, spacy)")

    def detect_many(self, token_lists: Sequence[Sequence[str]]) -> list[list[Span]]:
        per: dict[str, list[list[Span]]] = {}
        for name, det in self.detectors.items():
            if hasattr(det, "detect_many"):
                per[name] = det.detect_many(token_lists)
            else:
                per[name] = [det.detect(t) for t in token_lists]
        out = []
        for k, toks in enumerate(token_lists):
            out.append(combine({n: per[n][k] for n in per}, len(toks), self.cfg.combine, self.cfg.priority))
        return out
