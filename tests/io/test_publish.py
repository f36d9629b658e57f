"""Publishing a data dir (issue 39): keyed pseudonymous ids, no gender, the id map a secret, every file checked for
every original id; the publisher's key; temp files outside the published dir."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir, FormatError, validate_data_dir
from pydeid.io.atomic import atomic_write, partial_dir
from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir
from pydeid.io.publisher_key import key_from_seed, load_or_create
from pydeid.io.pseudonyms import publish_data_dir, read_id_map
from pydeid.io.secrets import SecretPlacementError


def _ids(d):
    return set(d.utt2spk) | set(d.utt2spk.values())


def _publish(src, tmp_path, key, name="pub", **kw):
    return publish_data_dir(src, tmp_path / name, key, tmp_path / "secrets", **kw)


def test_published_dir_holds_no_original_id_and_no_gender(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test"
    key = load_or_create(tmp_path / "secrets")
    rep = _publish(src, tmp_path, key)
    out = tmp_path / "pub"
    validate_data_dir(out, check_audio=True)            # Kaldi's rules: sorted, speaker id prefixes the utterance
    d, o = DataDir.read(out), DataDir.read(src)
    assert len(d.utts) == len(o.utts) and len(d.speakers) == len(o.speakers)
    assert not _ids(d) & _ids(o)
    assert all(u.startswith(s + "-") for u, s in d.utt2spk.items())
    assert {p.name for p in out.iterdir()} == {"wav", "wav.scp", "text", "utt2spk", "spk2utt", "utt2dur"}
    assert sorted(p.name for p in (out / "wav").iterdir()) == sorted(f"{u}.wav" for u in d.utts)
    assert "not published" in rep["gender"] and "spk2gender" in rep["gender"]
    assert sorted(rep["dropped_files"]) == ["tags.conll", "words.ctm", "written.conll"]
    # the same audio and text under the new names, through the secret map
    m = read_id_map(tmp_path / "secrets", out)
    for u in o.utts[:3]:
        assert d.text[m["utterances"][u]] == o.text[u]
        assert np.array_equal(d.load_audio(m["utterances"][u]), o.load_audio(u))
    mp = tmp_path / "secrets" / os.path.basename(rep["id_map"])
    assert os.stat(mp).st_mode & 0o777 == 0o600 and os.stat(key.path).st_mode & 0o777 == 0o600
    # verify-ids on every file of the dir: nothing found; the original dir itself is full of them
    assert find_id_leaks(out, ids_of_data_dir(src)) == []
    assert find_id_leaks(src, ids_of_data_dir(src))


def test_same_key_same_pseudonyms_across_data_dirs_and_another_key_other_ones(mini_corpus, tmp_path):
    enroll, trial = mini_corpus / "mini_test_enroll", mini_corpus / "mini_test_trial"
    key = load_or_create(tmp_path / "secrets")
    _publish(enroll, tmp_path, key, "enroll")
    _publish(trial, tmp_path, key, "trial")
    e, t = DataDir.read(tmp_path / "enroll"), DataDir.read(tmp_path / "trial")
    shared = set(DataDir.read(enroll).speakers) & set(DataDir.read(trial).speakers)
    assert shared and len(set(e.speakers) & set(t.speakers)) == len(shared)   # one speaker, one pseudonym
    again = load_or_create(tmp_path / "secrets")
    assert again.key == key.key and not again.created
    other = load_or_create(tmp_path / "other_secrets")
    assert other.key != key.key and other.created
    publish_data_dir(enroll, tmp_path / "enroll2", other, tmp_path / "other_secrets")
    assert not set(DataDir.read(tmp_path / "enroll2").utts) & set(e.utts)
    # --seed N: replayable by design, and the report says so
    rep = _publish(enroll, tmp_path, key_from_seed(7), "enroll7")
    assert "anyone who knows the seed can replay" in rep["key"]
    assert DataDir.read(tmp_path / "enroll7").utts == \
        DataDir.read(publish_data_dir(enroll, tmp_path / "enroll7b", key_from_seed(7), tmp_path / "s7")
                     and tmp_path / "enroll7b").utts


def test_keep_gender_publishes_it_under_the_pseudonyms(mini_corpus, tmp_path):
    rep = _publish(mini_corpus / "mini_test", tmp_path, load_or_create(tmp_path / "secrets"), keep_gender=True)
    d = DataDir.read(tmp_path / "pub")
    assert rep["gender"].startswith("published") and set(d.spk2gender) == set(d.speakers)
    assert sorted(d.spk2gender.values()) == sorted(DataDir.read(mini_corpus / "mini_test").spk2gender.values())


def test_secrets_refused_inside_a_corpus(mini_corpus, tmp_path):
    with pytest.raises(SecretPlacementError):
        load_or_create(tmp_path / "pub" / "secrets", forbidden_dirs=[tmp_path / "pub"])
    with pytest.raises(SecretPlacementError):
        publish_data_dir(mini_corpus / "mini_test", tmp_path / "pub", key_from_seed(0), tmp_path / "pub" / "s")
    assert not (tmp_path / "pub").exists()


def test_an_original_id_anywhere_is_found_with_file_and_line(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test"
    _publish(src, tmp_path, key_from_seed(0))
    out = tmp_path / "pub"
    orig_spk, orig_utt = DataDir.read(src).speakers[1], DataDir.read(src).utts[5]
    session = orig_utt.split("-")[1]                               # spk007-te001-05: the session part
    ids = ids_of_data_dir(src)
    (out / "notes").write_text(f"recorded in {session}\n")
    [leak] = find_id_leaks(out, ids)
    assert (leak.path.name, leak.line, leak.token) == ("notes", 1, session) and "part of" in leak.what
    (out / "notes").write_text(f"ok\nfrom /corpus/{orig_spk}/x.wav\n")
    assert str(find_id_leaks(out, ids)[0]).endswith(f"notes:2: original speaker id '{orig_spk}'")
    (out / "notes").unlink()
    # a header tag (soundfile writes none by default; a tool could) and a file name
    wav = next((out / "wav").iterdir())
    x, sr = sf.read(wav)
    wav.unlink()   # a hard link to the input's file: write a new one
    with sf.SoundFile(wav, "w", sr, 1, "PCM_16") as f:
        f.title = orig_utt
        f.write(x)
    assert find_id_leaks(out, ids)[0].token == orig_utt
    wav.unlink()
    (out / "wav" / f"{orig_spk}.wav").write_bytes(b"")
    assert find_id_leaks(out, ids)[0].path.name == f"{orig_spk}.wav"
    # a duration is one token: it never matches a numeric id part by chance
    (out / "wav" / f"{orig_spk}.wav").unlink()
    (out / "utt2dur").write_text("s1-u1 3.100\n")
    assert find_id_leaks(out, {"100": "part of x"}) == [] and find_id_leaks(out, {"3.100": "x"})


def test_audio_header_metadata_is_not_published(mini_corpus, tmp_path):
    src = tmp_path / "src"
    o = DataDir.read(mini_corpus / "mini_test").subset(DataDir.read(mini_corpus / "mini_test").utts[:2])
    (src / "wav").mkdir(parents=True)
    for u, spec in list(o.wav_scp.items()):
        x, sr = sf.read(spec)
        with sf.SoundFile(src / "wav" / f"{u}.wav", "w", sr, 1, "PCM_16") as f:
            f.title, f.comment = u, f"speaker {o.utt2spk[u]}"
            f.write(x)
        o.wav_scp[u] = str(src / "wav" / f"{u}.wav")
    o.write(src)
    _publish(src, tmp_path, key_from_seed(0))
    for p in (tmp_path / "pub" / "wav").iterdir():
        with sf.SoundFile(p) as f:
            assert not any(f.copy_metadata().values())


def test_cli_fails_with_one_line_naming_the_file(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test"
    bad = tmp_path / "bad"
    d = DataDir.read(src)
    d.text = {u: f"{t} {d.utt2spk[u]}" for u, t in d.text.items()}   # a speaker id said in the transcript
    d.write(bad)
    r = subprocess.run([sys.executable, "-m", "pydeid", "publish-data-dir", "--secret-dir", tmp_path / "s",
                        bad, tmp_path / "pub"], capture_output=True, text=True)
    errors = [ln for ln in r.stderr.splitlines() if " INFO: " not in ln]
    assert r.returncode == 1 and len(errors) == 1, r.stderr
    assert "/pub/text:1: original speaker id 'spk" in errors[0] and not (tmp_path / "pub").exists()
    r = subprocess.run([sys.executable, "-m", "pydeid", "verify-ids", src, src], capture_output=True, text=True)
    assert r.returncode == 1 and "original" in r.stderr


def test_temp_files_live_outside_the_published_dir(tmp_path):
    out = tmp_path / "data" / "neutral"
    tmp = partial_dir(out)
    assert tmp.parent == out.parent and tmp.name == ".neutral.partial"
    with atomic_write(out / "wav" / "u1.wav", "wb", encoding=None, tmp_dir=tmp) as f:
        f.write(b"x")
        assert not [p for p in (out / "wav").iterdir()] and len(list(tmp.iterdir())) == 1
    assert (out / "wav" / "u1.wav").read_bytes() == b"x" and not list(tmp.iterdir())


def test_a_rerun_keeps_a_finished_dir_and_republishes_changed_audio(mini_corpus, tmp_path):
    src = tmp_path / "src"
    o = DataDir.read(mini_corpus / "mini_test").subset(DataDir.read(mini_corpus / "mini_test").utts[:2])
    (src / "wav").mkdir(parents=True)
    for u, spec in list(o.wav_scp.items()):
        x, sr = sf.read(spec)
        sf.write(src / "wav" / f"{u}.wav", x, sr)
        o.wav_scp[u] = str(src / "wav" / f"{u}.wav")
    o.write(src)
    key = key_from_seed(3)
    assert not _publish(src, tmp_path, key)["resumed"]
    assert _publish(src, tmp_path, key)["resumed"]
    u = o.utts[0]
    x, sr = sf.read(o.wav_scp[u])
    (src / "wav" / f"{u}.wav").unlink()          # a re-masked input: a new file, other samples
    sf.write(src / "wav" / f"{u}.wav", x * 0.5, sr)
    assert not _publish(src, tmp_path, key)["resumed"]
    m = read_id_map(tmp_path / "secrets", tmp_path / "pub")
    y, _ = sf.read(DataDir.read(tmp_path / "pub").wav_scp[m["utterances"][u]])
    assert np.allclose(y, x * 0.5, atol=1e-4)
