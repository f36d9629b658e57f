"""mask-spoken + verify-spoken on the tiny mini corpus (espeak voices, gold tags and word times)."""

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir, FormatError, read_ctm
from pydeid.io.ctm import ctm_by_utt
from pydeid.mask.core import entity_times, mask_intervals
from pydeid.mask.pipeline import load_tags
from pydeid.mask.spoken import SR, SpokenOptions, spoken_data_dir
from pydeid.mask.verify_spoken import verify_spoken

TAGS = {"PER", "LOC", "ORG", "DATE", "TIME", "NUM"}


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def spoken_inputs(mini_corpus, tmp_path_factory):
    """Four mini_test utterances with entities, their text transformed (pseudonyms, random digits)."""
    root = tmp_path_factory.mktemp("spoken")
    src = DataDir.read(mini_corpus / "mini_test")
    tags = load_tags(mini_corpus / "mini_test" / "tags.conll")
    utts = [u for u in src.utts if len(tags[u].spans()) >= 2][:4]
    src.subset(utts).write(root / "data")
    shutil.copy(mini_corpus / "mini_test" / "tags.conll", root / "data" / "tags.conll")
    r = run_cli("transform-text", "--strategy", "PER=pseudonymize,NUM=random_digits,default=same_type",
                "--avoid-original", "--secret-dir", root / "sec_text", "--pool-conll",
                mini_corpus / "mini_train" / "tags.conll", root / "data", root / "data" / "tags.conll", root / "text")
    assert r.returncode == 0, r.stderr
    return {"root": root, "data": root / "data", "tags": root / "data" / "tags.conll",
            "trans": root / "text" / "tags.conll", "ctm": mini_corpus / "mini_test" / "words.ctm", "utts": utts}


@pytest.fixture(scope="module")
def filled(spoken_inputs):
    s = spoken_inputs
    out, sec = s["root"] / "out", s["root"] / "sec"
    rep = spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out, sec, SpokenOptions(seed=3))
    return {**s, "out": out, "sec": sec, "rep": rep}


def _wav(d: DataDir, utt: str) -> np.ndarray:
    y, sr = sf.read(d.wav_scp[utt], dtype="int16")
    assert sr == SR
    return y


def test_inserts_cover_exactly_the_masked_intervals(filled):
    import json
    tags = load_tags(filled["tags"])
    words = ctm_by_utt(read_ctm(filled["ctm"]))
    din, dout = DataDir.read(filled["data"]), DataDir.read(filled["out"])
    n_ins = 0
    for utt in filled["utts"]:
        x = (_wav(din, utt)).astype(np.int64)
        y = _wav(dout, utt).astype(np.int64)
        ents = entity_times(utt, tags[utt], words[utt], TAGS, absorb_gaps=True)
        want = [(int(np.floor(a * SR)), min(len(x), int(np.ceil(b * SR))))
                for a, b in mask_intervals(ents, 0.1, len(x) / SR)]
        plan = json.loads((filled["sec"] / "spoken_plan" / f"{utt}.json").read_text())
        ivs = plan["intervals"]
        assert [tuple(e["in"]) for e in ivs] == want
        n_ins += sum(1 for e in ivs if e["tokens"])
        # outside the intervals (beyond the 5 ms ramps) the output is the input, shifted by the earlier intervals
        ramp = int(0.005 * SR)
        prev_in = prev_out = 0
        for e in ivs + [{"in": [len(x), len(x)], "out": [len(y), len(y)]}]:
            a, b = prev_in + (ramp if prev_in else 0), e["in"][0] - (ramp if e["in"][0] < len(x) else 0)
            if b > a:
                sh = prev_out - prev_in
                assert np.array_equal(y[a + sh:b + sh], x[a:b])
            prev_in, prev_out = e["in"][1], e["out"][1]
        # each insert is speech (not silence) and stays inside its output interval
        for e in ivs:
            if e["tokens"]:
                seg = y[e["out"][0]:e["out"][1]]
                assert np.abs(seg).max() > 1000
                assert np.all(seg[:e["lead"]] == 0)
    assert n_ins == filled["rep"]["inserts"] >= 4


def test_transcript_ctm_and_transformed_text_agree(filled):
    dout = DataDir.read(filled["out"])
    trans = load_tags(filled["trans"])
    ctm = ctm_by_utt(read_ctm(filled["out"] / "words.ctm"))
    orig = load_tags(filled["tags"])
    changed = 0
    for utt in filled["utts"]:
        toks = dout.text[utt].split()
        assert toks == trans[utt].tokens                       # the transcript is the transformed text
        assert [w.token for w in ctm[utt]] == toks             # and every word of it is timed, in order
        dur = len(_wav(dout, utt)) / SR
        ends = [(w.start, w.end) for w in ctm[utt]]
        assert all(0 <= s < e <= dur + 1e-3 for s, e in ends)
        assert all(e1 <= s2 + 1e-3 for (_, e1), (s2, _) in zip(ends, ends[1:]))
        changed += toks != orig[utt].tokens
        assert abs(dout.utt2dur[utt] - dur) < 1e-3
    assert changed == len(filled["utts"])
    assert (filled["out"] / "tags.conll").exists()


def test_verifier_zero_leaks_and_catches_a_broken_fill(filled, tmp_path):
    rep = verify_spoken(filled["out"], filled["sec"], filled["tags"], filled["ctm"], orig_data=filled["data"])
    assert rep.n_leaks == 0 and rep.inserts == filled["rep"]["inserts"] and rep.samples_checked > SR
    # a broken fill: the original entity audio mixed at -40 dB under the insert of one interval
    broken = tmp_path / "broken"
    shutil.copytree(filled["out"], broken)
    d = DataDir.read(filled["out"])
    utt = filled["utts"][0]
    import json
    e = json.loads((filled["sec"] / "spoken_plan" / f"{utt}.json").read_text())["intervals"][0]
    x = _wav(DataDir.read(filled["data"]), utt).astype(np.int32)
    y = _wav(d, utt).astype(np.int32)
    o0, (i0, i1) = e["out"][0], e["in"]
    n = min(i1 - i0, e["out"][1] - o0)
    y[o0:o0 + n] += x[i0:i0 + n] // 100
    wavs = {u: str(broken / "wav" / Path(p).name) for u, p in d.wav_scp.items()}
    sf.write(wavs[utt], np.clip(y, -32768, 32767).astype(np.int16), SR, subtype="PCM_16")
    (broken / "wav.scp").write_text("".join(f"{u} {p}\n" for u, p in sorted(wavs.items())))
    bad = verify_spoken(broken, filled["sec"], filled["tags"], filled["ctm"])
    assert len(bad.audio_leaks) == 1 and bad.audio_leaks[0]["utt"] == utt
    # a plan that forgets an entity: the reference tags find it uncovered
    r = run_cli("verify-spoken", "--secret-dir", filled["sec"], broken, filled["tags"], filled["ctm"])
    assert r.returncode == 1 and "leaks: audio 1" in r.stdout


def test_same_seed_same_bytes_resume_and_secrets(filled, tmp_path):
    s = filled
    out2 = tmp_path / "again"
    spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out2, tmp_path / "sec2", SpokenOptions(seed=3))
    d1, d2 = DataDir.read(s["out"]), DataDir.read(out2)
    for utt in s["utts"]:
        assert Path(d1.wav_scp[utt]).read_bytes() == Path(d2.wav_scp[utt]).read_bytes()
    assert (s["out"] / "words.ctm").read_bytes() == (out2 / "words.ctm").read_bytes()
    # resume: a lost utterance is made again, identical; the others are kept
    u = s["utts"][1]
    Path(d2.wav_scp[u]).unlink()
    rep = spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out2, tmp_path / "sec2", SpokenOptions(seed=3))
    assert rep["written"] == 1 and rep["resumed"] == len(s["utts"]) - 1
    assert Path(d1.wav_scp[u]).read_bytes() == Path(d2.wav_scp[u]).read_bytes()
    # another seed draws other surrogate voices
    out3 = tmp_path / "seed4"
    spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out3, tmp_path / "sec3", SpokenOptions(seed=4))
    d3 = DataDir.read(out3)
    assert any(Path(d1.wav_scp[u]).read_bytes() != Path(d3.wav_scp[u]).read_bytes() for u in s["utts"])
    # plans are secrets: 0600, never inside the corpus; another option set is refused in the same wav dir
    for f in (s["sec"] / "spoken_plan").iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o600
    with pytest.raises(Exception, match="inside the (output )?corpus"):
        spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], tmp_path / "o4", tmp_path / "o4" / "sec")
    with pytest.raises(FormatError, match="other options"):
        spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out2, tmp_path / "sec2", SpokenOptions(seed=5))


def test_transformed_tags_from_other_tags_are_refused(spoken_inputs, tmp_path):
    s = spoken_inputs
    bad = tmp_path / "bad.conll"
    # drop the tags of one sentence's first entity: entity counts no longer match
    lines = Path(s["trans"]).read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if "\tB-" in ln)
    lines[k] = lines[k].split("\t")[0] + "\tO"
    nxt = k + 1
    while nxt < len(lines) and "\tI-" in lines[nxt]:
        lines[nxt] = lines[nxt].split("\t")[0] + "\tO"
        nxt += 1
    bad.write_text("\n".join(lines) + "\n")
    r = run_cli("mask-spoken", "--secret-dir", tmp_path / "sec", s["data"], s["tags"], bad, s["ctm"], tmp_path / "o")
    assert r.returncode != 0 and "transformed" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o" / "wav.scp").exists()


def test_word_starting_inside_a_pad_keeps_its_audible_part():
    """'look' starts 0.1 s before the interval end (absorbed gap + pad): its CTM entry starts where the interval
    ends in the output, after the insert, with a positive duration (mini_test spk057-te007-01)."""
    from pydeid.io import CtmEntry, Sentence
    from pydeid.mask.spoken import fill_utterance, plan_utterance
    toks = ["how", "does", "Friday", "afternoon", "look", "for", "you"]
    orig = Sentence(toks, ["O", "O", "B-DATE", "I-DATE", "O", "O", "O"], "u1", [], [])
    trans = Sentence(["how", "does", "Monday", "morning", "look", "for", "you"], orig.tags, "u1", [], [])
    times = [(0.139, 0.343), (0.343, 0.634), (0.644, 1.04), (1.04, 1.6), (1.6, 1.894), (1.904, 2.086), (2.091, 2.226)]
    words = [CtmEntry("u1", "1", a, b - a, t) for t, (a, b) in zip(toks, times)]
    wav = (0.1 * np.random.default_rng(0).standard_normal(int(2.4 * SR))).astype(np.float32)
    plan = plan_utterance("u1", orig, trans, words, 2.4, TAGS, SpokenOptions(), "x")
    y, ctm, out_toks, sec = fill_utterance("u1", wav, plan, "m", SpokenOptions())
    assert out_toks == trans.tokens and [c.token for c in ctm] == trans.tokens
    assert all(c.dur > 0 for c in ctm)
    assert all(c1.start + c1.dur <= c2.start + 1e-3 for c1, c2 in zip(ctm, ctm[1:]))
    (iv,) = sec["intervals"]
    assert abs(ctm[4].start - iv["out"][1] / SR) < 1e-3 and ctm[4].start + ctm[4].dur <= len(y) / SR + 1e-3


@pytest.fixture(scope="module")
def fitted(spoken_inputs):
    s = spoken_inputs
    out, sec = s["root"] / "out_fit", s["root"] / "sec_fit"
    opts = SpokenOptions(seed=3, fit_rate=True, match_spectrum=True, match_f0_range=True)
    rep = spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out, sec, opts)
    return {**s, "out": out, "sec": sec, "rep": rep}


def test_fitted_rate_makes_the_insert_as_long_as_the_original_words(fitted):
    """--fit-rate: espeak's rate is chosen per insert so that the time-stretch only covers a small remainder: no
    insert of these utterances needs a stretch limit (with the utterance's drawn rate, about half did), and each
    insert's speech lasts the original words' duration within 10 %. With the spectral and F0-spread match too,
    the verifier renders every insert again from its plan entry: 0 foreign samples."""
    import json
    filled = fitted
    rep = verify_spoken(filled["out"], filled["sec"], filled["tags"], filled["ctm"], orig_data=filled["data"])
    assert rep.n_leaks == 0 and rep.inserts == filled["rep"]["inserts"]
    n = 0
    for utt in filled["utts"]:
        plan = json.loads((filled["sec"] / "spoken_plan" / f"{utt}.json").read_text())
        for e in plan["intervals"]:
            if not e["tokens"]:
                continue
            n += 1
            assert 100 <= e["rate"] <= 320 and len(e["cep"]) == 16 and e["f0_sd"] > 0
            assert e["min_stretch"] < e["stretch"] < e["max_stretch"]
            spoken = (e["out"][1] - e["out"][0] - e["lead"] - e["trail"]) / SR
            assert abs(spoken / e["speech_dur"] - 1) < 0.1, (utt, e["tokens"], spoken, e["speech_dur"])
    assert n == filled["rep"]["inserts"] and filled["rep"]["stretch_clamped"] == 0


def test_fit_rate_converges_and_respects_its_limits():
    from pydeid.mask.spoken import fit_rate, natural_duration
    e = {"tokens": ["four", "seven", "one", "eight"], "voice": "en-us+m3", "rate": 170, "range": 50,
         "espeak_seed": 7}
    base = natural_duration(e["tokens"], e["voice"], 170, 50, 7)
    for want in (0.8 * base, 1.3 * base):
        r = fit_rate({**e, "speech_dur": want}, (100, 320))
        assert abs(natural_duration(e["tokens"], e["voice"], r, 50, 7) / want - 1) < 0.05
        assert (r > 170) == (want < base)
    assert fit_rate({**e, "speech_dur": 0.05}, (100, 320)) == 320     # cannot be that fast: the limit
    assert fit_rate({**e, "speech_dur": 20.0}, (100, 320)) == 100


def test_spectral_correction_moves_the_envelope_to_the_target():
    """cepstral_gain applied to an envelope gives it the target's cepstrum (coefficients 1..N_CEP), c0 (level)
    untouched, and never more than MAX_EQ_DB at any frequency."""
    from types import SimpleNamespace

    from pydeid.mask.spoken import MAX_EQ_DB, N_CEP, cepstral_gain, envelope_cepstrum
    rng = np.random.default_rng(0)
    k = np.linspace(0, 1, 513)
    src = np.exp(-3 * k)[None, :] * np.exp(0.1 * rng.standard_normal((40, 1)))      # steep tilt
    tgt = (np.exp(-1 * k) * (1 + 0.5 * np.exp(-((k - 0.3) / 0.05) ** 2)))[None, :].repeat(40, 0)
    f0 = np.full(40, 120.0)
    cs = envelope_cepstrum(SimpleNamespace(f0=f0, sp=src))
    ct = envelope_cepstrum(SimpleNamespace(f0=f0, sp=tgt))
    assert len(cs) == N_CEP
    g = cepstral_gain(ct, cs, 513)
    assert np.abs(g).max() <= MAX_EQ_DB / 10 * np.log(10) + 1e-12
    moved = envelope_cepstrum(SimpleNamespace(f0=f0, sp=src * np.exp(g)))
    assert np.abs(np.subtract(moved, ct)).max() < 0.02 < np.abs(np.subtract(cs, ct)).max()
    assert envelope_cepstrum(SimpleNamespace(f0=np.zeros(40), sp=src)) is None     # unvoiced: no target


def test_bad_rate_limits_are_one_line_errors(spoken_inputs, tmp_path):
    s = spoken_inputs
    r = run_cli("mask-spoken", "--rate-limits", "300,100", "--secret-dir", tmp_path / "sec", s["data"], s["tags"],
                s["trans"], s["ctm"], tmp_path / "o")
    assert r.returncode != 0 and "--rate-limits" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()


def test_accents_are_drawn_per_utterance_independently_of_the_other_draws():
    """--accents: with one accent (en-us, the fill of sessions 1-6) no draw is made; with several (the default:
    espeak's eight English accents), each utterance gets one of them from its own draw, while its variant, rate,
    range and espeak seed stay those of the one-accent draw (the accent list changes nothing else)."""
    from pydeid.mask.spoken import ENGLISH_ACCENTS, draw_voice
    utts = [f"spk{i:03d}-te001-{j:02d}" for i in range(20) for j in range(3)]
    one, many = SpokenOptions(accents=("en-us",)), SpokenOptions(accents=("en-us", "en-gb-scotland", "en-029"))
    assert SpokenOptions().accents == ENGLISH_ACCENTS and len(set(ENGLISH_ACCENTS)) == 8
    seen = set()
    for u in utts:
        a, b = draw_voice(0, u, "m", one), draw_voice(0, u, "m", many)
        assert a["voice"].startswith("en-us+")
        acc, var = b["voice"].split("+")
        assert acc in many.accents and var == a["voice"].split("+")[1]
        assert {k: v for k, v in a.items() if k != "voice"} == {k: v for k, v in b.items() if k != "voice"}
        assert b == draw_voice(0, u, "m", many)      # seeded
        seen.add(acc)
    assert seen == set(many.accents)


def test_accent_fill_verifies_and_unknown_accents_are_one_line_errors(spoken_inputs, tmp_path):
    import json

    from pydeid.mask.spoken import ENGLISH_ACCENTS, check_accents
    assert check_accents(["EN-GB-X-RP", " en "]) == ("en-gb-x-rp", "en")
    assert check_accents(ENGLISH_ACCENTS) == ENGLISH_ACCENTS     # every default accent exists in espeak-ng
    with pytest.raises(ValueError, match="en-xx"):
        check_accents(["en-us", "en-xx"])
    s = spoken_inputs
    r = run_cli("mask-spoken", "--accents", "en-us,en-xx", "--secret-dir", tmp_path / "sec", s["data"], s["tags"],
                s["trans"], s["ctm"], tmp_path / "o")
    assert r.returncode != 0 and "--accents" in r.stderr and "en-xx" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()
    accents = ("en-gb-scotland", "en-029")
    out, sec = tmp_path / "acc", tmp_path / "acc_sec"
    rep = spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out, sec, SpokenOptions(seed=3, accents=accents))
    v = verify_spoken(out, sec, s["tags"], s["ctm"], orig_data=s["data"])
    assert v.n_leaks == 0 and v.inserts == rep["inserts"] > 0
    for utt in s["utts"]:
        plan = json.loads((sec / "spoken_plan" / f"{utt}.json").read_text())
        assert plan["voice"]["voice"].split("+")[0] in accents
        assert all(e["voice"] == plan["voice"]["voice"] for e in plan["intervals"] if e["tokens"])
    assert json.loads((out / "wav" / "spoken_config.json").read_text())["accents"] == list(accents)


def _zero_runs(x: np.ndarray) -> int:
    """Longest run of exact zeros in x."""
    best = cur = 0
    for z in (x == 0):
        cur = cur + 1 if z else 0
        best = max(best, cur)
    return best


def test_noise_floor_leaves_no_digital_silence_and_verifies(filled, tmp_path):
    """--noise-floor: the default fill leaves digital zeros in its pads and pauses (a run of more than 10 ms);
    with the noise floor no interval has a zero run longer than a few samples, the noise-only lead of an insert
    is at the level measured on the utterance's quietest frames, the verifier renders every interval again (0
    foreign samples) and the same seed gives the same bytes."""
    import json
    s = filled
    base = DataDir.read(s["out"])
    longest = max(_zero_runs(_wav(base, u)[e["out"][0]:e["out"][1]]) for u in s["utts"]
                  for e in json.loads((s["sec"] / "spoken_plan" / f"{u}.json").read_text())["intervals"])
    assert longest > SR // 100
    opts = SpokenOptions(seed=3, noise_floor=True)
    out, sec = tmp_path / "noise", tmp_path / "noise_sec"
    rep = spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out, sec, opts)
    v = verify_spoken(out, sec, s["tags"], s["ctm"], orig_data=s["data"])
    assert v.n_leaks == 0 and v.inserts == rep["inserts"] == s["rep"]["inserts"]
    d = DataDir.read(out)
    leads = 0
    for u in s["utts"]:
        y = _wav(d, u)
        plan = json.loads((sec / "spoken_plan" / f"{u}.json").read_text())
        for e in plan["intervals"]:
            seg = y[e["out"][0]:e["out"][1]]
            assert e["noise"]["rms"] > 0 and len(e["noise"]["cep"]) == 16
            assert _zero_runs(seg) < 8, (u, e["out"])
            if e["lead"] >= 400:
                leads += 1
                r = np.sqrt(np.mean(seg[: e["lead"]].astype(np.float64) ** 2)) / 32767
                assert 0.7 < r / e["noise"]["rms"] < 1.3
    assert leads > 0
    out2, sec2 = tmp_path / "noise2", tmp_path / "noise_sec2"
    spoken_data_dir(s["data"], s["tags"], s["trans"], s["ctm"], out2, sec2, opts)
    for u in s["utts"]:
        assert (out / "wav" / f"{u}.wav").read_bytes() == (out2 / "wav" / f"{u}.wav").read_bytes()
    assert json.loads((out / "wav" / "spoken_config.json").read_text())["noise_floor"] is True
