"""One check shared by the recipes' option tests: a bad option is refused with one line before any stage runs."""

from __future__ import annotations

import subprocess


def assert_refused_before_any_stage(rec, args, message: str) -> None:
    """./run.sh <args> --stop-stage 0 in the recipe copy `rec` exits 1, its stderr ends with `message`, and no
    data dir was written."""
    p = subprocess.run(["./run.sh", *args, "--stop-stage", "0"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and p.stderr.strip().endswith(message), p.stderr
    assert not (rec / "data").exists()   # refused before any stage ran
