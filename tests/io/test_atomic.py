"""Atomic writes leave nothing behind when interrupted: no partial target, no temp file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from pydeid.io import atomic_write, atomic_write_text, write_secret_text
from pydeid.io.secrets import SecretPlacementError


def test_exception_leaves_old_content_and_no_temp(tmp_path):
    p = tmp_path / "f.txt"
    atomic_write_text(p, "old\n")
    with pytest.raises(RuntimeError):
        with atomic_write(p) as f:
            f.write("new partial")
            raise RuntimeError("boom")
    assert p.read_text() == "old\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["f.txt"]


WRITER = """
import sys, time
from pydeid.io import atomic_write
with atomic_write(sys.argv[1]) as f:
    f.write("partial")
    f.flush()
    print("writing", flush=True)
    time.sleep(30)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_process_leaves_nothing(tmp_path, sig):
    target = tmp_path / "out.txt"
    # Python only raises KeyboardInterrupt on SIGINT when SIGINT was not ignored at start-up (it is in background
    # jobs), so install the handler explicitly; our CLI maps SIGTERM to SystemExit, do the same here.
    code = ("import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))\n" + WRITER)
    proc = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "writing"
    assert any(x.name.endswith(".tmp") for x in tmp_path.iterdir())  # the temp file exists while writing
    proc.send_signal(sig)
    proc.wait(timeout=20)
    assert proc.returncode != 0
    assert list(tmp_path.iterdir()) == []


def test_ordinary_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "text", "a b\n")
    finally:
        os.umask(old)
    assert (os.stat(tmp_path / "text").st_mode & 0o777) == 0o644


def test_secret_mode_and_placement(tmp_path):
    corpus = tmp_path / "data" / "neutral"
    corpus.mkdir(parents=True)
    with pytest.raises(SecretPlacementError):
        write_secret_text(corpus / "map.json", "{}", forbidden_dirs=[corpus])
    p = write_secret_text(tmp_path / "exp" / "secrets" / "map.json", "{}", forbidden_dirs=[corpus])
    assert (os.stat(p).st_mode & 0o777) == 0o600
    assert not any(corpus.iterdir())
