"""The steps every recipe calls for its conversions and its neutral corpus: steps/convert_voice.sh (one signature:
<method> <in-data> <strategy>:<seed>:<out-data>...) and steps/make_neutral.sh (convert, mask, verify), on two
utterances of the tiny mini corpus with its gold tags and word times."""

import os
import subprocess

import pytest

from pydeid.io import DataDir


def _step(repo_root, cwd, *args):
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{os.environ['PATH']}")
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture
def work(repo_root, mini_corpus, tmp_path):
    """A recipe-like dir (steps, utils, conf linked) with data/src: 2 speakers x 1 utterance of mini_test_enroll."""
    for name in ("steps", "utils", "conf"):
        (tmp_path / name).symlink_to(repo_root / name)
    spk = sorted({ln.split()[1] for ln in (mini_corpus / "mini_test_enroll" / "utt2spk").read_text().splitlines()})
    (tmp_path / "spk").write_text("\n".join(spk[:2]) + "\n")
    for args in (("--spk-list", tmp_path / "spk", mini_corpus / "mini_test_enroll", "data/two"),
                 ("--per-spk", "1", "data/two", "data/src")):
        r = _step(repo_root, tmp_path, "utils/subset_data_dir.sh", *args)
        assert r.returncode == 0, r.stderr
    return tmp_path


def test_make_neutral_converts_masks_and_verifies(repo_root, work):
    args = ("steps/make_neutral.sh", "--voice", "mcadams:-", "--source-data", "data/src", "--seed", "0",
            "--results", "RESULTS.md", "--name", "src (gold CTM)", "data/src_mcadams", "data/src/tags.conll",
            "data/src/words.ctm", "exp/mask/src", "data/src_neutral")
    r = _step(repo_root, work, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    orig, conv = DataDir.read(work / "data/src"), DataDir.read(work / "data/src_mcadams", check_audio=True)
    neutral = DataDir.read(work / "data/src_neutral", check_audio=True)
    assert neutral.utts == conv.utts == orig.utts and len(orig.utts) == 2
    assert not set(neutral.wav_scp.values()) & set(orig.wav_scp.values())    # no original audio in the corpus
    assert (work / "exp/voice/src_mcadams/secrets/voice_plan.json").is_file()   # the conversion's secrets, outside
    assert not list((work / "data").rglob("voice_plan.json"))
    assert (work / "exp/mask/src/verify").is_dir() and "src (gold CTM)" in (work / "RESULTS.md").read_text()
    hidden = {ln.split()[0] for ln in (work / "data/src/tags.conll").read_text().splitlines()
              if len(ln.split()) == 2 and ln.split()[1] != "O"}
    assert hidden and not hidden & set(" ".join(neutral.text.values()).split())   # tagged words gone from the text
    mtime = (work / "data/src_neutral/wav.scp").stat().st_mtime
    r = _step(repo_root, work, *args)   # a rerun: nothing redone, the check runs again
    assert r.returncode == 0 and (work / "data/src_neutral/wav.scp").stat().st_mtime == mtime, r.stderr


@pytest.mark.slow
def test_convert_voice_skips_finished_outputs_and_checks_specs(repo_root, work):
    r = _step(repo_root, work, "steps/convert_voice.sh", "mcadams", "data/src", "-:0:data/a", "-:1:data/b")
    assert r.returncode == 0, r.stderr
    a, b = DataDir.read(work / "data/a", check_audio=True), DataDir.read(work / "data/b", check_audio=True)
    assert a.utts == b.utts and (work / "exp/voice/a").is_dir() and (work / "exp/voice/b").is_dir()
    r = _step(repo_root, work, "steps/convert_voice.sh", "mcadams", "data/src", "-:0:data/a")
    assert r.returncode == 0 and "converted voices" not in r.stdout   # finished: skipped
    r = _step(repo_root, work, "steps/convert_voice.sh", "mcadams", "data/src", "0:data/c")
    assert r.returncode == 1 and r.stderr.strip() == \
        "steps/convert_voice.sh: '0:data/c': expected <strategy>:<seed>:<out-data>" and not (work / "data/c").exists()
    r = _step(repo_root, work, "steps/convert_voice.sh", "vtln", "data/src", "3:0:data/c")
    assert r.returncode == 1 and "vtln needs --target-data" in r.stderr and not (work / "data/c").exists()
    r = _step(repo_root, work, "steps/convert_voice.sh", "mcadams", "data/src")   # an empty list: nothing to do
    assert r.returncode == 0
