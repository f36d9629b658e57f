"""The `pydeid` command: every subcommand registers, help works, and discovery stays light (no torch/espnet
imports just to print help), and bad input ends in one line naming the file, not a traceback."""

from __future__ import annotations

import subprocess
import sys

from pydeid.io import DataDir


def test_help_lists_subcommands_without_heavy_imports():
    code = ("import sys; from pydeid.cli import build_parser; p = build_parser(); "
            "heavy = [m for m in ('torch', 'espnet2', 'speechbrain', 'flair', 'pyworld') if m in sys.modules]; "
            "print(','.join(heavy)); print(p.format_help())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    heavy, help_text = out.split("\n", 1)
    assert heavy == "", f"CLI discovery imports heavy modules: {heavy}"
    assert "validate-data-dir" in help_text


def test_format_error_is_one_line(tmp_path):
    d = DataDir(wav_scp={"a": "/nonexistent.wav"}, text={"a": "x"}, utt2spk={"a": "s"}).write(tmp_path / "d")
    (d / "text").write_text("b x\n")
    proc = subprocess.run([sys.executable, "-m", "pydeid", "validate-data-dir", str(d)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"pydeid validate-data-dir: ERROR: {d}/utt2spk:1: utterance 'a' has no entry in text"]
    ok = DataDir(wav_scp={"a": "/nonexistent.wav"}, text={"a": "x"}, utt2spk={"a": "s"}).write(tmp_path / "e")
    proc = subprocess.run([sys.executable, "-m", "pydeid", "validate-data-dir", "--check-audio", str(ok)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "wav.scp:1" in proc.stderr and "does not exist" in proc.stderr


def test_chain_runs_parts_in_order_and_stops_at_the_first_failure(tmp_path):
    """`pydeid chain a ::: b ::: c`: each part as `pydeid <part>` would run it, in one process; the first failing
    part ends the chain with its status and one line naming it."""
    good = DataDir(wav_scp={"u1": "/x/u1.wav"}, text={"u1": "hello"}, utt2spk={"u1": "s1"}).write(tmp_path / "good")
    bad = DataDir(wav_scp={"u1": "/x/u1.wav"}, text={"u1": "hello"}, utt2spk={"u1": "s1"}).write(tmp_path / "bad")
    (bad / "text").write_text("u2 hello\n")

    def chain(*parts):
        return subprocess.run([sys.executable, "-m", "pydeid", "chain", *parts], capture_output=True, text=True)

    r = chain("validate-data-dir", str(good), ":::", "validate-data-dir", str(good))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("part 1/2") == 1 and r.stderr.count("part 2/2") == 1
    r = chain("validate-data-dir", str(good), ":::", "validate-data-dir", str(bad), ":::",
              "validate-data-dir", str(good))
    assert r.returncode == 1 and "part 2 (validate-data-dir) failed" in r.stderr and "part 3/3" not in r.stderr
    assert "no entry in text" in r.stderr and "Traceback" not in r.stderr
    assert chain("validate-data-dir", str(good), ":::").returncode != 0        # an empty part is refused
