"""Helpers of the malformed-input suite (imported by module name; conftest.py holds the fixtures).

The suite: tiny real inputs, the CLI run in-process, and the three things every refusal must show.

Each case builds a valid tiny data dir (3 utterances of 2 speakers, 1.2 s of synthetic voiced audio each, gold
tags and word timings), breaks one thing, runs a `pydeid` subcommand and checks with `refused()`:
  - the exit status (1 for bad input, 2 for a bad option value),
  - exactly one error line, naming the file (and line or utterance) or the option, and no traceback,
  - the output dir absent or byte-for-byte unchanged.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import soundfile as sf

SR = 16000
UTTS = {
    # utt: (speaker, tokens, tags, word times)
    "spkA-d1-01": ("spkA", "call John Smith today".split(), ["O", "B-PER", "I-PER", "B-DATE"]),
    "spkA-d1-02": ("spkA", "meet me in Paris".split(), ["O", "O", "O", "B-LOC"]),
    "spkB-d1-01": ("spkB", "my number is five five".split(), ["O", "O", "O", "B-NUM", "I-NUM"]),
}
DUR = 1.2


def voiced(seed: int, dur: float = DUR, f0: float = 120.0) -> np.ndarray:
    """A vowel-like signal: harmonics of f0 with a slow envelope and a little noise (0.3 peak)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(dur * SR)) / SR
    x = sum(np.sin(2 * np.pi * f0 * (1 + 0.02 * seed) * h * t) / h for h in range(1, 12))
    x = x * (0.6 + 0.4 * np.sin(2 * np.pi * 3 * t)) + 0.01 * rng.standard_normal(len(t))
    return (0.3 * x / np.abs(x).max()).astype(np.float32)


def ctm_lines(utt: str, toks: list[str]) -> list[str]:
    step = (DUR - 0.2) / len(toks)
    return [f"{utt} 1 {0.1 + i * step:.3f} {step - 0.02:.3f} {w}" for i, w in enumerate(toks)]


def build(root: Path, name: str = "data") -> Path:
    d = root / name
    (d / "wav").mkdir(parents=True)
    wav, text, u2s, conll, ctm, u2d = [], [], [], [], [], []
    for k, (utt, (spk, toks, tags)) in enumerate(sorted(UTTS.items())):
        p = d / "wav" / f"{utt}.wav"
        sf.write(p, voiced(k), SR, subtype="PCM_16")
        wav.append(f"{utt} {p}")
        text.append(f"{utt} {' '.join(toks)}")
        u2s.append(f"{utt} {spk}")
        u2d.append(f"{utt} {DUR:.3f}")
        conll.append(f"# id = {utt}\n" + "".join(f"{w}\t{t}\n" for w, t in zip(toks, tags)))
        ctm += ctm_lines(utt, toks)
    for name_, lines in (("wav.scp", wav), ("text", text), ("utt2spk", u2s), ("utt2dur", u2d)):
        (d / name_).write_text("\n".join(lines) + "\n")
    (d / "spk2utt").write_text("spkA spkA-d1-01 spkA-d1-02\nspkB spkB-d1-01\n")
    (d / "spk2gender").write_text("spkA f\nspkB m\n")
    (root / "tags.conll").write_text("\n".join(conll) + "\n")
    (root / "words.ctm").write_text("\n".join(ctm) + "\n")
    return d


def snapshot(*paths) -> dict:
    """Every file under the paths with its sha1 (None for an absent path): compare before and after a run."""
    out = {}
    for p in map(Path, paths):
        if not p.exists():
            out[str(p)] = None
        elif p.is_file():
            out[str(p)] = hashlib.sha1(p.read_bytes()).hexdigest()
        else:
            for f in sorted(p.rglob("*")):
                out[str(f)] = hashlib.sha1(f.read_bytes()).hexdigest() if f.is_file() else "dir"
    return out


class Cli:
    def __init__(self, capsys):
        self.capsys = capsys

    def __call__(self, *argv) -> tuple[int, str, str]:
        from pydeid.cli import main
        self.capsys.readouterr()
        try:
            rc = main([str(a) for a in argv])
        except SystemExit as e:  # argparse usage errors
            rc = e.code if isinstance(e.code, int) else 1
        out, err = self.capsys.readouterr()
        return rc, out, err


def error_lines(err: str) -> list[str]:
    return [l for l in err.splitlines() if " ERROR: " in l or ": error: " in l]


def refused(result, status: int, *names: str, before: dict | None = None, outputs=()) -> str:
    """Assert a clean refusal; return its one error line."""
    rc, out, err = result
    assert "Traceback" not in err, err
    assert rc == status, f"exit status {rc}, expected {status}; stderr:\n{err}\nstdout:\n{out}"
    lines = error_lines(err)
    assert len(lines) == 1, f"expected one error line, got:\n{err}"
    for n in names:
        assert str(n) in lines[0], f"{n!r} not named in: {lines[0]}"
    if before is not None:
        assert snapshot(*outputs) == before, "the output changed although the run was refused"
    else:
        for o in outputs:
            assert not Path(o).exists(), f"{o} was written although the run was refused"
    return lines[0]


def copy_data(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst
