"""utils/{split_data,subset_data_dir,copy_data_dir,combine_data,fix_data_dir,validate_data_dir}.sh and the .pl
table tools, on small data dirs (real VCTK audio where audio matters). Every output must pass the validator."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from datadir_helpers import UTILS, build_synthetic_dir, utils_env
from pydeid.io import DataDir, read_conll, read_ctm, read_kaldi_map, validate_data_dir


def sh(*args, cwd=None, ok=True):
    p = subprocess.run([str(UTILS / args[0]), *map(str, args[1:])], cwd=cwd, env=utils_env(),
                       capture_output=True, text=True, timeout=120)
    if ok and p.returncode != 0:
        raise AssertionError(f"{args}: rc={p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def files(d: Path) -> dict[str, str]:
    return {f.name: f.read_text() for f in sorted(d.iterdir()) if f.is_file()}


def check_side_files(d: Path):
    """words.ctm and tags.conll cover exactly the utterances of the dir."""
    utts = set(read_kaldi_map(d / "utt2spk"))
    assert {e.utt for e in read_ctm(d / "words.ctm")} == utts
    assert {s.id for s in read_conll(d / "tags.conll")} == utts


# ---- split ----------------------------------------------------------------------------------------------------
def test_split_data_by_speaker(vctk_data):
    sh("split_data.sh", vctk_data, 3)
    whole = DataDir.read(vctk_data)
    seen_utts, seen_spks = [], []
    for n in (1, 2, 3):
        part = vctk_data / "split3" / str(n)
        validate_data_dir(part)
        d = DataDir.read(part)
        seen_utts += d.utts
        seen_spks += d.speakers
        check_side_files(part)
        for u in d.utts:
            assert d.text[u] == whole.text[u] and d.wav_scp[u] == whole.wav_scp[u]
        assert d.spk2gender == {s: whole.spk2gender[s] for s in d.speakers}
    assert sorted(seen_utts) == sorted(whole.utts)
    assert len(seen_spks) == len(set(seen_spks)) == len(whole.speakers)  # speakers never straddle parts
    assert seen_utts == sorted(seen_utts)  # contiguous parts in sorted order
    sizes = [len(DataDir.read(vctk_data / "split3" / str(n)).utts) for n in (1, 2, 3)]
    assert max(sizes) - min(sizes) <= 4  # balanced by utterances (largest speaker has 4)


def test_split_reused_when_up_to_date_and_redone_when_stale(vctk_data):
    sh("split_data.sh", vctk_data, 2)
    f = vctk_data / "split2" / "1" / "utt2spk"
    m1 = f.stat().st_mtime_ns
    time.sleep(0.01)
    sh("split_data.sh", vctk_data, 2)
    assert f.stat().st_mtime_ns == m1  # reused
    time.sleep(0.01)
    (vctk_data / "text").touch()  # the data dir changed after the split
    sh("split_data.sh", vctk_data, 2)
    assert (vctk_data / "split2" / "1" / "utt2spk").stat().st_mtime_ns > m1
    assert not [p for p in vctk_data.iterdir() if p.name.startswith(".")]  # no temp dirs left


def test_split_too_many_parts_and_per_utt(tmp_path):
    d = build_synthetic_dir(tmp_path / "d", n_spk=2, n_utt=3)
    p = sh("split_data.sh", d, 3, ok=False)
    assert p.returncode == 1 and "number of speakers 2 is less than" in p.stderr
    assert not (d / "split3").exists()
    sh("split_data.sh", "--per-utt", d, 3)
    parts = [DataDir.read(d / "split3utt" / str(n)) for n in (1, 2, 3)]
    assert sum(len(x.utts) for x in parts) == 7 and all(len(x.utts) >= 2 for x in parts)


def test_split_with_segments(tmp_path):
    d = build_synthetic_dir(tmp_path / "d", n_spk=4, n_utt=2, segments=True)
    sh("split_data.sh", d, 2)
    for n in (1, 2):
        part = DataDir.read(d / "split2" / str(n))
        assert set(part.wav_scp) == {s.reco for s in part.segments.values()}


# ---- subset -----------------------------------------------------------------------------------------------------
def test_subset_modes(vctk_data, tmp_path):
    whole = DataDir.read(vctk_data)
    (tmp_path / "ul").write_text("p226_002\np225_001 extra-field\nnot_an_utt\n")
    sh("subset_data_dir.sh", "--utt-list", tmp_path / "ul", vctk_data, tmp_path / "ul_out")
    assert DataDir.read(tmp_path / "ul_out").utts == ["p225_001", "p226_002"]
    check_side_files(tmp_path / "ul_out")

    (tmp_path / "sl").write_text("p227\np244\n")
    sh("subset_data_dir.sh", "--spk-list", tmp_path / "sl", vctk_data, tmp_path / "sl_out")
    d = DataDir.read(tmp_path / "sl_out")
    assert d.speakers == ["p227", "p244"] and len(d.utts) == 5
    assert set(d.spk2gender) == {"p227", "p244"}

    sh("subset_data_dir.sh", "--first", vctk_data, 5, tmp_path / "first")
    assert DataDir.read(tmp_path / "first").utts == whole.utts[:5]
    sh("subset_data_dir.sh", "--first", 3, vctk_data, tmp_path / "first3")  # the --first N form
    assert DataDir.read(tmp_path / "first3").utts == whole.utts[:3]
    sh("subset_data_dir.sh", "--last", vctk_data, 2, tmp_path / "last")
    assert DataDir.read(tmp_path / "last").utts == whole.utts[-2:]

    sh("subset_data_dir.sh", "--per-spk", vctk_data, 2, tmp_path / "perspk")
    d = DataDir.read(tmp_path / "perspk")
    assert all(len(u) == (2 if len(whole.spk2utt[s]) >= 2 else 1) for s, u in d.spk2utt.items())
    assert d.spk2utt["p225"] == ["p225_001", "p225_003"]  # evenly spaced within the speaker, as Kaldi

    sh("subset_data_dir.sh", "--speakers", vctk_data, 6, tmp_path / "spks")
    d = DataDir.read(tmp_path / "spks")
    assert len(d.utts) >= 6 and all(d.spk2utt[s] == whole.spk2utt[s] for s in d.speakers)  # whole speakers

    sh("subset_data_dir.sh", vctk_data, 5, tmp_path / "even")
    assert len(DataDir.read(tmp_path / "even").utts) == 5
    p = sh("subset_data_dir.sh", "--bogus", vctk_data, 5, tmp_path / "bad", ok=False)
    assert p.returncode != 0 and not (tmp_path / "bad").exists()


def test_subset_outputs_read_back_with_kaldiio(vctk_data, tmp_path):
    """Real audio as 16-bit wav: the subset's wav.scp must load with kaldiio and match the source audio."""
    import kaldiio
    import numpy as np
    import soundfile as sf
    src = DataDir.read(vctk_data)
    wavdir = tmp_path / "wav"
    wavdir.mkdir()
    keep = src.utts[:4]
    for u in keep:
        x, sr = sf.read(src.wav_scp[u], dtype="int16")
        sf.write(wavdir / f"{u}.wav", x, sr, subtype="PCM_16")
    d = src.subset(keep)
    d.wav_scp = {u: str(wavdir / f"{u}.wav") for u in keep}
    d.write(tmp_path / "w")
    (tmp_path / "ul").write_text("\n".join(keep[1:3]) + "\n")
    sh("subset_data_dir.sh", "--utt-list", tmp_path / "ul", tmp_path / "w", tmp_path / "w2")
    sh("validate_data_dir.sh", "--check-audio", tmp_path / "w2")
    loaded = dict(kaldiio.load_scp(str(tmp_path / "w2" / "wav.scp")))
    assert sorted(loaded) == keep[1:3]
    for u, (rate, arr) in loaded.items():
        ref, _ = sf.read(src.wav_scp[u], dtype="int16")
        assert rate == 16000 and np.array_equal(arr, ref)


# ---- copy / combine ---------------------------------------------------------------------------------------------
def test_copy_with_prefixes_and_combine_round_trip(vctk_data, tmp_path):
    a = tmp_path / "a"
    sh("copy_data_dir.sh", "--utt-prefix", "A-", "--spk-prefix", "A-", "--utt-suffix", "-x", vctk_data, a)
    src, cp = DataDir.read(vctk_data), DataDir.read(a)
    assert cp.utts == sorted(f"A-{u}-x" for u in src.utts)
    assert cp.speakers == sorted(f"A-{s}" for s in src.speakers)
    for u in src.utts:
        assert cp.text[f"A-{u}-x"] == src.text[u] and cp.wav_scp[f"A-{u}-x"] == src.wav_scp[u]
        assert cp.utt2spk[f"A-{u}-x"] == f"A-{src.utt2spk[u]}"
    check_side_files(a)
    sh("validate_data_dir.sh", "--check-audio", a)

    comb = tmp_path / "comb"
    sh("combine_data.sh", comb, vctk_data, a)
    c = DataDir.read(comb)
    assert len(c.utts) == 2 * len(src.utts) and len(c.speakers) == 2 * len(src.speakers)
    check_side_files(comb)
    # subsetting the combination back to the original ids gives the original files, byte for byte
    (tmp_path / "ul").write_text("\n".join(src.utts) + "\n")
    sh("subset_data_dir.sh", "--utt-list", tmp_path / "ul", comb, tmp_path / "back")
    assert files(tmp_path / "back") == files(vctk_data)

    p = sh("combine_data.sh", tmp_path / "dup", vctk_data, vctk_data, ok=False)
    assert p.returncode == 1 and "p225_001" in p.stderr and not (tmp_path / "dup").exists()


def test_copy_plain_is_identical(vctk_data, tmp_path):
    sh("copy_data_dir.sh", vctk_data, tmp_path / "c")
    assert files(tmp_path / "c") == files(vctk_data)
    p = sh("copy_data_dir.sh", "--no-such-opt", "x", vctk_data, tmp_path / "c2", ok=False)
    assert p.returncode == 1 and "invalid option --no-such-opt" in p.stderr


def test_combine_segments_with_plain(tmp_path):
    a = build_synthetic_dir(tmp_path / "a", n_spk=2, prefix="a", segments=True)
    b = build_synthetic_dir(tmp_path / "b", n_spk=2, prefix="b")
    sh("combine_data.sh", tmp_path / "c", a, b)
    c = DataDir.read(tmp_path / "c")
    assert c.segments["b00-000"].reco == "b00-000" and c.segments["b00-000"].end == -1
    assert c.wav_scp["b00-000"] == "/nonexistent/b00-000.wav" and "a00-rec" in c.wav_scp


# ---- fix / validate ---------------------------------------------------------------------------------------------
def test_fix_data_dir_repairs_and_backs_up(vctk_data, tmp_path):
    d = tmp_path / "bad"
    shutil.copytree(vctk_data, d)
    text = (d / "text").read_text().splitlines()
    (d / "text").write_text("\n".join(reversed(text[1:])) + "\n")  # unsorted, first utterance missing
    wav = (d / "wav.scp").read_text().splitlines()
    (d / "wav.scp").write_text("\n".join(wav[:-1] + [wav[3]]) + "\n")  # last missing, one duplicated line
    (d / "utt2spk").write_text((d / "utt2spk").read_text() + "zz_orphan p999\n")
    p = sh("validate_data_dir.sh", d, ok=False)
    assert p.returncode == 1 and str(d) in p.stderr
    p = sh("fix_data_dir.sh", d)
    assert f"kept {len(text) - 2} utterances out of {len(text) + 1}" in p.stderr
    validate_data_dir(d)
    fixed = DataDir.read(d)
    assert "p225_001" not in fixed.utt2spk and "zz_orphan" not in fixed.utt2spk and "p999" not in fixed.spk2utt
    check_side_files(d)
    assert (d / ".backup" / "text").read_text() == "\n".join(reversed(text[1:])) + "\n"


def test_fix_refuses_conflicting_duplicates(vctk_data, tmp_path):
    d = tmp_path / "bad"
    shutil.copytree(vctk_data, d)
    (d / "text").write_text((d / "text").read_text() + "p225_001 SOMETHING ELSE\n")
    p = sh("fix_data_dir.sh", d, ok=False)
    assert p.returncode == 1 and f"{d}/text:" in p.stderr and "duplicate id 'p225_001'" in p.stderr


def test_validate_options(tmp_path):
    d = build_synthetic_dir(tmp_path / "d")
    assert sh("validate_data_dir.sh", "--no-feats", d).returncode == 0
    p = sh("validate_data_dir.sh", "--check-audio", d, ok=False)
    assert p.returncode == 1 and "wav.scp:1" in p.stderr
    (d / "text").unlink()
    assert sh("validate_data_dir.sh", d, ok=False).returncode == 1
    p = sh("validate_data_dir.sh", "--no-text", d, ok=False)
    assert p.returncode == 0, p.stderr


# ---- .pl table tools ---------------------------------------------------------------------------------------------
def test_utt2spk_spk2utt_round_trip(vctk_data, tmp_path):
    u2s = (vctk_data / "utt2spk").read_text()
    p = subprocess.run([str(UTILS / "utt2spk_to_spk2utt.pl"), str(vctk_data / "utt2spk")], capture_output=True,
                       text=True, check=True)
    assert p.stdout == (vctk_data / "spk2utt").read_text()
    q = subprocess.run([str(UTILS / "spk2utt_to_utt2spk.pl")], input=p.stdout, capture_output=True, text=True,
                       check=True)
    assert q.stdout == u2s


def test_split_scp(vctk_data, tmp_path):
    scp = vctk_data / "wav.scp"
    lines = scp.read_text().splitlines(keepends=True)
    outs = [tmp_path / f"w.{i}.scp" for i in range(1, 5)]
    sh("split_scp.pl", scp, *outs)
    parts = [o.read_text().splitlines(keepends=True) for o in outs]
    assert sum(parts, []) == lines and [len(x) for x in parts] == [7, 6, 6, 6]
    sh("split_scp.pl", f"--utt2spk={vctk_data / 'utt2spk'}", scp, *outs[:3])
    u2s = read_kaldi_map(vctk_data / "utt2spk")
    spk_sets = [{u2s[l.split()[0]] for l in o.read_text().splitlines()} for o in outs[:3]]
    assert not (spk_sets[0] & spk_sets[1]) and not (spk_sets[1] & spk_sets[2])
    p = sh("split_scp.pl", "-j", 4, 2, scp)
    assert p.stdout == "".join(parts[2])
    p = sh("split_scp.pl", "-j", 4, 3, "--one-based", scp)
    assert p.stdout == "".join(parts[2])
    p = sh("split_scp.pl", f"--utt2spk={vctk_data / 'utt2spk'}", scp, *[tmp_path / f"x{i}" for i in range(20)],
           ok=False)
    assert p.returncode == 1 and "number of speakers 13 is less than" in p.stderr


def test_filter_scp(vctk_data, tmp_path):
    (tmp_path / "ids").write_text("p226_001\np225_002 x\n")
    p = sh("filter_scp.pl", tmp_path / "ids", vctk_data / "wav.scp")
    assert [l.split()[0] for l in p.stdout.splitlines()] == ["p225_002", "p226_001"]
    p = sh("filter_scp.pl", "--exclude", tmp_path / "ids", vctk_data / "wav.scp")
    assert len(p.stdout.splitlines()) == len(read_kaldi_map(vctk_data / "wav.scp")) - 2
    (tmp_path / "spk").write_text("p227\n")
    p = sh("filter_scp.pl", "-f", 2, tmp_path / "spk", vctk_data / "utt2spk")
    assert {l.split()[1] for l in p.stdout.splitlines()} == {"p227"} and len(p.stdout.splitlines()) == 4
