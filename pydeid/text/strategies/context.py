"""What an operator sees when it replaces one span (Context): the seeded generator, the pools, the dialogue and the
sentence's entity words, the secret maps. Below the helpers and the operators."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..pools import Pools

DEFAULT_EXEMPLARS = {"PER": "Smith", "ORG": "SAP", "LOC": "London", "DATE": "Monday", "TIME": "afternoon",
                     "NUM": "five", "ID": "ID123456", "PHONE": "01632 960000", "CARD": "4000 0000 0000 0002",
                     "EMAIL": "name@example.com", "URL": "example.com", "POSTCODE": "AB1 2CD", "ACCOUNT": "00000000",
                     "PLATE": "AB12 CDE"}


@dataclass
class Context:
    """What an operator sees of the corpus and the current span: the seeded generator, the pools, the dialogue,
    the sentence's entity words, the secret maps."""

    rng: np.random.Generator
    pools: Pools
    seed: int = 0
    dialogue: str = ""
    exemplars: dict = field(default_factory=lambda: dict(DEFAULT_EXEMPLARS))
    avoid_original: bool = False
    pseudonym_map: dict = field(default_factory=dict)   # dialogue -> type -> original -> surrogate (or None: kept)
    faker_locale: str = "en_US"
    lower: bool = False          # the current sentence is lower-case (ASR-style): surrogates are lower-cased too
    upper: bool = False          # ... in capitals (LibriSpeech-style): surrogates are upper-cased too
    entity_words: frozenset = frozenset()   # lower-cased entity words of the current sentence (surrogate avoids them)
    dialogue_words: frozenset = frozenset()  # identifying entity words of the dialogue (pseudonymize avoids them)
    span: Sequence[str] = ()     # the entity being replaced, and the position of the word unit being replaced in it
    span_index: int | None = None
    sentence: Sequence[str] = ()   # the tokens of the current sentence and where the span starts in it (titles,
    span_start: int = 0            # pronouns and the article "a"/"an" around a span)
    corpus_words: frozenset = frozenset()   # value words of every entity of the input corpus (generate.words_of)
    closed_counts: dict = field(default_factory=dict)   # lower-cased word -> count over every entity of the corpus:
    #                             months, weekdays and parts of the day are drawn as the corpus says them
    _faker: object = None
    _generator: object = None

    def value_generator(self):
        """The generator of outside-the-corpus values (generate.ValueGenerator), excluding `corpus_words`."""
        if self._generator is None:
            from ..generate import ValueGenerator
            self._generator = ValueGenerator(self.rng, self.corpus_words)
        return self._generator

    def case(self, repl: Sequence[str]) -> list[str]:
        if self.lower:
            return [r.lower() for r in repl]
        return [r.upper() for r in repl] if self.upper else list(repl)

    def faker(self):
        if self._faker is None:
            from faker import Faker
            f = Faker(self.faker_locale)
            f.seed_instance(int(self.rng.integers(2 ** 31)))
            self._faker = f
        return self._faker
