"""The VCTK sample as a Kaldi data dir for egs/speechocean762/s5 (local/speechocean762/prepare_vctk.sh), and the
recipe's per-stage time records read by its report (pydeid.report.speechocean_report.read_stage_times)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pydeid.report.speechocean_report import read_stage_times
from pydeid.io import FormatError, read_kaldi_map

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


def _prep(repo_root: Path, root: Path, out: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{repo_root / 'utils'}:{os.environ['PATH']}")
    return subprocess.run(["local/speechocean762/prepare_vctk.sh", str(root), str(out)], cwd=repo_root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_prepare_vctk_real_sample(repo_root, tmp_path):
    root = SHARED / "vctk_subset"
    if not root.is_dir():
        pytest.skip(f"{root} is absent (read in place from ../shared/data, never committed)")
    p = _prep(repo_root, root, tmp_path / "vctk")
    assert p.returncode == 0, p.stderr
    d = tmp_path / "vctk"
    utt2spk = read_kaldi_map(d / "utt2spk")
    assert len(utt2spk) == 77 and len(set(utt2spk.values())) == 13
    assert read_kaldi_map(d / "spk2gender")["p225"] == "f" and read_kaldi_map(d / "spk2gender")["p226"] == "m"
    assert read_kaldi_map(d / "utt2gender")["p226_001"] == "m"
    assert read_kaldi_map(d / "text")["p225_001"] == "Please call Stella."
    wav = read_kaldi_map(d / "wav.scp")
    assert all(Path(w).is_absolute() and Path(w).is_file() for w in wav.values())
    assert abs(float(read_kaldi_map(d / "utt2dur")["p225_001"]) - 2.052) < 1e-6
    # a second call keeps the valid dir
    p2 = _prep(repo_root, root, d)
    assert p2.returncode == 0 and "kept" in p2.stdout


def test_prepare_vctk_bad_manifest_names_file_and_line(repo_root, tmp_path):
    root = tmp_path / "v"
    (root / "wav").mkdir(parents=True)
    (root / "wav" / "a.flac").write_bytes(b"")
    hdr = "utt_id\tspeaker\tgender\tduration_s\tpath\ttranscript\tsource_subset\n"
    (root / "manifest.tsv").write_text(hdr + "p1_001\tp1\tf\t1.0\twav/a.flac\tHello.\tx\n"
                                       "p1_002\tp1\tx\t1.0\twav/a.flac\tHello.\tx\n")
    p = _prep(repo_root, root, tmp_path / "out")
    assert p.returncode != 0
    assert p.stderr.strip().splitlines()[-1] == (
        f"{root}/manifest.tsv:3: expected <utt_id> <speaker> <f|m> <duration_s> <path> <transcript>")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.tmp").exists()
    # an utterance whose audio is missing
    (root / "manifest.tsv").write_text(hdr + "p1_001\tp1\tf\t1.0\twav/missing.flac\tHello.\tx\n")
    p = _prep(repo_root, root, tmp_path / "out")
    assert p.returncode != 0 and "audio of p1_001 not found" in p.stderr and not (tmp_path / "out").exists()


def test_read_stage_times(tmp_path):
    f = tmp_path / "stage_times.tsv"
    # stage 3 twice side by side (one ran 05:00:00-05:02:00, the other 05:01:00-05:02:30), then stage 5
    f.write_text("stage\twall_s\tcpu_s\tfinished\n3\t120\t150.5\t2026-11-24T05:02:00\n"
                 "3\t90\t90.0\t2026-11-24T05:02:30\n5\t10\t9.0\t2026-11-24T05:03:00\n")
    st = read_stage_times(f)
    assert [(r["stage"], r["wall_s"], r["cpu_s"], r["invocations"]) for r in st] == [("3", 150, 240.5, 2),
                                                                                      ("5", 10, 9.0, 1)]
    assert st[0]["start"] == "2026-11-24T05:00:00" and st[0]["finished"] == "2026-11-24T05:02:30"
    assert read_stage_times(tmp_path / "absent.tsv") == []
    for bad in ("3\t100\n", "3\t100\t1.0\tnot-a-time\n", "3\t100\t1.0\t2026-11-24T05:02:00\textra\n"):
        f.write_text("stage\twall_s\tcpu_s\tfinished\n" + bad)
        with pytest.raises(FormatError, match="stage_times.tsv:2"):
            read_stage_times(f)


def test_report_partial_run(tmp_path):
    """A run cut short: without --partial a missing decoding is one clear error naming it; with it, the missing
    cells read 'not run' and nothing else is invented."""
    from pydeid.report.speechocean_report import build_report, render
    d, exp = tmp_path / "data", tmp_path / "exp"
    for sub, name, text in (("test_trial", "trials", "s1 u1 target\ns2 u1 nontarget\n"),
                            ("test_enroll", "spk2gender", "s1 f\ns2 f\n"), ("test_trial", "utt2gender", "u1 f\n"),
                            ("test_trial", "utt2spk", "u1 s1\n"), ("test_wer", "utt2spk", "u1 s1\n")):
        (d / sub).mkdir(parents=True, exist_ok=True)
        (d / sub / name).write_text(text)
    exp.mkdir()
    with pytest.raises(FormatError, match="decode_general_test_wer/scoring/per_utt"):
        build_report(d, exp, ["mcadams:-"], ["general"], n_boot=10)
    rep = build_report(d, exp, ["mcadams:-"], ["general"], n_boot=10, partial=True)
    assert rep["wer"]["general:test_wer"] is None and rep["eer"]["original"] is None
    md = render(rep, ["mcadams:-"], ["general"])["so-real-voices-plda"][1]
    row = next(ln for ln in md.splitlines() if ln.startswith("| McAdams"))
    assert row.count("not run") == 6 and "[" not in row
