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


def _ids(d):
    return set(d.utt2spk) | set(d.utt2spk.values())


def test_make_neutral_converts_masks_verifies_and_publishes(repo_root, work):
    """Every option at its default: convert, mask, verify, then publish with keyed pseudonymous ids and no gender,
    the key drawn at the first run (0600, exp/secrets); a rerun redoes nothing."""
    args = ("steps/make_neutral.sh", "--voice", "mcadams:-", "--source-data", "data/src",
            "--results", "RESULTS.md", "--name", "src (gold CTM)", "data/src_mcadams", "data/src/tags.conll",
            "data/src/words.ctm", "exp/mask/src", "data/src_neutral")
    r = _step(repo_root, work, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "cannot be replayed without it" in r.stdout and "gender not published" in r.stdout, r.stdout
    assert (work / "exp/secrets/publisher.key").stat().st_mode & 0o777 == 0o600
    orig, conv = DataDir.read(work / "data/src"), DataDir.read(work / "data/src_mcadams", check_audio=True)
    neutral = DataDir.read(work / "data/src_neutral", check_audio=True)
    assert len(neutral.utts) == len(conv.utts) == len(orig.utts) == 2
    assert not _ids(neutral) & _ids(orig)                                    # pseudonymous ids only
    published = {p.name for p in (work / "data/src_neutral").iterdir()}
    assert not {"spk2gender", "utt2gender", "tags.conll", "words.ctm"} & published, published
    assert not list((work / "data/src_neutral").rglob(".*"))                  # no hidden temp or config file
    assert not set(neutral.wav_scp.values()) & set(orig.wav_scp.values())    # no original audio in the corpus
    idmap = list((work / "exp/secrets").glob("idmap.src_neutral.*.json"))
    assert len(idmap) == 1 and (idmap[0].stat().st_mode & 0o777) == 0o600
    assert (work / "exp/voice/src_mcadams/secrets/voice_plan.json").is_file()   # the conversion's secrets, outside
    assert not list((work / "data").rglob("voice_plan.json"))
    assert (work / "exp/mask/src/verify").is_dir() and "src (gold CTM)" in (work / "RESULTS.md").read_text()
    hidden = {ln.split()[0] for ln in (work / "data/src/tags.conll").read_text().splitlines()
              if len(ln.split()) == 2 and ln.split()[1] != "O"}
    assert hidden and not hidden & set(" ".join(neutral.text.values()).split())   # tagged words gone from the text
    mtime = (work / "data/src_neutral/wav.scp").stat().st_mtime
    r = _step(repo_root, work, *args)   # a rerun: nothing redone, the checks run again
    assert r.returncode == 0 and (work / "data/src_neutral/wav.scp").stat().st_mtime == mtime, r.stderr


def _neutral_run(repo_root, work, *opts):
    args = ("steps/make_neutral.sh", "--voice", "voicemask:-", "--source-data", "data/src", *opts,
            "data/src_voicemask", "data/src/tags.conll", "data/src/words.ctm", "exp/mask/src", "data/src_neutral")
    r = _step(repo_root, work, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    d = DataDir.read(work / "data/src_neutral", check_audio=True)
    return r, d, {u: open(v, "rb").read() for u, v in d.wav_scp.items()}


@pytest.mark.slow
def test_default_runs_draw_their_own_key_and_a_resume_reuses_it(repo_root, work, tmp_path_factory):
    """No --seed: a publisher's key from os.urandom, so two publishers get different ids and audio (VoiceMask's
    random warps); a rerun from scratch with the same key gives byte-identical output; --seed N says it can be
    replayed."""
    import shutil
    _, d1, a1 = _neutral_run(repo_root, work)
    other = tmp_path_factory.mktemp("other")
    for name in ("steps", "utils", "conf"):
        (other / name).symlink_to(repo_root / name)
    shutil.copytree(work / "data/src", other / "data/src")
    _, d2, a2 = _neutral_run(repo_root, other)
    assert not set(d1.utts) & set(d2.utts) and not set(a1.values()) & set(a2.values())
    for p in ("data/src_voicemask", "data/src_neutral", "exp/mask", "exp/voice"):
        shutil.rmtree(work / p)
    _, d3, a3 = _neutral_run(repo_root, work)
    assert d3.utts == d1.utts and a3 == a1
    shutil.rmtree(other / "data/src_neutral")
    r, d4, _ = _neutral_run(repo_root, other, "--seed", "0", "--keep-gender", "true")
    assert "anyone who knows the seed can replay" in r.stdout and "gender published" in r.stdout, r.stdout
    assert d4.spk2gender and set(d4.spk2gender) == set(d4.utt2spk.values())


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


def test_two_outputs_sharing_an_exp_folder_are_refused(repo_root, work):
    """a/x and b/x would share exp/voice/x: the second run is refused with one line before any work (the first's
    secret plan stays); the same output may rerun."""
    r = _step(repo_root, work, "utils/claim_exp_dir.sh", "exp/voice/x", "data/a/x")   # as a first run does
    assert r.returncode == 0 and (work / "exp/voice/x/owner").read_text().strip() == str(work / "data/a/x")
    r = _step(repo_root, work, "steps/convert_voice.sh", "mcadams", "data/src", "-:0:data/b/x")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "exp/voice/x holds the secrets and logs of" in r.stderr and "data/b/x" in r.stderr
    assert not (work / "data/b/x").exists()
    assert _step(repo_root, work, "utils/claim_exp_dir.sh", "exp/voice/x", "data/a/x").returncode == 0


def test_mask_words_leaves_no_temp_file_inside_the_published_dir(repo_root, work):
    """A killed run used to leave .<utt>.wav.<random>.tmp inside wav/; temp files now live in a sibling
    .<out>.partial dir, and a rerun removes the stale ones of older runs."""
    wav = work / "data/out/wav"
    wav.mkdir(parents=True)
    (wav / ".u1.wav.abc123.tmp").write_bytes(b"half a wav")
    partial = work / "data/.out.partial"
    partial.mkdir()
    (partial / ".u2.wav.def456.tmp").write_bytes(b"half a wav")
    r = _step(repo_root, work, "steps/mask_words.sh", "data/src", "data/src/tags.conll", "data/src/words.ctm",
              "exp/mask/out", "data/out")
    assert r.returncode == 0, r.stderr
    assert not list((work / "data/out").rglob(".*.tmp")) and not partial.exists()
    r = _step(repo_root, work, "steps/mask_words.sh", "data/src", "data/src/tags.conll", "data/src/words.ctm",
              "exp/mask/out", "data/out2")
    assert r.returncode == 1 and "exp/mask/out holds the secrets and logs of" in r.stderr


def test_make_neutral_masks_again_when_the_voices_change(repo_root, work):
    """The published corpus of a rerun with OTHER voices (another method into another converted dir, the same exp
    dir and corpus) is made from the new voices: the masked working dir is made again, not resumed from the old
    voices' audio (which the run would otherwise publish under the new voices' name)."""
    import numpy as np
    import soundfile as sf

    def run(method):
        args = ("steps/make_neutral.sh", "--voice", f"{method}:-", "--source-data", "data/src", "--seed", "3",
                f"data/src_{method}", "data/src/tags.conll", "data/src/words.ctm", "exp/mask/src", "data/src_neutral")
        r = _step(repo_root, work, *args)
        assert r.returncode == 0, r.stdout + r.stderr
        return r

    def close_to(masked, conv):   # the masked audio is the conversion's outside the silenced words (most of these
        # short utterances is a silenced name and its pauses)
        m = DataDir.read(work / masked)
        c = DataDir.read(work / conv)
        return [float(np.mean(np.abs(sf.read(m.wav_scp[u])[0] - sf.read(c.wav_scp[u])[0]) < 1e-4)) for u in m.utts]

    run("mcadams")
    assert min(close_to("exp/mask/src/masked", "data/src_mcadams")) > 0.3
    published = {p.name: p.read_bytes() for p in (work / "data/src_neutral/wav").iterdir()}
    r = run("voicemask")
    assert "made from other inputs: removed, made again" in r.stderr, r.stderr
    assert min(close_to("exp/mask/src/masked", "data/src_voicemask")) > 0.3
    assert max(close_to("exp/mask/src/masked", "data/src_mcadams")) < 0.1
    again = {p.name: p.read_bytes() for p in (work / "data/src_neutral/wav").iterdir()}
    assert again.keys() == published.keys() and not any(again[k] == published[k] for k in again)
    r = run("voicemask")   # the same voices: resumed, nothing made again
    assert "made again" not in r.stderr


def test_make_neutral_masks_again_when_the_tags_change(repo_root, work):
    """A rerun with other tags (another detector, another --tags scope) masks again: the working dir used to be
    kept because only the audio was fingerprinted, and the words the new tags hide stayed in the published audio
    (verify-masking then stopped on leaks instead of the step masking them)."""
    tags = (work / "data/src/tags.conll").read_text()
    assert "B-" in tags
    # the first run hides nothing: every tag turned to O
    lines = [ln if not ln.strip() or ln.startswith("#") else " ".join(ln.split()[:-1] + ["O"])
             for ln in tags.splitlines()]
    (work / "none.conll").write_text("\n".join(lines) + "\n")

    def run(tagfile):
        r = _step(repo_root, work, "steps/make_neutral.sh", "--voice", "mcadams:-", "--source-data", "data/src",
                  "--seed", "3", "data/src_mcadams", tagfile, "data/src/words.ctm", "exp/mask/src", "data/src_neutral")
        return r
    r = run("none.conll")
    assert r.returncode == 0, r.stdout + r.stderr
    text_before = (work / "exp/mask/src/masked/text").read_text()
    r = run("data/src/tags.conll")
    assert r.returncode == 0, r.stdout + r.stderr          # masked again, so no leak to stop on
    assert "made from other inputs: removed, made again" in r.stderr, r.stderr
    assert (work / "exp/mask/src/masked/text").read_text() != text_before
    r = run("data/src/tags.conll")                          # the same inputs: resumed, nothing made again
    assert r.returncode == 0 and "made again" not in r.stderr, r.stderr


def test_convert_voice_makes_a_finished_output_again_when_its_input_text_changes(repo_root, work):
    """The converted dir carries its input's transcript: when that changes (another text strategy upstream, the
    same audio) the output is made again with the new text; it used to keep the old one."""
    conv = ("steps/convert_voice.sh", "mcadams", "data/src", "-:0:data/a")
    r = _step(repo_root, work, *conv)
    assert r.returncode == 0, r.stderr
    text = (work / "data/src/text").read_text()
    new = "\n".join(ln.split()[0] + " <surrogate> " + " ".join(ln.split()[2:]) for ln in text.splitlines()) + "\n"
    (work / "data/src/text").write_text(new)
    r = _step(repo_root, work, *conv)
    assert r.returncode == 0, r.stderr
    assert "data/a was made from other inputs: removed, made again" in r.stderr, r.stderr
    assert (work / "data/a/text").read_text() == new


def test_convert_voice_makes_a_finished_output_again_when_its_config_changes(repo_root, work):
    """A finished conversion is skipped on a rerun with the same inputs, and made again (new plan, new audio) when
    its config, seed or input audio changed: it used to be kept, stale, under the same name."""
    import numpy as np
    import soundfile as sf

    def audio(d):
        dd = DataDir.read(work / d)
        return {u: sf.read(dd.wav_scp[u])[0] for u in dd.utts}

    conv = ("steps/convert_voice.sh", "mcadams", "data/src", "-:0:data/a")
    r = _step(repo_root, work, *conv)
    assert r.returncode == 0, r.stderr
    first = audio("data/a")
    r = _step(repo_root, work, *conv)
    assert r.returncode == 0 and "converted voices" not in r.stdout and "made again" not in r.stderr
    cfg = work / "mild.yaml"   # the same method, another coefficient
    cfg.write_text((repo_root / "conf/voice/mcadams.yaml").read_text().replace("alpha: 0.8 ", "alpha: 0.95 "))
    r = _step(repo_root, work, "steps/convert_voice.sh", "--voice-config", "mild.yaml", *conv[1:])
    assert r.returncode == 0, r.stderr
    assert "data/a was made from other inputs: removed, made again" in r.stderr, r.stderr
    again = audio("data/a")
    assert again.keys() == first.keys() and not any(np.allclose(again[u], first[u]) for u in first)
    plan = (work / "exp/voice/a/secrets/voice_plan.json").read_text()
    assert "0.95" in plan
