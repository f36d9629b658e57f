"""CTC forced alignment end to end with an ESPnet model trained by the recipe (pytest -m slow).

Trains the small tier (steps/train_asr.sh, conf/asr/small.yaml) on the default-size mini corpus, then aligns
mini_test with `steps/align.sh --backend ctc` and scores the word boundaries against the gold CTM. Measured
with a small-tier model of the ASR engineer trained 12 epochs on mini: 30.6 ms mean absolute boundary error,
82.0% of boundaries within 50 ms (mini_test, tiny).
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run(args, timeout=7200):
    env = dict(os.environ, PATH=f"{REPO}/utils:{REPO}/steps:{os.environ['PATH']}", OMP_NUM_THREADS="1", LC_ALL="C")
    p = subprocess.run(["bash"] + args, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"{args} failed:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    return p


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    from pydeid.corpora.mini import build_corpus
    m = build_corpus(tmp_path_factory.mktemp("mini_default"), seed=0, size="default")
    exp = tmp_path_factory.mktemp("exp") / "asr"
    run(["steps/train_asr.sh", "--max-epoch", "25", str(m / "mini_train"), str(m / "mini_dev"), str(exp)])
    return m, exp


def test_ctc_alignment_accuracy_on_mini(trained, tmp_path):
    m, exp = trained
    data = m / "mini_test"
    run(["steps/align.sh", "--backend", "ctc", "--nj", "2", "--gold-ctm", str(data / "words.ctm"),
         "--results", str(tmp_path / "RESULTS.md"), str(data), str(exp), str(tmp_path / "ali")])
    acc = json.loads((tmp_path / "ali" / "accuracy.json").read_text())
    rep = json.loads((tmp_path / "ali" / "report.json").read_text())
    assert rep["counts"]["failed"] <= 0.05 * rep["counts"]["utterances"]
    assert acc["paired_words"] >= 0.95 * acc["gold_words"]
    assert acc["mean_abs_error_ms"] < 80 and acc["within_50ms"] > 0.6, acc
    assert "ctc" in (tmp_path / "RESULTS.md").read_text()


def test_align_words_api_times_a_hypothesis(trained):
    from pydeid.align.ctc import align_words, load_speech2text
    from pydeid.asr.checkpoints import default_model_file
    from pydeid.io import DataDir
    m, exp = trained
    d = DataDir.read(m / "mini_test")
    utt = d.utts[0]
    wav = d.load_audio(utt)
    words = d.text[utt].split()
    timed = align_words(load_speech2text(exp, default_model_file(exp)), wav, words)
    assert [w for w, _, _ in timed] == words
    starts = [s for _, s, _ in timed]
    assert starts == sorted(starts) and all(s <= e for _, s, e in timed)
    assert timed[-1][2] <= len(wav) / 16000 + 0.05
