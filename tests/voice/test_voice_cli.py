"""`pydeid transform-voice` and steps/transform_voice.sh on real data dirs: output corpus, secrets, determinism
across --nj, resume after a killed job, reuse of a mapping."""

from __future__ import annotations

import filecmp
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pydeid.io import DataDir, validate_data_dir
from pydeid.voice.convert import assign_target, choose_pool
from voice_helpers import vctk_data_dir


def cli(*args, cwd=None, check=True):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], cwd=cwd, env=env, capture_output=True,
                       text=True)
    if check and r.returncode:
        raise AssertionError(f"pydeid {args} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r


@pytest.fixture(scope="module")
def src_dir(vctk_dir, tmp_path_factory):
    """p226 (m) and p228 (f), 3 sentences each, with side files that must be carried over unchanged."""
    d = vctk_data_dir(vctk_dir, tmp_path_factory.mktemp("src") / "src", ["p226", "p228"], 3)
    dd = DataDir.read(d)
    (d / "utt2gender").write_text("".join(f"{u} {dd.spk2gender[dd.utt2spk[u]]}\n" for u in dd.utts))
    (d / "words.ctm").write_text("".join(f"{u} 1 0.10 0.30 hello 1.00\n" for u in dd.utts))
    (d / "tags.conll").write_text("".join(f"# id = {u}\nhello\tO\n\n" for u in dd.utts))
    return d


@pytest.fixture(scope="module")
def tgt_dir(vctk_dir, tmp_path_factory):
    return vctk_data_dir(vctk_dir, tmp_path_factory.mktemp("tgt") / "tgt", ["p225", "p227"], 3)


def all_text(folder: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file() and p.suffix != ".wav")


def check_output_corpus(src: Path, out: Path, exp: Path):
    validate_data_dir(out, check_audio=True)
    s, o = DataDir.read(src), DataDir.read(out)
    assert o.utts == s.utts
    for name in ("text", "utt2spk", "spk2utt", "utt2gender", "spk2gender", "words.ctm", "tags.conll"):
        if not (src / name).exists():
            continue
        assert filecmp.cmp(src / name, out / name, shallow=False), name
    for u, path in o.wav_scp.items():
        assert os.path.isabs(path) and Path(path).parent == (out / "wav").resolve()
        assert len(o.load_audio(u)) == len(s.load_audio(u))
    text = all_text(out)
    for path in s.wav_scp.values():             # no original audio path anywhere in the corpus
        assert path not in text and str(Path(path).resolve()) not in text
        assert str(Path(path).parent.resolve()) not in text
    plan = exp / "secrets" / "voice_plan.json"
    assert stat.S_IMODE(plan.stat().st_mode) == 0o600
    assert not any(p.name == "voice_plan.json" for p in out.rglob("*"))
    secret = json.loads(plan.read_text())
    return secret


def test_strategies_and_pool():
    pool = choose_pool([f"t{i:03d}" for i in range(300)], 100, seed=1)
    assert len(pool) == 100 and pool == sorted(pool) and pool == choose_pool([f"t{i:03d}" for i in range(300)], 100, 1)
    utts = [(f"s{i % 5}", f"s{i % 5}_u{i}") for i in range(60)]
    s1 = {assign_target(1, pool, 0, s, u) for s, u in utts}
    assert len(s1) == 1
    s2 = {}
    for s, u in utts:
        s2.setdefault(s, set()).add(assign_target(2, pool, 0, s, u))
    assert all(len(v) == 1 for v in s2.values()) and len({next(iter(v)) for v in s2.values()}) > 1
    s3 = [assign_target(3, pool, 0, s, u) for s, u in utts]
    assert len(set(s3)) > 20
    assert all(assign_target(3, ["a", "b"], 0, "a", f"u{i}") == "b" for i in range(20))   # never oneself


def test_targets_of_the_source_speakers_gender():
    """Default rule "same": targets come from the pool speakers of the source's gender; strategy 1 has one fixed
    target per gender; a pool without that gender falls back to the whole pool."""
    pool = [f"t{i:02d}" for i in range(20)]
    genders = {t: ("f" if i % 2 else "m") for i, t in enumerate(pool)}
    for strategy in (1, 2, 3):
        for i in range(40):
            g = "f" if i % 3 else "m"
            t = assign_target(strategy, pool, 5, f"s{i % 4}", f"u{i}", g, genders)
            assert genders[t] == g
    s1 = {g: {assign_target(1, pool, 0, f"s{i}", f"u{i}", g, genders) for i in range(10)} for g in "mf"}
    assert all(len(v) == 1 for v in s1.values()) and s1["m"] != s1["f"]
    males = [t for t in pool if genders[t] == "m"]
    assert assign_target(2, males, 0, "s", "u", "f", genders) in males          # no female in the pool
    # make_plan: the rule recorded, unknown-gender speakers counted, an unknown rule refused
    from pydeid.io import DataDir
    from pydeid.voice.convert import make_plan
    d = DataDir()
    for i in range(6):
        d.wav_scp[f"a{i}"] = "/x.wav"
        d.text[f"a{i}"] = "x"
        d.utt2spk[f"a{i}"] = f"s{i % 3}"
    d.spk2gender = {"s0": "m", "s1": "f"}                                       # s2 unknown
    plan = make_plan(d, "vtln", 2, 0, {}, pool, pool_genders=genders, target_gender="same")
    assert plan["target_gender"] == "same" and plan["target_gender_fallback"] == 1
    assert genders[plan["spk2target"]["s0"]] == "m" and genders[plan["spk2target"]["s1"]] == "f"
    with pytest.raises(ValueError, match="allowed: same, any"):
        make_plan(d, "vtln", 2, 0, {}, pool, pool_genders=genders, target_gender="female")


@pytest.mark.slow
def test_vtln_cli_corpus_and_secrets(src_dir, tgt_dir, tmp_path):
    out, exp = tmp_path / "out", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--strategy", "2", "--target-data", tgt_dir, "--exp-dir", exp,
        src_dir, out)
    secret = check_output_corpus(src_dir, out, exp)
    assert secret["spk2target"].keys() == {"p226", "p228"}
    # the pooled target speakers are female p225 and male p227: same-gender targets by default
    assert secret["spk2target"] == {"p226": "p227", "p228": "p225"}
    # the male source's F0 moves to his target's
    from voice_helpers import median_f0
    s, o = DataDir.read(src_dir), DataDir.read(out)
    u = "p226_003"
    tgt = secret["utt"][u]["target"]
    ratio = median_f0(o.load_audio(u)) / median_f0(s.load_audio(u))
    assert (ratio > 1.3) if tgt == "p225" else (0.75 < ratio < 1.35)

    # reuse the mapping with another seed: same targets
    out2, exp2 = tmp_path / "out2", tmp_path / "exp2"
    cli("transform-voice", "--method", "vtln", "--strategy", "2", "--target-data", tgt_dir, "--exp-dir", exp2,
        "--seed", "77", "--targets-file", exp / "secrets" / "voice_plan.json", "--part", "plan", src_dir, out2)
    again = json.loads((exp2 / "secrets" / "voice_plan.json").read_text())
    assert again["utt"] == secret["utt"]


def test_voicemask_pitch_to_target_speaker(src_dir, tgt_dir, tmp_path, repo_root):
    """pitch_mode target: each utterance's F0 is mapped onto a same-gender pool speaker's log-F0 statistics, whose
    values are in the secret plan; without --target-data the run stops with one line."""
    from voice_helpers import median_f0
    out, exp = tmp_path / "out", tmp_path / "exp"
    conf = repo_root / "conf" / "voice" / "voicemask_target.yaml"
    cli("transform-voice", "--method", "voicemask", "--config", conf, "--target-data", tgt_dir, "--exp-dir", exp,
        src_dir, out)
    secret = check_output_corpus(src_dir, out, exp)
    assert set(secret["target_log_f0"]) == {"p225", "p227"} and secret["target_gender"] == "same"
    s, o = DataDir.read(src_dir), DataDir.read(out)
    for u in s.utts:
        tgt = secret["utt"][u]["target"]
        assert tgt == {"p226": "p227", "p228": "p225"}[s.utt2spk[u]]
        want = float(np.exp(secret["target_log_f0"][tgt][0]))
        got = median_f0(o.load_audio(u))
        assert abs(np.log(got / want)) < np.log(2 ** (3 / 12)), (u, got, want)     # within 3 semitones
    r = cli("transform-voice", "--method", "voicemask", "--config", conf, "--exp-dir", tmp_path / "e2", src_dir,
            tmp_path / "out2", check=False)
    assert r.returncode == 1 and "--target-data" in r.stderr and not (tmp_path / "out2").exists()


def test_secrets_inside_output_are_refused(src_dir, tmp_path):
    out = tmp_path / "out"
    r = cli("transform-voice", "--method", "mcadams", "--exp-dir", out / "exp", src_dir, out, check=False)
    assert r.returncode == 1 and "outside" in r.stderr
    r = cli("transform-voice", "--method", "vtln", "--exp-dir", tmp_path / "e", src_dir, out, check=False)
    assert r.returncode == 2 and "--target-data" in r.stderr      # a usage error


def test_steps_script_nj2_equals_single_process(mini_corpus, tmp_path, repo_root):
    """Per-utterance draws (McAdams alpha drawn in [0.6, 0.9]) do not depend on the job split."""
    src = tmp_path / "src"
    import shutil
    shutil.copytree(mini_corpus / "mini_test_enroll", src)        # split_data.sh writes into its input
    conf = tmp_path / "mcadams.yaml"
    conf.write_text("alpha_range: [0.6, 0.9]\n")
    out1, exp1 = tmp_path / "one", tmp_path / "exp1"
    cli("transform-voice", "--method", "mcadams", "--config", conf, "--seed", "3", "--exp-dir", exp1, src, out1)
    out2, exp2 = tmp_path / "two", tmp_path / "exp2"
    env = dict(os.environ, OMP_NUM_THREADS="1",
               PATH=f"{repo_root / 'utils'}:{repo_root / 'steps'}:{Path(sys.executable).parent}:{os.environ['PATH']}")
    r = subprocess.run(["steps/transform_voice.sh", "--nj", "2", "--method", "mcadams", "--voice-config", str(conf),
                        "--seed", "3", str(src), str(exp2), str(out2)], cwd=repo_root, env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr + r.stdout
    assert (exp2 / "log" / "transform.1.log").is_file() and (exp2 / "log" / "transform.2.log").is_file()
    check_output_corpus(src, out2, exp2)
    for u in DataDir.read(src).utts:
        assert filecmp.cmp(out1 / "wav" / f"{u}.wav", out2 / "wav" / f"{u}.wav", shallow=False), u
    p1 = json.loads((exp1 / "secrets" / "voice_plan.json").read_text())
    p2 = json.loads((exp2 / "secrets" / "voice_plan.json").read_text())
    assert p1["utt"] == p2["utt"] and len({round(e["alpha"], 6) for e in p1["utt"].values()}) == len(p1["utt"])

    # --targets-file: another seed, same draws
    exp3 = tmp_path / "exp3"
    cli("transform-voice", "--method", "mcadams", "--config", conf, "--seed", "99", "--exp-dir", exp3, "--targets-file",
        exp1 / "secrets" / "voice_plan.json", "--part", "plan", src, tmp_path / "three")
    assert json.loads((exp3 / "secrets" / "voice_plan.json").read_text())["utt"] == p1["utt"]


def test_resume_after_kill_gives_identical_outputs(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test_trial"
    n = len(DataDir.read(src).utts)
    ref, exp_ref = tmp_path / "ref", tmp_path / "exp_ref"
    cli("transform-voice", "--method", "voicemask", "--seed", "5", "--exp-dir", exp_ref, src, ref)

    out, exp = tmp_path / "out", tmp_path / "exp"
    args = [sys.executable, "-m", "pydeid", "transform-voice", "--method", "voicemask", "--seed", "5",
            "--exp-dir", str(exp), str(src), str(out)]
    proc = subprocess.Popen(args, env=dict(os.environ, OMP_NUM_THREADS="1"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wav = out / "wav"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if wav.is_dir() and len(list(wav.glob("*.wav"))) >= 3:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = len(list(wav.glob("*.wav")))
    assert 3 <= written < n, f"kill came too late to test resuming ({written}/{n} written)"
    assert not (out / "wav.scp").exists()                       # no data dir before the conversion is complete
    before = {p.name: p.stat().st_mtime_ns for p in wav.glob("*.wav")}

    r = cli("transform-voice", "--method", "voicemask", "--seed", "5", "--exp-dir", exp, "--resume", src, out)
    assert f"skipped {written}" in r.stderr
    for name, mtime in before.items():                           # finished files were not redone
        assert (wav / name).stat().st_mtime_ns == mtime
    check_output_corpus(src, out, exp)
    assert not list(wav.glob(".*.tmp"))
    for u in DataDir.read(src).utts:
        assert filecmp.cmp(ref / "wav" / f"{u}.wav", wav / f"{u}.wav", shallow=False), u


@pytest.mark.slow   # 35-65 s: an equivalence check of an optimisation; the default run keeps the resume and reuse tests
def test_vtln_pool_file_is_reused_only_when_it_matches(mini_corpus, tmp_path):
    """--pool-file: the recipe's many VTLN runs share one target pool; a pool of other settings is rebuilt."""
    REUSED = "vtln target pool: reused"
    src, tgt, pool = mini_corpus / "mini_test_enroll", mini_corpus / "mini_dev", tmp_path / "pool.npz"

    def plan(name, seed=0, pool_file=pool):
        args = ["transform-voice", "--method", "vtln", "--target-data", tgt, "--exp-dir", tmp_path / name,
                "--seed", seed, "--part", "plan", src, tmp_path / f"out_{name}"]
        r = cli(*args, *(["--pool-file", pool_file] if pool_file else []))
        return r.stderr, (tmp_path / name / "vtln_targets.npz").read_bytes()

    err, first = plan("a")
    assert REUSED not in err and pool.exists() and json.loads(Path(f"{pool}.json").read_text())["seed"] == 0
    err, second = plan("b")
    assert REUSED in err and second == first
    _, fresh = plan("c", pool_file=None)          # what the run would have built by itself
    assert fresh == first
    err, other = plan("d", seed=1)                 # another seed: another pool, rebuilt and published
    assert REUSED not in err and json.loads(Path(f"{pool}.json").read_text())["seed"] == 1
    Path(f"{pool}.json").write_text("{}")          # a pool whose key does not match is never used
    err, _ = plan("e", seed=1)
    assert REUSED not in err


def test_vtln_reuses_the_fit_analyses_and_output_is_unchanged(mini_corpus, tmp_path, monkeypatch):
    """A source speaker's WORLD analyses made for its fit are reused for its conversions: one analysis per
    utterance instead of two, and bit-identical audio to a run that analyses twice (cache_bytes=0)."""
    from pydeid.voice import convert as C
    from pydeid.voice import world
    from pydeid.voice.vtln import core as vtln   # the module whose analyze the conversion calls
    from pydeid.voice.world import WorldConfig

    src, tgt, exp = mini_corpus / "mini_test_enroll", mini_corpus / "mini_dev", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--strategy", 3, "--target-data", tgt, "--exp-dir", exp,
        "--part", "plan", src, tmp_path / "out")
    plan = C.load_plan(exp / "secrets" / C.PLAN_NAME)
    full = DataDir.read(src)
    calls = []
    real = world.analyze

    def counting(wav, sr, cfg=WorldConfig()):
        calls.append(len(wav))
        return real(wav, sr, cfg)

    monkeypatch.setattr(world, "analyze", counting)
    monkeypatch.setattr(vtln, "analyze", counting)
    wav_cfg = WorldConfig(**plan["world"])
    out = {}
    for name, budget in (("reused", 512 * 2 ** 20), ("twice", 0)):
        calls.clear()
        C.convert_utterances(full, full.utts, plan, tmp_path / name, wav_cfg, pool_path=exp / C.POOL_NAME,
                             cache_bytes=budget)
        out[name] = len(calls)
    n = len(full.utts)
    assert out == {"reused": n, "twice": 2 * n}
    for u in full.utts:
        assert filecmp.cmp(tmp_path / "reused" / f"{u}.wav", tmp_path / "twice" / f"{u}.wav", shallow=False), u


@pytest.mark.slow   # 35-65 s: an equivalence check of an optimisation; the default run keeps the resume and reuse tests
def test_vtln_outputs_in_one_pass_equal_separate_runs(mini_corpus, tmp_path, repo_root):
    """steps/transform_voice.sh --also: strategies 1 and 3 and another seed converted in one pass (2 jobs) give
    the audio of separate runs bit for bit, each output with its own plan (secret) and a clean data dir."""
    import shutil
    src, tgt = tmp_path / "src", mini_corpus / "mini_dev"
    shutil.copytree(mini_corpus / "mini_test_enroll", src)        # split_data.sh writes into its input
    env = dict(os.environ, OMP_NUM_THREADS="1",
               PATH=f"{repo_root / 'utils'}:{repo_root / 'steps'}:{Path(sys.executable).parent}:{os.environ['PATH']}")
    pool = tmp_path / "pool_s{seed}.npz"

    def steps(*args):
        r = subprocess.run(["steps/transform_voice.sh", "--method", "vtln", "--target-data", str(tgt), "--pool-file",
                            str(pool), *map(str, args)], cwd=repo_root, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr + r.stdout

    outs = {(1, 0): "a", (3, 0): "b", (3, 5): "c"}
    also = " ".join(f"{s}:{seed}:{tmp_path / ('xexp_' + n)}:{tmp_path / ('x_' + n)}"
                    for (s, seed), n in outs.items() if n != "a")
    steps("--nj", 2, "--strategy", 1, "--seed", 0, "--also", also, src, tmp_path / "xexp_a", tmp_path / "x_a")
    for (s, seed), n in outs.items():
        steps("--strategy", s, "--seed", seed, src, tmp_path / f"exp_{n}", tmp_path / f"sep_{n}")
        check_output_corpus(src, tmp_path / f"x_{n}", tmp_path / f"xexp_{n}")
        plan = json.loads((tmp_path / f"xexp_{n}" / "secrets" / "voice_plan.json").read_text())
        assert plan["strategy"] == s and plan["seed"] == seed
        for u in DataDir.read(src).utts:
            assert filecmp.cmp(tmp_path / f"x_{n}" / "wav" / f"{u}.wav", tmp_path / f"sep_{n}" / "wav" / f"{u}.wav",
                               shallow=False), (n, u)
    assert sorted(p.name for p in tmp_path.glob("pool_s*.npz")) == ["pool_s0.npz", "pool_s5.npz"]
