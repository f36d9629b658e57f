"""argparse value types shared by the subcommands: a bad value is a usage error (exit status 2, one line naming the
option), never a traceback from deep inside a stage."""

from __future__ import annotations

import argparse
import math
import re


def _num(kind, s: str):
    try:
        v = kind(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {s!r}") from None
    if isinstance(v, float) and not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {s!r}")
    return v


def probability(s: str) -> float:
    v = _num(float, s)
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1], got {s}")
    return v


def open_fraction(s: str) -> float:
    v = _num(float, s)
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {s}")
    return v


def positive_int(s: str) -> int:
    v = _num(int, s)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {s}")
    return v


def nonnegative_float(s: str) -> float:
    v = _num(float, s)
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {s}")
    return v


def regex(s: str) -> str:
    try:
        re.compile(s)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"invalid regular expression {s!r}: {e}") from None
    return s


def name_list(allowed, upper: bool = False):
    """A comma list whose every item is one of `allowed` (a typo is an error naming the allowed names)."""
    allowed = tuple(allowed)

    def parse(s: str) -> str:
        items = [x.strip() for x in s.split(",") if x.strip()]
        if not items:
            raise argparse.ArgumentTypeError("empty list")
        bad = [x for x in items if (x.upper() if upper else x) not in allowed]
        if bad:
            raise argparse.ArgumentTypeError(f"unknown name(s) {', '.join(bad)}; allowed: {', '.join(allowed)}")
        return s
    return parse


def entity_tags(s: str) -> str:
    """--tags of the masking steps: 'all' (every type the detectors can emit) or a comma list of entity types."""
    from pydeid.io import UsageError
    from pydeid.text.hidden_types import parse_tags
    try:
        parse_tags(s)
    except UsageError as e:
        raise argparse.ArgumentTypeError(e.message) from None
    return s


TAGS_HELP = ("entity types to hide: 'all' (default: every type the detectors can emit, categories included) or a "
             "narrower comma list, which the step's log and report name")


def strategy_spec(spec: str) -> dict[str, str]:
    """--strategy of transform-text: every strategy name exists and every key is an entity type or 'default'."""
    from pydeid.io import ENTITY_TYPES, UsageError
    from pydeid.text.strategies import parse_strategy_spec
    try:
        out = parse_strategy_spec(spec)
    except ValueError as e:
        raise UsageError("--strategy", str(e)) from None
    bad = [k for k in out if k != "default" and k not in ENTITY_TYPES]
    if bad:
        raise UsageError("--strategy", f"unknown entity type {bad[0]!r}; types: {', '.join(ENTITY_TYPES)} or default")
    return out
