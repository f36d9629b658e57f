"""mask-words + verify-masking on the synthetic corpus (word times known exactly)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pydeid.io import DataDir, FormatError, read_audio, read_ctm, write_audio, write_ctm
from pydeid.mask.pipeline import MaskOptions, mask_data_dir
from pydeid.mask.verify import verify_masking

from .conftest import SENSITIVE, SR, UTTS, interval_samples, word_audio

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)


def test_mask_hides_entities_and_nothing_else(synth):
    out = synth["root"] / "masked"
    pad = 0.05
    rep = mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out, MaskOptions(pad=pad, ramp=0.0))
    assert rep["entities"] == 6 and rep["by_type"] == {"DATE": 1, "LOC": 1, "PER": 3, "TIME": 1}
    d = DataDir.read(out)
    for utt, (dur, words) in UTTS.items():
        orig = word_audio(utt, dur, words)
        wav, sr = read_audio(d.wav_scp[utt], sr=None)
        assert sr == SR and len(wav) == len(orig)
        hidden = [(s, e) for _, _, tag, s, e in words if tag != "O"]
        for s, e in hidden:                        # tagged words: digital silence
            assert np.all(wav[interval_samples(s, e)] == 0)
        keep = np.ones(len(orig), bool)            # untagged words: untouched beyond the padding/pauses
        for k, (_, _, tag, s, e) in enumerate(words):
            if tag == "O":
                continue
            lo = max((w[4] for w in words[:k] if w[4] <= s), default=0.0) - pad
            hi = min((w[3] for w in words[k + 1:] if w[3] >= e), default=dur) + pad
            keep[max(0, int(lo * SR) - 1):int(hi * SR) + 1] = False
        assert np.allclose(wav[keep], orig[keep], atol=1e-4)
    assert d.text["spk1-u1"] == "Please call on"
    assert d.text["spk2-u4"] == "meet today smith"          # the untagged "smith" stays
    assert d.text["spk2-u3"] == "hello there"
    rep = verify_masking(out, synth["tags"], synth["ctm"], orig_data=synth["data"])
    assert rep.n_leaks == 0 and rep.entities == 6


def test_output_is_a_new_corpus_without_original_words_or_audio(synth):
    out = synth["root"] / "masked"
    mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    d = DataDir.read(out)
    orig = DataDir.read(synth["data"])
    for utt, spec in d.wav_scp.items():
        assert Path(spec).is_absolute() and Path(spec).resolve().is_relative_to(out.resolve())
        assert spec != orig.wav_scp[utt]
    assert not (out / "tags.conll").exists() and not (out / "words.ctm").exists()
    for f in out.rglob("*"):
        if f.is_file() and f.suffix != ".wav":
            body = f.read_text(errors="replace").lower()
            for w in SENSITIVE:
                # "smith" legitimately stays (untagged occurrence); every other sensitive word must be gone
                assert w.lower() not in body, (f, w)


def test_planted_audio_and_text_leaks_are_caught(synth):
    out = synth["root"] / "masked"
    mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    d = DataDir.read(out)
    # audio: put 100 ms of the original "Paris" back
    wav, sr = read_audio(d.wav_scp["spk1-u2"], sr=None)
    orig, _ = read_audio(DataDir.read(synth["data"]).wav_scp["spk1-u2"], sr=None)
    wav[int(1.5 * sr):int(1.6 * sr)] = orig[int(1.5 * sr):int(1.6 * sr)]
    write_audio(d.wav_scp["spk1-u2"], wav, sr)
    # text: "Stella" survives in the transcript
    text = (out / "text").read_text().replace("spk1-u1 Please call on", "spk1-u1 Please call stella on")
    (out / "text").write_text(text)
    rep = verify_masking(out, synth["tags"], synth["ctm"])
    assert len(rep.audio_leaks) == 1 and rep.audio_leaks[0]["utt"] == "spk1-u2"
    assert rep.audio_leaks[0]["type"] == "LOC" and rep.audio_leaks[0]["loud_ms"] == 100
    assert [x["token_key"] for x in rep.text_leaks] == ["stella"]
    r = run_cli("verify-masking", out, synth["tags"], synth["ctm"])
    assert r.returncode == 1, r.stderr
    assert "audio 1, text 1" in r.stdout and "spk1-u2" in r.stderr


def test_pointing_to_original_audio_is_a_leak(synth):
    out = synth["root"] / "masked"
    mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    scp = (out / "wav.scp").read_text().splitlines()
    orig = DataDir.read(synth["data"]).wav_scp
    scp = [f"spk2-u3 {orig['spk2-u3']}" if line.startswith("spk2-u3 ") else line for line in scp]
    (out / "wav.scp").write_text("\n".join(scp) + "\n")
    rep = verify_masking(out, synth["tags"], synth["ctm"], orig_data=synth["data"])
    assert rep.original_audio_refs == ["spk2-u3"]


def test_missing_ctm_entry_stops_naming_the_utterance_or_drops_it(synth):
    ctm = [e for e in read_ctm(synth["ctm"]) if e.token != "Paris"]
    write_ctm(synth["root"] / "partial.ctm", ctm)
    out = synth["root"] / "masked"
    with pytest.raises(FormatError, match="spk1-u2.*Paris"):
        mask_data_dir(synth["data"], synth["tags"], synth["root"] / "partial.ctm", out)
    assert not (out / "wav.scp").exists()        # checked before any output
    rep = mask_data_dir(synth["data"], synth["tags"], synth["root"] / "partial.ctm", out,
                        MaskOptions(on_untimed="drop"))
    assert rep["dropped_utterances"] == ["spk1-u2"]
    assert "spk1-u2" not in DataDir.read(out).utt2spk and len(DataDir.read(out).utt2spk) == 3


def test_mismatched_tokens_stop_with_the_utterance(synth):
    ctm = [e if e.token != "stella" else e.__class__(e.utt, e.channel, e.start, e.dur, "stanley")
           for e in read_ctm(synth["ctm"])]
    write_ctm(synth["root"] / "bad.ctm", ctm)
    r = run_cli("mask-words", synth["data"], synth["tags"], synth["root"] / "bad.ctm", synth["root"] / "m")
    assert r.returncode == 1
    assert "spk1-u1" in r.stderr and "Stella." in r.stderr and "Traceback" not in r.stderr


def test_missing_tag_sentence_is_an_error(synth):
    lines = synth["tags"].read_text().split("\n\n")
    (synth["root"] / "few.conll").write_text("\n\n".join(x for x in lines if "spk2-u3" not in x))
    with pytest.raises(FormatError, match="spk2-u3"):
        mask_data_dir(synth["data"], synth["root"] / "few.conll", synth["ctm"], synth["root"] / "m")


def test_resume_skips_written_audio_and_refuses_other_options(synth):
    out = synth["root"] / "masked"
    mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    f = out / "wav" / "spk1-u1.wav"
    t0 = f.stat().st_mtime_ns
    (out / "wav" / "spk2-u3.wav").unlink()                   # as if interrupted
    rep = mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    assert rep["resumed"] == 3 and rep["written"] == 1 and f.stat().st_mtime_ns == t0
    with pytest.raises(FormatError, match="other options"):
        mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out, MaskOptions(pad=0.2))
    rep = mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out, MaskOptions(pad=0.2), overwrite=True)
    assert rep["written"] == 4


def test_noise_fill_is_seeded_and_passes_verification(synth):
    outs = []
    for k, seed in enumerate((1, 1, 2)):
        out = synth["root"] / f"m{k}"
        mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out, MaskOptions(fill="noise", seed=seed))
        outs.append((out / "wav" / "spk1-u1.wav").read_bytes())
        assert verify_masking(out, synth["tags"], synth["ctm"]).n_leaks == 0
    assert outs[0] == outs[1] and outs[0] != outs[2]


def test_steps_scripts_parallel_masking_and_verification(synth):
    env = dict(os.environ, PATH=f"{REPO / 'utils'}:{REPO / 'steps'}:{os.environ['PATH']}")
    r = synth["root"]
    p = subprocess.run(["bash", "steps/mask_words.sh", "--nj", "2", "--text-mode", "replace", str(r / "data"),
                        str(r / "tags.conll"), str(r / "words.ctm"), str(r / "exp"), str(r / "neutral")],
                       cwd=REPO, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + p.stdout
    assert DataDir.read(r / "neutral").text["spk1-u1"] == "Please call <mask> on <mask> <mask>"
    assert (r / "exp" / "report.json").exists() and not (r / "exp" / "parts").exists()
    v = subprocess.run(["bash", "steps/verify_masking.sh", "--orig-data", str(r / "data"), str(r / "neutral"),
                        str(r / "tags.conll"), str(r / "words.ctm"), str(r / "exp")], cwd=REPO, env=env,
                       capture_output=True, text=True)
    assert v.returncode == 0, v.stderr + v.stdout
    assert "leaks: audio 0, text 0" in v.stdout
    # the recipe fails when the masked corpus leaks
    shutil.copy(r / "data" / "text", r / "neutral" / "text")
    v = subprocess.run(["bash", "steps/verify_masking.sh", str(r / "neutral"), str(r / "tags.conll"),
                        str(r / "words.ctm"), str(r / "exp")], cwd=REPO, env=env, capture_output=True, text=True)
    assert v.returncode == 1 and "LEAKS" in v.stderr


def test_any_audio_pipes_and_other_rates(tmp_path):
    """Converted voices, pipes and other sample rates: the masked audio keeps the input's rate."""
    from pydeid.io import CtmEntry, Sentence, write_conll, write_data_dir
    sr = 8000
    t = np.arange(2 * sr) / sr
    write_audio(tmp_path / "a.wav", (0.3 * np.sin(2 * np.pi * 200 * t)).astype(np.float32), sr)
    write_data_dir(tmp_path / "d", wav_scp={"s1-u": f"cat {tmp_path / 'a.wav'} |"}, text={"s1-u": "call Stella now"},
                   utt2spk={"s1-u": "s1"})
    write_ctm(tmp_path / "c.ctm", [CtmEntry("s1-u", "1", 0.1, 0.4, "call"), CtmEntry("s1-u", "1", 0.6, 0.5, "Stella"),
                                   CtmEntry("s1-u", "1", 1.3, 0.5, "now")])
    write_conll(tmp_path / "t.conll", [Sentence(["call", "Stella", "now"], ["O", "B-PER", "O"], "s1-u")])
    mask_data_dir(tmp_path / "d", tmp_path / "t.conll", tmp_path / "c.ctm", tmp_path / "o")
    wav, rate = read_audio(DataDir.read(tmp_path / "o").wav_scp["s1-u"], sr=None)
    assert rate == sr and len(wav) == 2 * sr
    assert np.all(wav[int(0.6 * sr):int(1.1 * sr)] == 0) and np.abs(wav[int(1.4 * sr):int(1.7 * sr)]).max() > 0.2
    assert verify_masking(tmp_path / "o", tmp_path / "t.conll", tmp_path / "c.ctm").n_leaks == 0


def test_no_temp_file_is_ever_written_inside_the_shared_wav_dir(synth, monkeypatch):
    """Parallel mask jobs share <out>/wav and each removes the hidden temps it finds there (a killed run's
    leftovers): a job's own temp inside it (the config's, once) could vanish under it. Every temp goes elsewhere."""
    import pydeid.io.atomic as atomic
    where = []
    orig_mkstemp = atomic.tempfile.mkstemp

    def spy(*a, **k):
        where.append(Path(k["dir"]).resolve())
        return orig_mkstemp(*a, **k)
    monkeypatch.setattr(atomic.tempfile, "mkstemp", spy)
    out = synth["root"] / "neutral"
    mask_data_dir(synth["data"], synth["tags"], synth["ctm"], out)
    assert len(where) > len(UTTS)   # every audio file and the config went through a temp file
    assert (out / "wav" / "mask_config.json").is_file()
    assert (out / "wav").resolve() not in where, where
