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


def test_report_summary_lists_the_tables_a_run_left_out(tmp_path):
    """`pydeid report-summary --not-run TABLE=WHY` (the mini demo's tables that run with `--tables full` only): the
    summary names each left-out table with where it comes from; the run's own tables stay listed; a malformed
    spec is one line, exit 2."""
    res = tmp_path / "RESULTS.md"
    res.write_text("# RESULTS\n\n<!-- begin a -->\n## WER table\n\nx\n<!-- end a -->\n")

    def summary(*opts):
        return subprocess.run([sys.executable, "-m", "pydeid", "report-summary", "--results", str(res),
                               "--exp", str(tmp_path / "exp"), *opts], capture_output=True, text=True)

    r = summary("--not-run", "Speaker information (seed 004 table 1)=stage 8, with ./run.sh --tables full")
    assert r.returncode == 0, r.stderr
    body = res.read_text().split("<!-- begin summary -->")[1]
    assert "- WER table\n" in body
    assert "Not in this run:\n\n- Speaker information (seed 004 table 1): stage 8, with ./run.sh --tables full" in body
    r = summary()   # a later run that made every table: the list goes
    assert r.returncode == 0 and "Not in this run" not in res.read_text()
    r = summary("--not-run", "no reason given")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "TABLE=WHY" in r.stderr
