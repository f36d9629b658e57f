"""What a neutral corpus hides: one definition for every step, CLI and recipe.

By default (`--tags all`) every entity type a detector can emit is hidden: the named entities (PER LOC ORG DATE
TIME NUM), the grammar sub-types a type_map may give their own type (EMAIL PHONE ID CARD PIN AMOUNT), the
seed 004 A.1 categories (HEALTH CREDENTIAL ADDRESS ...) and the typed identifiers (URL POSTCODE ACCOUNT PLATE ...). A narrower list is an explicit choice: `describe()`
names what it leaves in, and the steps print that line in their log and report.
"""

from __future__ import annotations

from pydeid.io.conll import ENTITY_TYPES
from pydeid.io.errors import UsageError

ALL = "all"


def hidden_types() -> tuple[str, ...]:
    """Every entity type the detectors can emit (in any configuration): what `--tags all` hides."""
    return tuple(ENTITY_TYPES)


def detector_types() -> set[str]:
    """The types the registered detectors can emit, read from each detector's `types` (a test holds hidden_types()
    to this set, so a new detector type cannot be silently left out of the default)."""
    from .detector_registry import emitted_types
    return emitted_types()


def parse_tags(spec: str | list[str] | tuple[str, ...] | None, option: str = "--tags") -> tuple[str, ...]:
    """'all' (or None) -> every type; else a comma list of known types (upper-cased). An unknown name or an
    empty list is a one-line usage error naming the option."""
    if spec is None:
        return hidden_types()
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    items = [t.strip() for t in items if t.strip()]
    if not items:
        raise UsageError(option, "empty list of entity types (default: all)")
    if any(t.lower() == ALL for t in items):
        if len(items) > 1:
            raise UsageError(option, f"'{ALL}' stands alone (got {','.join(items)})")
        return hidden_types()
    out = [t.upper() for t in items]
    bad = [t for t in items if t.upper() not in ENTITY_TYPES]
    if bad:
        raise UsageError(option, f"unknown entity type(s) {', '.join(bad)}; types: {ALL}, {', '.join(ENTITY_TYPES)}")
    return tuple(t for t in ENTITY_TYPES if t in out)


def left_in(tagset) -> list[str]:
    """The types a tag set does NOT hide (empty for 'all')."""
    s = {t.upper() for t in tagset}
    return [t for t in ENTITY_TYPES if t not in s]


def describe(tagset) -> str:
    """One line for a log or report: 'all 20 types' or the narrower list and what it leaves in."""
    rest = left_in(tagset)
    if not rest:
        return f"hidden types: {ALL} ({len(ENTITY_TYPES)})"
    shown = [t for t in ENTITY_TYPES if t in {x.upper() for x in tagset}]
    return f"hidden types: ONLY {','.join(shown)} (narrower --tags; NOT hidden: {','.join(rest)})"
