"""No import cycle inside pydeid/: every module's imports (imports inside functions included) are parsed, resolved
to pydeid modules, and the strongly connected components of that graph must be single modules."""

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "pydeid"
def _modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


@functools.lru_cache(maxsize=1)
def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[:len(up) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                while t and t not in mods:      # a name inside a module: the module itself
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def cycles(graph) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    import sys
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    g = import_graph()
    assert "pydeid.voice.vtln.features" in g["pydeid.voice.vtln.class_residual"]   # a relative import
    assert "pydeid.voice.vtln.phone_classes" in g["pydeid.voice.vtln.core"]       # an import inside a function


@pytest.mark.parametrize("package", ["pydeid.voice", "pydeid.text", "pydeid.cli", "pydeid.io", "pydeid.mask",
                                     "pydeid.align"])
def test_no_cycle_in(package):
    found = [c for c in cycles(import_graph()) if any(m == package or m.startswith(package + ".") for m in c)]
    assert found == [], found


def test_no_cycle_anywhere():
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("lower, upper", [("pydeid.align", "pydeid.asr"), ("pydeid.voice", "pydeid.mask"),
                                          ("pydeid.speech", "pydeid.corpora")])
def test_layer_arrow(lower, upper):
    """A lower layer imports nothing from an upper one (imports inside functions included): alignment chooses no
    ASR checkpoint (the caller passes it), voice conversion knows nothing of masking, espeak synthesis nothing of
    the synthetic corpus."""
    g = import_graph()
    within = [m for m in g if m == lower or m.startswith(lower + ".")]
    assert within, lower
    up = sorted((m, t) for m in within for t in g[m] if t == upper or t.startswith(upper + "."))
    assert up == [], up
