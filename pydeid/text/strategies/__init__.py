"""Replacement strategies (seeds 000, 001, 002, 004) and the replacement policy each one implies for DP accounting.

Every strategy replaces a *unit*: a word (word-by-word strategies) or a whole entity (entity strategies). The
driver (transform.py) tosses the coin of seed 000's algorithm per unit: with probability p the unit is replaced by
`replace(...)`, otherwise kept. `epsilon(...)` returns eq. (2) for the policy pi the strategy really uses.

Layout (each strategy is a small operator class, as Presidio's anonymizer operators):
  base.py          Strategy (the operator: name, what it needs, replace, epsilon), SamplingStrategy
  context.py       Context: what an operator sees of the corpus, the dialogue and the sentence
  registry.py      STRATEGIES (name -> class), make_strategy, parse_strategy_spec: every typed name goes through it
  placeholders.py  keep, redact, typed_placeholder, placeholder, placeholder_entity, named_placeholder
  corpus.py        same_type, single_same_type, full_entity, corpus_same_type (drawn from the corpus itself)
  outside.py       faker, surrogate (values from outside the corpus)
  pseudonyms.py    pseudonymize (consistent per dialogue)
  numbers.py       random_digits
  shapes.py        what a surrogate keeps whatever the span's type (identifier and postcode shapes, valid written
                   and spoken dates and times, relative dates, titles, gender, a/an), asked first by surrogate/faker
  accounting.py    the eq. (2) helpers the operators share
  helpers.py       low-level helpers below all of them (what to avoid, fallbacks, faker and generated values)

Names (use them in --strategy TYPE=NAME):
  keep                 no replacement (the type is not treated as private)
  redact               one non-word IIIII per entity (seed 000)
  typed_placeholder    the type label per entity: PER, LOC ... (value-class membership, seeds 000/001)
  placeholder          PLACEHOLDER for every word (seed 004 table 8 row 2)
  placeholder_entity   one PLACEHOLDER per multi-word entity (seed 004 table 8 row 3)
  named_placeholder    one exemplar per type for every entity ("London" for every LOC, seed 000)
  same_type            word by word, a word of the same type drawn with its corpus frequency (value dissociation,
                       seeds 000/001/004)
  faker                a faker surrogate of the same type per entity (value distortion from an external source)
  single_same_type     a multi-word entity becomes one same-type word (seed 004 table 8 row 5)
  full_entity          a whole entity becomes a whole same-type entity of the corpus (seed 000 full entity,
                       seed 004 multi-word -> multi-word)
  pseudonymize         consistent per dialogue, word by word (Donald->Roger, Trump->Smith, seed 004 §3.3.2;
                       numbers as whole spans of random same-length digits, seed 002); the map is a secret
  surrogate            the default everywhere: values from outside the corpus (generate.py: faker names of several
                       English locales, gazetteer places, faker companies, generated digits, letters, e-mails and
                       amounts, category phrases), never a value word that is an entity word anywhere in the input
                       corpus; consistent within a dialogue; spelled letters and spoken addresses keep their shape
  corpus_same_type     the seed's corpus-frequency replacement (the default before): generated numbers, and for
                       other types a word of the same type drawn with its corpus frequency; it moves real values
                       between utterances (a warning says so)
  random_digits        every digit (spoken digit word or written digit) becomes a random digit of the same length;
                       teens/tens/ordinals/months/weekdays a random member of their class (seed 002)
"""

from __future__ import annotations

from ..pools import GENERATED_TYPES, Pools
from ..wordforms import match_case, number_class, other_letter, random_same_class, spelled_letters, text_case
from .accounting import generated_eps
from .base import SamplingStrategy, Strategy
from .context import DEFAULT_EXEMPLARS, Context
from .corpus import CorpusSameType, FullEntity, SameType, SingleSameType
from .helpers import avoided, fallback_entity, fallback_word, faker_value, generated_value
from .numbers import NUMBER_STRUCTURE, RandomDigits
from .outside import FakerSurrogate, Surrogate
from .placeholders import (PLACEHOLDER_TOKEN, REDACT_TOKEN, Keep, NamedPlaceholder, Placeholder, PlaceholderEntity,
                           Redact, TypedPlaceholder)
from .pseudonyms import Pseudonymize
from .registry import (DEFAULT_STRATEGY, STRATEGIES, corpus_pool_warning, get, make_strategy, names,
                       parse_strategy_spec, register)

__all__ = [
    "CorpusSameType", "Context", "DEFAULT_EXEMPLARS", "DEFAULT_STRATEGY", "FakerSurrogate", "FullEntity",
    "GENERATED_TYPES", "Keep", "NUMBER_STRUCTURE", "NamedPlaceholder", "PLACEHOLDER_TOKEN", "Placeholder",
    "PlaceholderEntity", "Pools", "Pseudonymize", "REDACT_TOKEN", "RandomDigits", "Redact", "STRATEGIES", "SameType",
    "SamplingStrategy", "SingleSameType", "Strategy", "Surrogate", "TypedPlaceholder", "avoided",
    "corpus_pool_warning", "fallback_entity", "fallback_word", "faker_value", "generated_eps", "generated_value",
    "get", "make_strategy", "match_case", "names", "number_class", "other_letter", "parse_strategy_spec",
    "random_same_class", "register", "spelled_letters", "text_case",
]
