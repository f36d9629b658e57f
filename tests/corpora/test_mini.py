"""The embedded corpus `mini` (pydeid.corpora.mini): data contract, gold tags and timings, splits, determinism."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pydeid.corpora.mini import DATA_DIRS, build_corpus, read_stamp
from pydeid.io import DataDir, bio_to_spans, ctm_by_utt, read_conll, read_ctm, read_kaldi_map, validate_data_dir

TYPES = {"PER", "ORG", "LOC", "DATE", "TIME", "NUM"}
PUNCT = {",", ".", "?", "!"}


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a corpus, keyed by relative path, with the corpus' own absolute path neutralised."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            if p.suffix != ".wav":
                data = data.replace(str(root.resolve()).encode(), b"<ROOT>")
            out[str(p.relative_to(root))] = data
    return out


@pytest.fixture(scope="module")
def dirs(mini_corpus):
    return {n: DataDir.read(mini_corpus / n, validate=False) for n in DATA_DIRS}


def test_data_dirs_validate_and_read_back_with_kaldiio(mini_corpus):
    import kaldiio
    for name in DATA_DIRS:
        validate_data_dir(mini_corpus / name, check_audio=True)
        d = DataDir.read(mini_corpus / name)
        for f in ("utt2gender", "spk2gender", "tags.conll", "written.conll", "words.ctm", "utt2dur"):
            assert (mini_corpus / name / f).is_file(), f"{name}/{f} missing"
        assert set(d.utt2gender.values()) <= {"m", "f"}
        for utt, spec in d.wav_scp.items():
            assert Path(spec).is_absolute() and Path(spec).is_file()
            assert utt.startswith(d.utt2spk[utt] + "-"), "utterance ids must start with the speaker id"
    scp = kaldiio.load_scp(str(mini_corpus / "mini_test" / "wav.scp"))
    for utt in list(scp)[:5]:
        rate, wav = scp[utt]
        assert rate == 16000 and wav.dtype == np.int16 and wav.ndim == 1 and len(wav) > 8000


def test_text_is_spoken_words_only(dirs):
    for name, d in dirs.items():
        for utt, text in d.text.items():
            for w in text.split():
                assert re.fullmatch(r"[A-Za-z]+", w), f"{name} {utt}: token {w!r} is not a plain word"


def test_tags_align_one_to_one_with_text(mini_corpus, dirs):
    for name, d in dirs.items():
        sents = read_conll(mini_corpus / name / "tags.conll")
        assert [s.id for s in sents] == d.utts
        for s in sents:
            assert s.tokens == d.text[s.id].split()
            assert all(t == "O" or t[2:] in TYPES for t in s.tags)
            assert all(not t.startswith("I-") or (i > 0 and s.tags[i - 1][2:] == t[2:])
                       for i, t in enumerate(s.tags)), f"{s.id}: I- tag without a preceding span"
        written = read_conll(mini_corpus / name / "written.conll")
        assert [s.id for s in written] == d.utts
        for w, s in zip(written, sents):
            words = [(tok, tag) for tok, tag in zip(w.tokens, w.tags) if tok not in PUNCT]
            assert [t.lower() for t, _ in words] == [t.lower() for t in s.tokens]
            # only sentence-initial words change case
            starts = {0} | {i + 1 for i, t in enumerate(w.tokens) if t in (".", "?", "!")}
            for i, t in enumerate(w.tokens):
                if t not in PUNCT and i not in starts:
                    assert t in s.tokens, (w.id, t)
                if i in starts and i < len(w.tokens):
                    assert t[0].isupper() or t in PUNCT, (w.id, t)
            assert [g for _, g in words] == s.tags
            assert all(tag == "O" for tok, tag in zip(w.tokens, w.tags) if tok in PUNCT)
            assert w.tokens[-1] in PUNCT and w.tokens[0][0].isupper()


def test_gold_ctm_words_equal_transcript_and_lie_inside_audio(mini_corpus, dirs):
    for name, d in dirs.items():
        ctm = ctm_by_utt(read_ctm(mini_corpus / name / "words.ctm"))
        assert set(ctm) == set(d.utts)
        for utt in d.utts:
            words = ctm[utt]
            assert [e.token for e in words] == d.text[utt].split()
            dur = d.utt2dur[utt]
            prev_end = 0.0
            for e in words:
                assert e.dur > 0 and e.start >= prev_end - 1e-6 and e.end <= dur + 1e-6, (utt, e)
                prev_end = e.end
        if name == "mini_dev":  # utt2dur agrees with the audio itself
            for utt in d.utts[:5]:
                assert abs(len(d.load_audio(utt)) / 16000 - d.utt2dur[utt]) < 0.002


def test_word_timings_are_sane(mini_corpus, dirs):
    """Speech energy sits inside the gold word intervals: gaps and edges are near silent, words are not."""
    d = dirs["mini_train"]
    ctm = ctm_by_utt(read_ctm(mini_corpus / "mini_train" / "words.ctm"))
    ratios, quiet_words, n_words = [], 0, 0
    for utt in d.utts:
        wav = d.load_audio(utt).astype(np.float64)
        inside = np.zeros(len(wav), bool)
        for e in ctm[utt]:
            inside[int(e.start * 16000):int(e.end * 16000)] = True
        e_in, e_out = np.mean(wav[inside] ** 2), np.mean(wav[~inside] ** 2)
        ratios.append(10 * np.log10(e_in / e_out))
        for e in ctm[utt]:  # every word carries energy well above the gaps
            seg = wav[int(e.start * 16000):int(e.end * 16000)]
            n_words += 1
            quiet_words += 10 * np.log10(np.mean(seg ** 2) / e_out) < 10
    assert min(ratios) > 15, f"an utterance has only {min(ratios):.1f} dB between words and gaps"
    assert np.median(ratios) > 25
    assert quiet_words <= 0.02 * n_words, f"{quiet_words}/{n_words} word intervals are near silent"
    # the intervals are not just the whole utterance: edges are left out
    assert all(ctm[u][0].start > 0.05 and ctm[u][-1].end < d.utt2dur[u] - 0.02 for u in d.utts)


def test_every_entity_type_in_train_and_test(mini_corpus):
    for name in ("mini_train", "mini_test"):
        found = Counter(t for s in read_conll(mini_corpus / name / "tags.conll") for _, _, t in bio_to_spans(s.tags))
        assert set(found) == TYPES, f"{name} lacks {TYPES - set(found)}"


def test_ambiguous_words_occur_as_entity_and_not(mini_corpus):
    """Context matters: some surface words are tagged in one place and O in another (e.g. numbers, 'morning')."""
    roles: dict[str, set[bool]] = {}
    for name in ("mini_train", "mini_dev", "mini_test"):
        for s in read_conll(mini_corpus / name / "tags.conll"):
            for tok, tag in zip(s.tokens, s.tags):
                roles.setdefault(tok.lower(), set()).add(tag != "O")
    both = {w for w, r in roles.items() if r == {True, False}}
    assert len(both) >= 5, both


def test_speakers_disjoint_and_gender_balanced(mini_corpus, dirs):
    spk = {n: set(dirs[n].spk2utt) for n in ("mini_train", "mini_dev", "mini_test")}
    assert not spk["mini_train"] & spk["mini_dev"]
    assert not spk["mini_train"] & spk["mini_test"]
    assert not spk["mini_dev"] & spk["mini_test"]
    g = Counter(dirs["mini_test"].spk2gender.values())
    assert g["m"] >= 2 and g["f"] >= 2
    g = Counter(dirs["mini_train"].spk2gender.values())
    assert abs(g["m"] - g["f"]) <= 1
    # one espeak voice per speaker id, documented next to the data dirs, none used twice
    rows = [ln.split() for ln in (mini_corpus / "mini_voices.txt").read_text().splitlines() if not ln.startswith("#")]
    assert {r[0] for r in rows} == spk["mini_train"] | spk["mini_dev"] | spk["mini_test"]
    assert len({tuple(r[3:7]) for r in rows}) == len(rows)
    for r in rows:
        assert dirs[f"mini_{r[1]}"].spk2gender[r[0]] == r[2]


def test_enrollment_and_trials(mini_corpus, dirs):
    test, enroll, trial = dirs["mini_test"], dirs["mini_test_enroll"], dirs["mini_test_trial"]
    assert set(enroll.utts).isdisjoint(trial.utts)
    assert set(enroll.utts) | set(trial.utts) == set(test.utts)
    assert set(enroll.spk2utt) == set(trial.spk2utt) == set(test.spk2utt)
    lines = (mini_corpus / "mini_test_trial" / "trials").read_text().splitlines()
    pairs = [ln.split() for ln in lines]
    assert all(len(p) == 3 and p[2] in ("target", "nontarget") for p in pairs)
    assert len({(s, u) for s, u, _ in pairs}) == len(pairs)
    for s, u, lab in pairs:
        assert s in enroll.spk2utt and u in trial.utt2spk and u not in enroll.utt2spk
        assert (lab == "target") == (trial.utt2spk[u] == s)
    labels = Counter(p[2] for p in pairs)
    assert labels["target"] == len(trial.utts) and labels["nontarget"] > labels["target"]


def test_rerun_is_a_noop_and_the_cli_reports(mini_corpus, capsys):
    stamp_before = (mini_corpus / ".mini_stamp.json").stat().st_mtime_ns
    wav_before = (mini_corpus / "mini_train" / "wav.scp").stat().st_mtime_ns
    from pydeid.cli import main
    assert main(["make-mini-corpus", "--seed", "0", "--size", "tiny", str(mini_corpus)]) == 0
    out = capsys.readouterr().out
    assert "mini_test_trial" in out and "NUM" in out
    assert (mini_corpus / ".mini_stamp.json").stat().st_mtime_ns == stamp_before
    assert (mini_corpus / "mini_train" / "wav.scp").stat().st_mtime_ns == wav_before
    assert read_stamp(mini_corpus)["size"] == "tiny"


def test_failed_build_leaves_nothing_behind(tmp_path, monkeypatch):
    import pydeid.corpora.mini.build as B

    def boom(tasks, nj):
        raise RuntimeError("synthesis failed")
    monkeypatch.setattr(B, "_run_jobs", boom)
    with pytest.raises(RuntimeError, match="synthesis failed"):
        build_corpus(tmp_path / "c", seed=0, size="tiny")
    assert list((tmp_path / "c").iterdir()) == []


def test_refuses_to_overwrite_a_foreign_folder(tmp_path):
    (tmp_path / "mini_train").mkdir()
    with pytest.raises(FileExistsError):
        build_corpus(tmp_path, seed=0, size="tiny")


def test_same_seed_is_byte_identical_other_seed_differs(mini_corpus, tmp_path):
    """Another seed -> another corpus; rebuilding the same folder with seed 0 (and another --nj) replaces it
    with exactly the bytes of the fixture's corpus, wavs included."""
    out = tmp_path / "c"
    other = _files(build_corpus(out, seed=1, size="tiny"))
    a = _files(mini_corpus)
    assert other["mini_train/text"] != a["mini_train/text"]
    wavs_a = {k: v for k, v in a.items() if k.endswith(".wav")}
    wavs_o = {k: v for k, v in other.items() if k.endswith(".wav")}
    assert not set(wavs_a.values()) & set(wavs_o.values())
    assert read_stamp(out)["seed"] == 1
    again = _files(build_corpus(out, seed=0, size="tiny", nj=1))
    assert a.keys() == again.keys()
    diff = [k for k in a if a[k] != again[k]]
    assert not diff, f"{len(diff)} files differ, e.g. {diff[:3]}"
    assert [p.name for p in out.iterdir() if p.name.startswith(".mini-tmp")] == []


def test_prepare_data_script(repo_root, mini_corpus):
    """local/mini/prepare_data.sh on a finished corpus with the same options: validates, rebuilds nothing."""
    before = (mini_corpus / "mini_test" / "text").stat().st_mtime_ns
    env_cmd = f"cd {repo_root} && . ./path.sh && local/mini/prepare_data.sh --seed 0 --size tiny {mini_corpus}"
    r = subprocess.run(["bash", "-c", env_cmd], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "mini corpus ready" in r.stdout
    assert (mini_corpus / "mini_test" / "text").stat().st_mtime_ns == before
    assert read_kaldi_map(mini_corpus / "mini_test" / "utt2gender")


def test_cli_rejects_bad_sizes_in_one_line(tmp_path, capsys):
    from pydeid.cli import main
    assert main(["make-mini-corpus", "--size", "tiny", "--utts-per-speaker", "2", str(tmp_path / "c")]) == 1
    err = capsys.readouterr().err
    assert "n_enroll" in err and "Traceback" not in err
    assert not (tmp_path / "c").exists()


def test_text_only_dialogues_for_ner(tmp_path):
    from pydeid.corpora.mini.text_only import build_text
    a = build_text(tmp_path / "a", seed=3, n_dialogues=40)
    b = build_text(tmp_path / "b", seed=3, n_dialogues=40)
    assert (a / "tags.conll").read_bytes() == (b / "tags.conll").read_bytes()
    sents = read_conll(a / "tags.conll")
    assert len(sents) > 300
    found = {t for s in sents for _, _, t in bio_to_spans(s.tags)}
    assert found == TYPES
    written = read_conll(a / "written.conll")
    assert [s.id for s in written] == [s.id for s in sents]
    text = read_kaldi_map(a / "text")
    assert all(text[s.id].split() == s.tokens for s in sents)


def test_train_speakers_can_have_fewer_turns(tmp_path):
    """train_utts_per_speaker (the default size uses 48 voices x 8 turns): only the training split changes."""
    out = build_corpus(tmp_path / "c", seed=0, size="tiny", n_train_speakers=6, train_utts_per_speaker=4)
    per_spk = {n: Counter(DataDir.read(out / n).utt2spk.values()) for n in ("mini_train", "mini_dev", "mini_test")}
    assert len(per_spk["mini_train"]) == 6 and set(per_spk["mini_train"].values()) == {4}
    assert set(per_spk["mini_dev"].values()) == {8} and set(per_spk["mini_test"].values()) == {8}
    assert read_stamp(out)["train_utts_per_speaker"] == 4
    with pytest.raises(ValueError, match="train_utts_per_speaker"):
        build_corpus(tmp_path / "d", size="tiny", train_utts_per_speaker=-1)
