"""CTM and masking: mask-words, verify-masking, align-accuracy. A tag type or --tags name that does not exist must
never leave a word unmasked nor be reported as 0 leaks."""

from __future__ import annotations

import pytest

from robust_helpers import refused, snapshot


def mask(cli, base, *opts, ctm=None, tags=None, out="out"):
    return cli("mask-words", *opts, base / "data", tags or base / "tags.conll", ctm or base / "words.ctm", base / out)


def verify(cli, base, *opts, ctm=None, tags=None, masked="masked"):
    return cli("verify-masking", *opts, base / masked, tags or base / "tags.conll", ctm or base / "words.ctm")


@pytest.fixture
def masked(cli, base):
    rc, _, err = mask(cli, base, out="masked")
    assert rc == 0, err
    return base / "masked"


def test_valid_masking_and_verification(cli, base, masked):
    rc, out, err = verify(cli, base)
    assert rc == 0, err
    assert "leaks: audio 0, text 0" in out


def test_mask_tags_with_unknown_type_name(cli, base):
    """Silent acceptance before: --tags PERSON,LOC masked only LOC."""
    refused(mask(cli, base, "--tags", "PERSON,LOC"), 2, "--tags", "PERSON", outputs=[base / "out"])


def test_verify_tags_with_unknown_type_name(cli, base, masked):
    refused(verify(cli, base, "--tags", "PERSON"), 2, "--tags", "PERSON")


def test_mask_conll_with_unknown_type(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("John\tB-PER\nSmith\tI-PER", "John\tB-PRE\nSmith\tI-PRE"))
    refused(mask(cli, base), 1, "tags.conll:", "PRE", outputs=[base / "out"])


def test_verify_conll_with_unknown_type_is_not_zero_leaks(cli, base, masked):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("John\tB-PER\nSmith\tI-PER", "John\tB-PRE\nSmith\tI-PRE"))
    refused(verify(cli, base), 1, "tags.conll:", "PRE")


def test_mask_conll_duplicate_id(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text() + "\n# id = spkA-d1-01\ncall\tO\nJohn\tO\nSmith\tO\ntoday\tO\n")
    refused(mask(cli, base), 1, "tags.conll:", "spkA-d1-01", outputs=[base / "out"])


@pytest.mark.parametrize("bad", ["nan", "inf", "-0.5"])
def test_mask_ctm_with_bad_time(cli, base, bad):
    c = base / "words.ctm"
    lines = c.read_text().splitlines()
    f = lines[1].split()
    f[2] = bad
    lines[1] = " ".join(f)
    c.write_text("\n".join(lines) + "\n")
    refused(mask(cli, base), 1, "words.ctm:2", outputs=[base / "out"])


def test_verify_ctm_with_nan_duration(cli, base, masked):
    c = base / "words.ctm"
    lines = c.read_text().splitlines()
    f = lines[2].split()
    f[3] = "NaN"
    lines[2] = " ".join(f)
    c.write_text("\n".join(lines) + "\n")
    refused(verify(cli, base), 1, "words.ctm:3")


def test_ctm_with_four_fields(cli, base):
    c = base / "words.ctm"
    c.write_text(c.read_text().replace(" 1 0.100", " 0.100", 1))
    refused(mask(cli, base), 1, "words.ctm:1", outputs=[base / "out"])


def test_ctm_non_utf8(cli, base):
    c = base / "words.ctm"
    c.write_bytes(c.read_bytes().replace(b"Paris", b"Par\xefs"))
    refused(mask(cli, base), 1, "words.ctm:", "UTF-8", outputs=[base / "out"])


def test_ctm_missing_a_tagged_word(cli, base):
    c = base / "words.ctm"
    c.write_text("".join(l for l in c.read_text().splitlines(True) if " Paris" not in l))
    refused(mask(cli, base), 1, "words.ctm", "spkA-d1-02", outputs=[base / "out"])


def test_ctm_word_beyond_the_audio(cli, base):
    """A tagged word timed after the end of the audio would be masked nowhere: refuse it."""
    c = base / "words.ctm"
    c.write_text(c.read_text().replace("spkA-d1-02 1 0.850", "spkA-d1-02 1 5.850"))
    refused(mask(cli, base), 1, "words.ctm", "spkA-d1-02", outputs=[base / "out"])


def test_mask_negative_pad(cli, base):
    refused(mask(cli, base, "--pad", "-0.2"), 2, "--pad", outputs=[base / "out"])


def test_mask_audio_with_nan_samples_leaves_no_output(cli, base):
    import numpy as np
    import soundfile as sf
    x = np.full(19200, 0.1, np.float32)
    x[100] = np.nan
    sf.write(base / "data" / "wav" / "spkB-d1-01.wav", x, 16000, subtype="FLOAT")
    refused(mask(cli, base), 1, "spkB-d1-01", outputs=[base / "out"])


def test_mask_rerun_into_existing_output_with_bad_ctm_keeps_it(cli, base, masked):
    before = snapshot(masked)
    c = base / "words.ctm"
    c.write_text(c.read_text().replace(" 1 0.100", " 1 nan", 1))
    refused(mask(cli, base, out="masked"), 1, "words.ctm:1", before=before, outputs=[masked])


def test_verify_masked_dir_with_partial_utt2dur(cli, base, masked):
    u = masked / "utt2dur"
    u.write_text(u.read_text().splitlines(True)[0])
    refused(verify(cli, base), 1, "masked/utt2dur")


def test_align_accuracy_hypothesis_with_nan_time(cli, base):
    hyp = base / "hyp.ctm"
    hyp.write_text((base / "words.ctm").read_text().replace(" 1 0.100", " 1 nan", 1))
    refused(cli("align-accuracy", "--results", base / "RESULTS.md", base / "words.ctm", hyp), 1, "hyp.ctm:1",
            outputs=[base / "RESULTS.md"])
