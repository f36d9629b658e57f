"""egs/mini/s5's neutral-corpus path (stages 0, 1 and 5 at --size tiny, every other option at its default): the
published neutral corpora data/mini_{train,dev,test}_neutral hold no original speaker, utterance or session id in
any file and no gender file; each keeps its speakers and utterances (under pseudonyms). Then stage 6, whose
Whisper meter reads the neutral test set through make_neutral's working dir."""

from __future__ import annotations

import os
import subprocess

import pytest

from pydeid.io import DataDir, validate_data_dir
from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir


@pytest.mark.slow
def test_mini_neutral_corpora_are_pseudonymous(recipe_copy, tmp_path):
    rec = recipe_copy("mini", tmp_path / "s5")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for a, b in (("0", "1"), ("5", "5")):
        p = subprocess.run(["./run.sh", "--size", "tiny", "--nj", "1", "--stage", a, "--stop-stage", b], cwd=rec,
                           capture_output=True, text=True, timeout=1800, env=env)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    data = rec / "data"
    all_ids = {}
    for s in ("mini_train", "mini_dev", "mini_test", "mini_test_enroll", "mini_test_trial"):
        all_ids.update(ids_of_data_dir(data / s))
    for s in ("mini_train", "mini_dev", "mini_test"):
        pub = data / f"{s}_neutral"
        validate_data_dir(pub, check_audio=True)
        assert find_id_leaks(pub, all_ids) == [], s
        assert not [p.name for p in pub.iterdir() if "gender" in p.name or "age" in p.name], s
        n, o = DataDir.read(pub), DataDir.read(data / s)
        assert len(n.speakers) == len(o.speakers) and len(n.utts) == len(o.utts)
    # the recipe's fixed seed: the log says the draws can be replayed
    assert "anyone who knows the seed can replay" in (rec / "exp/mask/mini_test/publish/publish.log").read_text()
    # stage 6 after it (ASR cut to one epoch): the Whisper meter pairs original and neutral utterances by the ids
    # of make_neutral's working dir, not by the published pseudonyms (an empty selection stopped `make demo`)
    p = subprocess.run(["./run.sh", "--size", "tiny", "--nj", "1", "--stage", "6", "--stop-stage", "6",
                        "--asr-max-epoch", "1", "--lm-max-epoch", "1", "--whisper-per-spk", "2"], cwd=rec,
                       capture_output=True, text=True, timeout=1800, env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    wo, wn = DataDir.read(data / "mini_test_whisper"), DataDir.read(data / "mini_test_neutral_whisper")
    assert wn.utts and set(wn.utts) <= set(wo.utts)
    table = (rec / "exp" / "utility" / "whisper.md").read_text()
    assert "| original" in table and "| neutral" in table, table
