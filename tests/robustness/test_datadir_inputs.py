"""Kaldi conformance of what is read: what utils/validate_data_dir.sh (Kaldi's) rejects, pydeid rejects, naming the
file and line; and the data-dir tools (subset, copy, combine, split) refuse without writing."""

from __future__ import annotations

import pytest

from robust_helpers import refused


def validate(cli, d):
    return cli("validate-data-dir", d)


def test_valid_data_dir(cli, base):
    rc, out, err = validate(cli, base / "data")
    assert rc == 0 and "OK" in out, err


def test_crlf_line_endings(cli, base):
    t = base / "data" / "text"
    t.write_bytes(t.read_bytes().replace(b"\n", b"\r\n"))
    refused(validate(cli, base / "data"), 1, "data/text:1", "CRLF")


def test_missing_final_newline(cli, base):
    t = base / "data" / "utt2spk"
    t.write_bytes(t.read_bytes().rstrip(b"\n"))
    refused(validate(cli, base / "data"), 1, "data/utt2spk:3", "newline")


def test_utt2spk_not_sorted_by_speaker(cli, base):
    """Kaldi needs the utterance order to be the speaker order too (speaker-id prefixes)."""
    d = base / "data"
    (d / "utt2spk").write_text("spkA-d1-01 spkB\nspkA-d1-02 spkA\nspkB-d1-01 spkB\n")
    (d / "spk2utt").write_text("spkA spkA-d1-02\nspkB spkA-d1-01 spkB-d1-01\n")
    (d / "spk2gender").write_text("spkA f\nspkB m\n")
    refused(validate(cli, d), 1, "data/utt2spk:", "speaker")


def test_partial_spk2gender(cli, base):
    (base / "data" / "spk2gender").write_text("spkA f\n")
    refused(validate(cli, base / "data"), 1, "data/spk2gender", "spkB")


def test_partial_utt2dur(cli, base):
    u = base / "data" / "utt2dur"
    u.write_text("".join(u.read_text().splitlines(True)[:2]))
    refused(validate(cli, base / "data"), 1, "data/utt2dur", "spkB-d1-01")


def test_utt2dur_not_a_number(cli, base):
    u = base / "data" / "utt2dur"
    u.write_text(u.read_text().replace("1.200", "nan", 1))
    refused(validate(cli, base / "data"), 1, "data/utt2dur:1")


def test_duplicate_utterance_id(cli, base):
    t = base / "data" / "text"
    t.write_text(t.read_text() + "spkB-d1-01 again\n")
    refused(validate(cli, base / "data"), 1, "data/text:4", "duplicate")


def test_unsorted_text(cli, base):
    t = base / "data" / "text"
    lines = t.read_text().splitlines(True)
    t.write_text("".join([lines[1], lines[0], lines[2]]))
    refused(validate(cli, base / "data"), 1, "data/text:2", "sorted")


def test_empty_line(cli, base):
    t = base / "data" / "wav.scp"
    t.write_text(t.read_text().replace("\n", "\n\n", 1))
    refused(validate(cli, base / "data"), 1, "data/wav.scp:2")


def test_non_utf8_utt2spk(cli, base):
    t = base / "data" / "utt2spk"
    t.write_bytes(t.read_bytes().replace(b"spkB\n", b"spk\xe9\n"))
    refused(validate(cli, base / "data"), 1, "data/utt2spk:3", "UTF-8")


def test_missing_required_file(cli, base):
    (base / "data" / "spk2utt").unlink()
    refused(validate(cli, base / "data"), 1, "data/spk2utt")


def test_gender_not_m_or_f(cli, base):
    (base / "data" / "spk2gender").write_text("spkA female\nspkB m\n")
    refused(validate(cli, base / "data"), 1, "data/spk2gender:1")


def test_segments_with_end_before_start(cli, base):
    d = base / "data"
    (d / "segments").write_text("spkA-d1-01 spkA-d1-01 0.5 0.2\nspkA-d1-02 spkA-d1-02 0 -1\n"
                                "spkB-d1-01 spkB-d1-01 0 -1\n")
    refused(validate(cli, d), 1, "data/segments:1")


def test_check_audio_missing_file(cli, base):
    (base / "data" / "wav" / "spkA-d1-02.wav").unlink()
    refused(cli("validate-data-dir", "--check-audio", base / "data"), 1, "data/wav.scp:2")


def test_check_audio_duration_disagrees_with_utt2dur(cli, base):
    u = base / "data" / "utt2dur"
    u.write_text(u.read_text().replace("spkA-d1-02 1.200", "spkA-d1-02 3.500"))
    refused(cli("validate-data-dir", "--check-audio", base / "data"), 1, "utt2dur:2", "spkA-d1-02")


def test_subset_of_unknown_utterances(cli, base):
    lst = base / "list"
    lst.write_text("spkC-d9-01\n")
    rc = cli("data-dir", "subset", "--", "--utt-list", lst, base / "data", base / "sub")
    refused(rc, 1, "data", "empty", outputs=[base / "sub"])  # Kaldi keeps the listed ids that exist


def test_copy_data_dir_from_an_invalid_dir(cli, base):
    (base / "data" / "text").write_text("spkA-d1-01 x\n")
    refused(cli("data-dir", "copy", base / "data", base / "copy"), 1, "data/", outputs=[base / "copy"])


def test_split_into_more_parts_than_speakers(cli, base):
    refused(cli("data-dir", "split", base / "data", "3"), 1, "data", outputs=[base / "data" / "split3"])


def test_fix_data_dir_normalises_crlf_and_says_so(cli, base, caplog):
    """The one tool that rewrites tables in place normalises what validation refuses, saying so."""
    t = base / "data" / "text"
    t.write_bytes(t.read_bytes().replace(b"\n", b"\r\n").rstrip(b"\n"))
    rc, out, err = cli("data-dir", "fix", "--no-backup", base / "data")
    assert rc == 0, err
    assert "CRLF" in caplog.text
    assert b"\r" not in t.read_bytes() and t.read_bytes().endswith(b"\n")
    rc, out, err = validate(cli, base / "data")
    assert rc == 0, err


def test_no_spk_sort_accepts_what_kaldi_accepts_with_it(base, repo_root):
    import subprocess
    d = base / "data"
    (d / "utt2spk").write_text("spkA-d1-01 spkB\nspkA-d1-02 spkA\nspkB-d1-01 spkB\n")
    (d / "spk2utt").write_text("spkA spkA-d1-02\nspkB spkA-d1-01 spkB-d1-01\n")
    script = repo_root / "utils" / "validate_data_dir.sh"
    p = subprocess.run([str(script), str(d)], capture_output=True, text=True)
    assert p.returncode == 1 and "breaks the speaker order" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run([str(script), "--no-spk-sort", str(d)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
