"""The one redraw of a written code's characters, shared by the identifier surrogates (identifiers.py) and the
shape-keeping surrogates of any type (shapes.py): the same shape, no original character in its place."""

from __future__ import annotations

from ..wordforms import other_letter


def other_digit(c: str, rng) -> str:
    """A digit other than `c`."""
    return str((int(c) + int(rng.integers(1, 10))) % 10)


def redraw_code(tok: str, rng, keep: int = 0, any_digit: bool = False) -> str:
    """Every digit another digit, every ASCII letter another letter of its case, separators and the first `keep`
    characters kept (a country prefix): the same groups and separators with no original character in place, so
    no original letter or digit group survives ("LS2 9JT" -> "WD7 4QP", "078-05-1120" -> "412-37-5586").
    `any_digit`: a digit may come back in its place (a format that fixes a digit, the "0" of "07700 900123", can
    then be met; the caller then refuses any original group itself)."""
    def digit(c: str) -> str:
        return str(int(rng.integers(10))) if any_digit else other_digit(c, rng)
    return "".join(c if k < keep else digit(c) if c.isdigit() else
                   other_letter(c, rng) if c.isalpha() and c.isascii() else c for k, c in enumerate(tok))


__all__ = ["other_digit", "redraw_code"]
