"""tag-entities adds the spans a dialogue shows, so that the ORIGINAL tags (which mask-words and verify-masking
read) hold them: a phone number read out over three turns, the "K two" before a spelled surname, a later
lower-case mention of a tagged name. steps/tag_entities.sh --nj 2 splits a dialogue's speakers over two jobs and
must give the same tags as one job."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pydeid.cli import main
from pydeid.io.conll import read_conll

TURNS = {
    "spk1-d1-01": "my phone number is five five five",
    "spk1-d1-02": "two one two",
    "spk1-d1-03": "three four five six",
    "spk1-d1-04": "my name is K two W A L S K I",
    "spk2-d1-01": "thanks Anna Kowalski",
    "spk2-d1-02": "kowalski's flight leaves at ten",
    "spk3-d2-01": "two one two is the bus I take",   # another dialogue: no number is open there
}
DETECTORS = "grammar,cues"


def _data(d: Path) -> Path:
    d.mkdir(parents=True)
    import numpy as np
    import soundfile as sf
    sf.write(d / "a.wav", np.zeros(1600, dtype=np.int16), 16000)   # the split of --nj 2 needs audio data dirs
    (d / "wav.scp").write_text("".join(f"{u} {d / 'a.wav'}\n" for u in TURNS))
    (d / "text").write_text("".join(f"{u} {t}\n" for u, t in TURNS.items()))
    (d / "utt2spk").write_text("".join(f"{u} {u.split('-')[0]}\n" for u in TURNS))
    spk2utt: dict[str, list[str]] = {}
    for u in TURNS:
        spk2utt.setdefault(u.split("-")[0], []).append(u)
    (d / "spk2utt").write_text("".join(f"{s} {' '.join(us)}\n" for s, us in spk2utt.items()))
    return d


def _tagged(conll) -> dict[str, list[str]]:
    return {s.id: [t for t, g in zip(s.tokens, s.tags) if g != "O"] for s in read_conll(conll)}


def test_the_dialogue_context_reaches_the_tags(tmp_path):
    data = _data(tmp_path / "data")
    assert main(["tag-entities", "--detectors", DETECTORS, str(data), str(tmp_path / "on.conll")]) == 0
    on = _tagged(tmp_path / "on.conll")
    assert on["spk1-d1-02"] == ["two", "one", "two"] and on["spk1-d1-03"] == ["three", "four", "five", "six"]
    assert on["spk1-d1-04"][:2] == ["K", "two"] and len(on["spk1-d1-04"]) == 8
    assert on["spk2-d1-02"][0] == "kowalski's"
    dets = {c for s in read_conll(tmp_path / "on.conll") for x in (s.extra or []) for c in x}
    assert any("dialogue" in d for d in dets)
    assert main(["tag-entities", "--detectors", DETECTORS, "--dialogue-context", "false", str(data),
                 str(tmp_path / "off.conll")]) == 0
    off = _tagged(tmp_path / "off.conll")
    assert "kowalski's" not in off["spk2-d1-02"] and off["spk1-d1-04"][:2] != ["K", "two"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed for the steps scripts")
def test_split_jobs_give_the_same_tags(repo_root, tmp_path):
    data = _data(tmp_path / "data")
    assert main(["tag-entities", "--detectors", DETECTORS, str(data), str(tmp_path / "one.conll")]) == 0
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{Path(sys.executable).parent}:"
                               f"{os.environ['PATH']}")
    r = subprocess.run(["bash", "steps/tag_entities.sh", "--nj", "2", "--detectors", DETECTORS, str(data), "-",
                        str(tmp_path / "tag")], cwd=repo_root, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert _tagged(tmp_path / "tag" / "tags.conll") == _tagged(tmp_path / "one.conll")
