"""The strategy registry: every strategy name a user types (--strategy TYPE=NAME, the API, text-utility rows) is
looked up here. Adding a strategy: one Strategy subclass in a family module + one line in STRATEGIES (or, from
outside the package, register(cls) at run time). The order is the order error messages list the names in."""

from __future__ import annotations

from .base import Strategy
from .corpus import CorpusSameType, FullEntity, SameType, SingleSameType
from .numbers import RandomDigits
from .outside import FakerSurrogate, Surrogate
from .placeholders import Keep, NamedPlaceholder, Placeholder, PlaceholderEntity, Redact, TypedPlaceholder
from .pseudonyms import Pseudonymize

STRATEGIES: dict[str, type[Strategy]] = {c.name: c for c in (
    Keep,
    Redact,
    TypedPlaceholder,
    Placeholder,
    PlaceholderEntity,
    NamedPlaceholder,
    SameType,
    FakerSurrogate,
    SingleSameType,
    FullEntity,
    Pseudonymize,
    RandomDigits,
    Surrogate,
    CorpusSameType,
)}
DEFAULT_STRATEGY = "default=surrogate"   # the one default of transform-text, steps/transform_text.sh and the README


def register(cls: type[Strategy]) -> type[Strategy]:
    """Add (or replace) a strategy class for this process; usable as a class decorator."""
    if not (isinstance(cls, type) and issubclass(cls, Strategy)) or not cls.name:
        raise TypeError(f"{cls!r} is not a Strategy subclass with a name")
    STRATEGIES[cls.name] = cls
    return cls


def names() -> list[str]:
    return list(STRATEGIES)


def _unknown(name: str, typ: str | None = None) -> ValueError:
    where = f" for {typ}" if typ is not None else ""
    return ValueError(f"unknown strategy {name!r}{where}; choose from {', '.join(STRATEGIES)}")


def get(name: str) -> type[Strategy]:
    """The class of strategy `name`; an unknown name is a one-line ValueError listing the known ones."""
    if name not in STRATEGIES:
        raise _unknown(name)
    return STRATEGIES[name]


def corpus_pool_warning(strategies: dict, pseudonym_source: str = "faker") -> str | None:
    """The one-line warning for a spec that draws replacements from the corpus (None: it does not)."""
    used = sorted({v for v in strategies.values() if v in STRATEGIES and STRATEGIES[v].draws_from_corpus})
    if "pseudonymize" in strategies.values() and pseudonym_source == "corpus":
        used.append("pseudonymize from the corpus")
    if not used:
        return None
    return (f"{', '.join(used)}: replacements are drawn from the corpus's own entities, which moves real values "
            f"between utterances; the default 'surrogate' draws from outside the corpus")


def make_strategy(name: str, p: float = 1.0, pseudonym_source: str = "faker") -> Strategy:
    return get(name).build(p=p, pseudonym_source=pseudonym_source)


def parse_strategy_spec(spec: str) -> dict[str, str]:
    """'PER=pseudonymize,NUM=random_digits,default=same_type' -> {'PER': ..., 'NUM': ..., 'default': ...}.
    A bare name sets the default."""
    out: dict[str, str] = {}
    for part in filter(None, (x.strip() for x in spec.split(","))):
        if "=" in part:
            k, v = (x.strip() for x in part.split("=", 1))
        else:
            k, v = "default", part
        if v not in STRATEGIES:
            raise _unknown(v, k)
        out[k] = v
    out.setdefault("default", "surrogate")
    return out
