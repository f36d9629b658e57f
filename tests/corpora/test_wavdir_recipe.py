"""egs/wavdir/s5: a folder of recordings without transcripts de-identified end to end.

Default (cheap): stage 0 of the recipe on two VCTK recordings, its one-line option errors, and the report's
wording (it says what was checked against what, never that the audio is clean, and lists the unhidden words
that look like names). Slow: the whole recipe on three VCTK recordings with Whisper tiny.en, then the leak test:
no original path or name in the published dir, no original voice (the published audio differs from the source),
no gold sensitive word ("Stella", "Bob", "Wednesday") in the published text that the report does not list; and
the draws: two default runs on two VCTK recordings draw two publisher's keys (different ids and audio), a rerun
reuses its key (identical data/neutral), --seed 5 twice gives identical outputs that the report calls replayable."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from pydeid.io.conll import Sentence, write_conll
from pydeid.io.errors import FormatError
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.io.publisher_key import key_from_seed, load_or_create
from pydeid.report.wavdir_report import NOT_CHECKED, review_words, write_report

GOLD = {"stella", "bob", "wednesday"}


def _folder(tmp_path: Path, vctk: Path, utts) -> Path:
    d = tmp_path / "Recordings of customers"
    d.mkdir()
    for u in utts:
        shutil.copy(vctk / "wav" / u.split("_")[0] / f"{u}.flac", d / f"{u}.flac")
    return d


def _run(rec: Path, *args, timeout=3000):
    return subprocess.run(["./run.sh", *args], cwd=rec, capture_output=True, text=True, timeout=timeout)


def test_stage0_and_option_errors(recipe_copy, vctk_dir, tmp_path):
    rec = recipe_copy("wavdir", tmp_path / "s5")
    src = _folder(tmp_path, vctk_dir, ["p225_001", "p226_003"])
    p = _run(rec, "--wav-dir", str(src), "--stop-stage", "0")
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    scp = read_kaldi_map(rec / "data/wavdir/wav.scp")
    assert sorted(scp) == ["spk0001-0001", "spk0002-0001"]
    assert all("exp/wavdir/audio" in v and "p22" not in v for v in scp.values())
    assert not (rec / "data/wavdir/text").exists()
    assert stat.S_IMODE(os.stat(rec / "exp/secrets/wavdir_map.json").st_mode) == 0o600
    for bad in (["--fill", "mumble"], ["--words-from", "guess"], ["--voice", "robot:1"],
                ["--hide-below-conf", "high"], ["--hide-next", "-1"],
                ["--words-from", "align", "--hide-below-conf", "0.5"],  # the aligner's CTM has no confidences
                ["--seed", "abc"], ["--seed", "-1"]):
        p = _run(rec, "--wav-dir", str(src), *bad, timeout=60)
        assert p.returncode == 1 and p.stderr.count("\n") == 1 and bad[0] in p.stderr, (bad, p.stderr)
    p = _run(rec, "--stop-stage", "0", timeout=60)
    assert p.returncode == 1 and "--wav-dir" in p.stderr
    # the default (and an explicit empty --seed) is the publisher's key; --seed N stays for experiments
    for seed in ([], ["--seed", ""], ["--seed", "5"]):
        p = _run(rec, "--wav-dir", str(src), *seed, "--stop-stage", "0", timeout=120)
        assert p.returncode == 0, (seed, p.stderr[-2000:])
    assert 'seed=              # empty: the publisher' in (rec / "run.sh").read_text()
    assert not (rec / "exp/draws_from").exists() and not (rec / "exp/secrets/publisher.key").exists()  # no draw yet


def test_one_source_of_draws_per_run_dir(recipe_copy, tmp_path):
    """A rerun with another --seed than the run dir's draws, or over draws older than the record, stops with one
    line before drawing anything."""
    rec = recipe_copy("wavdir", tmp_path / "s5")
    (rec / "exp").mkdir()
    (rec / "exp/draws_from").write_text("seed 5\n")
    for args in ([], ["--seed", "6"]):
        p = _run(rec, "--stage", "2", *args, timeout=60)
        assert p.returncode == 1 and p.stderr.count("\n") == 1 and "exp/ holds draws from the seed 5" in p.stderr, \
            p.stderr
    (rec / "exp/draws_from").unlink()
    (rec / "data/asr_text").mkdir(parents=True)   # drawn by an older run.sh (seed 0 by default), no record
    p = _run(rec, "--stage", "2", timeout=60)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "rerun with --seed 0" in p.stderr, p.stderr
    assert not (rec / "exp/draws_from").exists() and not (rec / "exp/secrets").exists()


def test_review_words():
    # capitalised inside a sentence by the recogniser, numbers, weekdays: listed; sentence starts and "I": not
    assert review_words("please call stella and I said six".split(),
                        "Please call Stella. And I said 6".split()) == ["stella", "six"]
    assert review_words("we meet on wednesday".split(), "We meet on Wednesday".split()) == ["wednesday"]
    assert review_words("the rainbow".split(), "The rainbow.".split()) == []


def test_report_says_what_was_checked(tmp_path):
    neutral, asr = tmp_path / "data/neutral", tmp_path / "data/asr"
    for d in (neutral, asr):
        d.mkdir(parents=True)
        (d / "utt2spk").write_text("spk0001-0001 spk0001\nspk0002-0001 spk0002\n")
    (asr / "text").write_text("spk0001-0001 Please call Stella\nspk0002-0001 ask Bob on Friday\n")
    (neutral / "text").write_text("spk0001-0001 Please call\nspk0002-0001 ask Bob on Friday\n")
    (neutral / "wav.scp").write_text(f"spk0001-0001 {neutral}/wav/spk0001-0001.wav\n")
    write_conll(tmp_path / "tags.conll", [Sentence("Please call Stella".split(), ["O", "O", "B-PER"], id="spk0001-0001",
                                                   comments=["unsure = 2"]),   # as pydeid whisper-unsure marks it
                                          Sentence("ask Bob on Friday".split(), ["O"] * 4, id="spk0002-0001")])
    secret = tmp_path / "exp/secrets/map.json"
    secret.parent.mkdir(parents=True)
    secret.write_text('{"utterances": {"spk0001-0001": {"source": "/calls/anna_lee.wav"}, '
                      '"spk0002-0001": {"source": "/calls/b.wav"}}}')
    verify = tmp_path / "verify.txt"
    verify.write_text("data/neutral: 1 entities in 2 utterances; leaks: audio 0, text 0, unverifiable 0\n")
    out = tmp_path / "exp/report.md"
    s = write_report(neutral, out, secret, asr, tmp_path / "tags.conll", verify, "tiny.en", "whisper", "vtln:3",
                     "silence", 0.1, "all")
    body = out.read_text()
    assert NOT_CHECKED in body and "missed or misheard were NOT checked" in body
    assert "recogniser's hypothesis" in body and "leaks: audio 0" in body
    assert not re.search(r"\b(is|are) (clean|safe)\b|no sensitive (word|information) (is|remains)", body, re.I)
    assert s["review"] == {"spk0002-0001": ["Bob", "Friday"]}     # the unhidden name and weekday, for review
    assert s["unsure_words"] == 1 and "1 of these words were hidden because the recogniser was unsure" in body
    assert "| spk0002-0001 | Bob Friday |" in body
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    assert s["original_name_hits"] == []
    (neutral / "notes").write_text("from anna_lee.wav\n")                 # an original name in the published dir
    s = write_report(neutral, out, secret, asr, tmp_path / "tags.conll", verify, "tiny.en", "whisper", "vtln:3",
                     "silence", 0.1, "all")
    assert any("anna_lee" in h for h in s["original_name_hits"])
    # who can replay the draws: pydeid.io.publisher_key's own line, for --seed N and for the key
    s = write_report(neutral, out, secret, asr, tmp_path / "tags.conll", verify, "tiny.en", "whisper", "vtln:3",
                     "silence", 0.1, "all", seed="5")
    assert s["draws"] == key_from_seed(5).describe() and "anyone who knows the seed can replay them" in out.read_text()
    with pytest.raises(FormatError, match="publisher.key.*missing"):      # never drawn by the report
        write_report(neutral, out, secret, asr, tmp_path / "tags.conll", verify, "tiny.en", "whisper", "vtln:3",
                     "silence", 0.1, "all", seed="", key_dir=tmp_path / "exp/secrets")
    key = load_or_create(tmp_path / "exp/secrets")
    s = write_report(neutral, out, secret, asr, tmp_path / "tags.conll", verify, "tiny.en", "whisper", "vtln:3",
                     "silence", 0.1, "all", seed="", key_dir=tmp_path / "exp/secrets")
    assert s["draws"] == key.describe() and "cannot be replayed without it" in out.read_text()
    assert str(tmp_path / "exp/secrets/publisher.key") in s["draws"]
    with pytest.raises(Exception, match="secret would lie inside"):
        write_report(neutral, neutral / "report.md", secret, asr, tmp_path / "tags.conll", verify, "tiny.en",
                     "whisper", "vtln:3", "silence", 0.1, "all")


@pytest.mark.slow
def test_wavdir_end_to_end_leaks(recipe_copy, vctk_dir, tmp_path):
    rec = recipe_copy("wavdir", tmp_path / "s5")
    utts = ["p225_001", "p226_003", "p227_004"]   # "Please call Stella", "... brother Bob", "... Wednesday ..."
    src = _folder(tmp_path, vctk_dir, utts)
    p = _run(rec, "--wav-dir", str(src), "--nj", "1")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-3000:]
    pub = rec / "data/neutral"
    # no original audio path or name anywhere in the published dir
    for f in pub.rglob("*"):
        assert not any(u in f.name for u in utts)
        if f.is_file() and f.suffix != ".wav":
            body = f.read_text()
            assert str(src) not in body and not any(u in body for u in utts) and "customers" not in body
    # no original voice: every published waveform differs from its 16 kHz source
    from pydeid.io.audio import read_audio
    import json
    from pydeid.io.pseudonyms import read_id_map
    m = json.loads((rec / "exp/secrets/wavdir_map.json").read_text())["utterances"]
    # published with keyed pseudonyms of the working ids (no id of data/asr in the corpus)
    to_src = {p: u for u, p in read_id_map(rec / "exp/secrets", pub)["utterances"].items()}
    pub_scp = read_kaldi_map(pub / "wav.scp")
    assert set(to_src) == set(pub_scp) and not set(pub_scp) & set(m)
    for utt, spec in pub_scp.items():
        assert str(pub.resolve()) in str(Path(spec).resolve())
        y, _ = sf.read(spec, dtype="float32")
        x, _ = read_audio(m[to_src[utt]]["source"], sr=16000)
        n = min(len(x), len(y))
        assert np.corrcoef(x[:n], y[:n])[0, 1] < 0.9, utt
    # every gold sensitive word left in the published text is listed for review in the report
    report = json.loads((rec / "exp/report.md.json").read_text())
    assert report["dropped"] == [] and report["published_utterances"] == 3   # compared through the id map
    for utt, line in read_kaldi_map(pub / "text", require_value=False).items():
        for w in line.split():
            if w.lower() in GOLD:
                assert w in report["review"].get(utt, []), (utt, w)
    body = (rec / "exp/report.md").read_text()
    assert NOT_CHECKED in body and "leaks: audio 0" in body


def _published(rec: Path) -> dict[str, bytes]:
    """data/neutral file by file, its absolute paths (wav.scp) made relative, so that copies compare."""
    pub = rec / "data/neutral"
    return {f.relative_to(pub).as_posix(): f.read_bytes().replace(str(pub.resolve()).encode(), b"")
            for f in sorted(pub.rglob("*")) if f.is_file()}


def _audio_by_source(rec: Path) -> dict[str, bytes]:
    """Published audio bytes per original file (through the id map and the working id -> file map)."""
    import json
    from pydeid.io.pseudonyms import read_id_map
    m = json.loads((rec / "exp/secrets/wavdir_map.json").read_text())["utterances"]
    to_src = {p: u for u, p in read_id_map(rec / "exp/secrets", rec / "data/neutral")["utterances"].items()}
    return {Path(m[to_src[u]]["source"]).name: Path(spec).read_bytes()
            for u, spec in read_kaldi_map(rec / "data/neutral/wav.scp").items()}


@pytest.mark.slow
def test_wavdir_draws_from_the_publishers_key(recipe_copy, vctk_dir, tmp_path):
    """Two default runs on the same folder draw two keys: different published ids and audio; a rerun reuses its
    key (byte-identical data/neutral); --seed 5 twice gives identical outputs, and the report says so."""
    src = _folder(tmp_path, vctk_dir, ["p225_001", "p225_002"])   # "Please call Stella." and a 4 s sentence
    runs = {}
    for name, seed in (("a", []), ("b", []), ("c", ["--seed", "5"]), ("d", ["--seed", "5"])):
        runs[name] = rec = recipe_copy("wavdir", tmp_path / name)
        p = _run(rec, "--wav-dir", str(src), "--nj", "1", *seed)
        assert p.returncode == 0, (name, p.stdout[-3000:] + p.stderr[-3000:])
    a, b, c, d = (runs[n] for n in "abcd")
    keys = {n: runs[n] / "exp/secrets/publisher.key" for n in "ab"}
    assert all(stat.S_IMODE(os.stat(k).st_mode) == 0o600 for k in keys.values())
    assert keys["a"].read_text() != keys["b"].read_text()
    assert (a / "exp/draws_from").read_text() == "publisher's key\n"
    ids_a, ids_b = (set(read_kaldi_map(r / "data/neutral/utt2spk")) for r in (a, b))
    assert len(ids_a) == 2 and not ids_a & ids_b          # same working ids, different published ids
    audio_a, audio_b = _audio_by_source(a), _audio_by_source(b)
    assert sorted(audio_a) == ["p225_001.flac", "p225_002.flac"]
    assert all(audio_a[f] != audio_b[f] for f in audio_a)   # another voice plan (targets, pool) per key
    key_a = load_or_create(a / "exp/secrets")
    body = (a / "exp/report.md").read_text()
    assert key_a.describe() in body and "cannot be replayed without it" in body
    # neither the key nor a seed derived from it is in the published dir
    secrets = [key_a.key.hex().encode()] + [str(key_a.seed_for(p)).encode()
                                            for p in ("voice-plan", "masking-noise", "surrogates", "spoken-fill")]
    assert not [(f, s) for f, data in _published(a).items() for s in secrets if s in data]

    # a rerun (resume) of a: the same key, byte-identical data/neutral
    before, key_before = _published(a), keys["a"].read_bytes()
    p = _run(a, "--wav-dir", str(src), "--nj", "1")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert keys["a"].read_bytes() == key_before and _published(a) == before

    # the spoken fill on b (stage 4 on): published with b's key too, no derived seed in data/neutral
    p = _run(b, "--stage", "4", "--fill", "spoken", "--nj", "1")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    key_b = load_or_create(b / "exp/secrets")
    assert set(read_kaldi_map(b / "data/neutral/utt2spk")) == ids_b
    pub_b = _published(b)
    tables = lambda pub: sorted(f if not f.startswith("wav/") else "wav/" + Path(f).suffix for f in pub)  # noqa: E731
    assert tables(pub_b) == tables(_published(a))   # Kaldi tables and wavs only (no tags, CTM, fill config)
    secrets = [key_b.key.hex().encode()] + [str(key_b.seed_for(p)).encode()
                                            for p in ("voice-plan", "surrogates", "spoken-fill")]
    assert not [(f, s) for f, data in pub_b.items() for s in secrets if s in data]
    assert "(surrogates, voice plan, spoken fill, published ids): " + key_b.describe() in \
        (b / "exp/report.md").read_text()

    # --seed 5 twice: identical outputs, no key drawn, and the report says anyone who knows 5 can replay them
    assert _published(c) == _published(d)
    assert not (c / "exp/secrets/publisher.key").exists()
    assert (c / "exp/draws_from").read_text() == "seed 5\n"
    body = (c / "exp/report.md").read_text()
    assert key_from_seed(5).describe() in body and "anyone who knows the seed can replay them" in body
    assert set(read_kaldi_map(c / "data/neutral/utt2spk")).isdisjoint(ids_a)
