"""Helpers of the ASR tests, imported by module name (pytest puts this folder on sys.path). Not in conftest.py:
`from conftest import ...` resolves to whichever conftest.py pytest imported first when several test folders run
together (tests/text's, tests/voice's ...)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_step(args: list[str], cwd: Path = REPO, timeout: int = 1800) -> subprocess.CompletedProcess:
    """Run a steps/*.sh script the way a recipe does (cwd with utils/ steps/ conf/, path.sh environment)."""
    env = dict(os.environ)
    env["PATH"] = f"{REPO}/utils:{REPO}/steps:{REPO}/.venv/bin:{env.get('PATH', '')}"
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("NLTK_DATA", str(REPO / ".venv" / "nltk_data"))
    env.setdefault("HF_HUB_OFFLINE", "1")
    env["LC_ALL"] = "C"
    p = subprocess.run(["bash"] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


# The `tiny` mini corpus (4 training speakers x 8 utterances) is too small to learn anything; this session
# corpus (same generator, many training voices with few turns each, like the demo's default) trains the small
# tier to a WER far below 100% in CI time (tests/asr/test_wer_regression.py).
ASR_MINI = dict(n_train_speakers=24, train_utts_per_speaker=8, n_dev_speakers=2, n_test_speakers=4,
                utts_per_speaker=8, n_enroll=2)
