"""Voice configs: where they live, how they are read, and the regroup helper.

Where: conf/voice/ holds each method's defaults, the parameter-shifted variants the recipes use and the recommended
phone-class config; the screening variants are in conf/voice/tuning/ (as ESPnet's conf/tuning). A config named by
its old top-level path (conf/voice/vtln_cm.yaml) is found in tuning/, so recipes, results and scripts that cite
the old name keep working. utils/voice_config.sh answers the same for the shell.

Grouped form: a method that declares `groups` (VTLN: warping, classes, pauses, f0, speaker_subspace) takes its
options under those keys, as `world:` takes the WORLD options; load_config() returns the flat option dict (the
plan's params, the method's dataclass fields). A flat option at the top level of such a file is an error naming
its group; `python -m pydeid.voice.configs regroup FILE...` rewrites a flat file in the grouped form."""

from __future__ import annotations

import re
import sys
from pathlib import Path

TUNING = "tuning"
_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:")


def resolve_config(path) -> Path:
    """`path` when it exists, else the file of the same name in the `tuning/` folder next to it (when that exists),
    else `path` unchanged (the caller reports the missing file)."""
    p = Path(path)
    if p.exists():
        return p
    alt = p.parent / TUNING / p.name
    return alt if alt.exists() else p


def group_of(method) -> dict[str, str]:
    """option -> its group, for a method that declares groups ({} for a flat method)."""
    return {k: g for g, keys in method.groups.items() for k in keys}


def _line(text: str, key: str, after: str | None = None) -> int | None:
    """The line of `key:` (at the top level, or indented under the top-level `after:`)."""
    inside = after is None
    for i, line in enumerate(text.splitlines(), 1):
        m = _KEY.match(line)
        if after is not None and m:          # a top-level key: entering or leaving the group
            inside = m.group(1) == after
            continue
        if inside and re.match(rf"^\s*{re.escape(key)}\s*:", line):
            return i
    return None


def flatten(conf: dict, method, path=None, text: str = "") -> dict:
    """The flat options of a (grouped) config mapping; FormatError for a flat option of a group, an unknown key, an
    option under the wrong group or a group that is not a mapping."""
    from pydeid.io import FormatError
    groups, owner = method.groups, group_of(method)
    top = [k for k in method.config_allowed() if k not in owner]   # world and the options of no group
    allowed_top = sorted([*groups, *top])
    out: dict = {}
    for key, val in conf.items():
        key = str(key)
        if key in groups and (isinstance(val, dict) or val is None or key not in owner):
            if val is None:
                continue
            if not isinstance(val, dict):
                raise FormatError(path, _line(text, key), f"'{key}' must be a mapping of its options "
                                                          f"({', '.join(groups[key])})")
            for sub, v in val.items():
                sub = str(sub)
                if sub not in groups[key]:
                    where = _line(text, sub, after=key)
                    if sub in owner:
                        raise FormatError(path, where, f"'{key}.{sub}': {sub} belongs in the group "
                                                       f"'{owner[sub]}:', not '{key}:'")
                    raise FormatError(path, where, f"unknown key '{key}.{sub}'; allowed: "
                                                   f"{', '.join(sorted(groups[key]))}")
                out[sub] = v
        elif key in owner:
            where = "under" if key == owner[key] else "in"   # `classes: phones` goes under `classes:`
            raise FormatError(path, _line(text, key), f"'{key}' belongs {where} the group '{owner[key]}:' (the "
                                                      f"grouped form; python -m pydeid.voice.configs regroup FILE "
                                                      f"rewrites a flat file)")
        elif key in top:
            out[key] = val
        else:
            raise FormatError(path, _line(text, key), f"unknown key '{key}'; allowed: {', '.join(allowed_top)}")
    return out


def load_config(path, method_name: str) -> dict:
    """The flat options of a method's YAML config (grouped as the method declares; `world:` a mapping of WORLD
    options). A key that does not exist, a flat option of a grouped method, or a name value that is not allowed
    (target_gender: sme) is a FormatError naming the file and line."""
    from pydeid.io import FormatError
    from pydeid.io.config import dataclass_keys, load_yaml

    from . import registry
    from .world import WorldConfig
    path = resolve_config(path)   # a screening variant named by its old path is found in conf/voice/tuning/
    m = registry.get(method_name)
    values = {k: list(v) for k, v in m.config_keys.items() if v}
    nested = {"world": dataclass_keys(WorldConfig)}
    if not m.groups:
        return load_yaml(path, allowed=m.config_allowed(), nested=nested, values=values)
    conf = load_yaml(path, nested=nested)
    text = Path(path).read_text(encoding="utf-8")
    flat = flatten(conf, m, path, text)
    for key, names in values.items():
        v = flat.get(key)
        bad = [x for x in (v if isinstance(v, list) else [] if v is None else [v]) if x not in names]
        if bad:
            raise FormatError(path, _line(text, key), f"{key}: unknown name {bad[0]!r}; allowed: "
                                                      f"{', '.join(map(str, names))}")
    return flat


# ---- regroup: a flat file rewritten in the grouped form, comments kept ------------------------------------------
def _blocks(lines: list[str]) -> tuple[list[str], list[tuple[str, list[str], list[str]]]]:
    """(the header comment lines, [(top-level key, its comment lines above it, its own lines)])."""
    header: list[str] = []
    blocks: list[tuple[str, list[str], list[str]]] = []
    pending: list[str] = []
    for line in lines:
        m = _KEY.match(line)
        if m:
            if not blocks and not header:
                header, pending = pending, []
            blocks.append((m.group(1), pending, [line]))
            pending = []
        elif blocks and line[:1] in (" ", "\t", "-") and line.strip():   # the value of the key above
            blocks[-1][2].extend(pending + [line])
            pending = []
        else:                                                             # a comment or a blank line
            pending.append(line)
    if not blocks:
        header, pending = pending, []
    elif pending:
        blocks.append(("", pending, []))                                  # trailing comments
    return header, blocks


def _is_group(key: str, own: list[str], groups) -> bool:
    """A top-level block is a group when its key names one and holds a mapping below it (`classes:` is VTLN's
    group, `classes: phones` its flat option)."""
    inline = own[0].split(":", 1)[1].split("#", 1)[0].strip() if own else ""
    return key in groups and not inline


def regroup_text(text: str, method) -> str:
    """A flat config's text in the grouped form: each option (with the comment lines above it) moved, indented,
    under its group; groups in the method's order, then world and the rest as they were. A file already grouped
    comes back unchanged."""
    owner = group_of(method)
    header, blocks = _blocks(text.splitlines())
    if not any(k in owner and not _is_group(k, own, method.groups) for k, _, own in blocks):
        return text
    grouped: dict[str, list[str]] = {g: [] for g in method.groups}
    rest: list[str] = []
    for key, above, own in blocks:
        if _is_group(key, own, method.groups):   # a group already written: its options joined to the moved ones
            grouped[key].extend(above + own[1:])
        elif key in owner:
            grouped[owner[key]].extend("  " + s if s.strip() else s for s in above + own)
        else:
            rest.extend(above + own)
    out = list(header)
    for g, body in grouped.items():
        if body:
            out += [f"{g}:", *body]
    out += rest
    return "\n".join(out) + "\n"


def regroup_file(path, method_name: str | None = None) -> bool:
    """Rewrite `path` in the grouped form (atomically) when it holds flat options; True when it changed. The
    rewrite is checked: its grouped options read back equal to the flat file's."""
    import yaml

    from pydeid.io import FormatError, atomic_write_text
    from pydeid.io.config import load_yaml

    from . import registry
    path = Path(path)
    name = method_name or path.stem.split("_")[0]
    try:
        m = registry.get(name)
    except ValueError:
        raise FormatError(path, None, f"no voice method '{name}' in its name: give --method") from None
    if not m.groups:
        return False
    before = load_yaml(path)   # the syntax checked, one line naming the file
    text = path.read_text(encoding="utf-8")
    new = regroup_text(text, m)
    if new == text:
        return False
    owner = group_of(m)
    flat_before = {}
    for k, v in before.items():
        if k in m.groups and (isinstance(v, dict) or v is None):
            flat_before.update(v)
        else:
            flat_before[k] = v
    unknown = [k for k in flat_before if k not in owner and k not in m.config_allowed()]
    if unknown:
        raise FormatError(path, _line(text, unknown[0]), f"unknown key '{unknown[0]}': not rewritten")
    after = flatten(yaml.safe_load(new) or {}, m, path, new)
    if after != flat_before:
        raise FormatError(path, None, "the grouped form would not read back the same options: not rewritten")
    atomic_write_text(path.resolve(), new)   # a symlinked config (an old name) keeps its link
    return True


def main(argv=None) -> int:
    import argparse

    from pydeid.io import FormatError
    p = argparse.ArgumentParser(prog="python -m pydeid.voice.configs",
                                description="regroup: rewrite flat voice configs (VTLN options at the top level) "
                                            "in the grouped form (warping:, classes:, pauses:, f0:, "
                                            "speaker_subspace:), comments kept")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("regroup", help="rewrite flat config files in place")
    r.add_argument("--method", default=None, help="the voice method (default: the file name's prefix, vtln_*.yaml)")
    r.add_argument("files", nargs="+")
    a = p.parse_args(argv)
    try:
        for f in a.files:
            changed = regroup_file(f, a.method)
            print(f"{f}: {'regrouped' if changed else 'unchanged'}")
    except FormatError as e:
        print(f"regroup: ERROR: {e}", file=sys.stderr)
        return 1
    return 0


__all__ = ["resolve_config", "TUNING", "group_of", "flatten", "load_config", "regroup_text", "regroup_file"]

if __name__ == "__main__":
    sys.exit(main())
