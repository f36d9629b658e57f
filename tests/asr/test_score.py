"""Scoring: WER/CER counts, per-gender and subset columns, RESULTS.md section, clear errors."""

import json

import pytest

from pydeid.asr.score import score_decode_dir
from pydeid.asr.tables import wer_table
from pydeid.asr.textnorm import TextNorm
from pydeid.io import FormatError, write_data_dir, write_kaldi_map


@pytest.fixture
def scored(tmp_path):
    data = tmp_path / "data"
    write_data_dir(data, wav_scp={"a1": "/x/a1.wav", "a2": "/x/a2.wav", "b1": "/x/b1.wav"},
                   text={"a1": "Call Stella now.", "a2": "Bring the frog", "b1": "Six spoons"},
                   utt2spk={"a1": "a", "a2": "a", "b1": "b"}, spk2gender={"a": "f", "b": "m"})
    dec = tmp_path / "exp" / "decode_test"
    dec.mkdir(parents=True)
    TextNorm().save(dec / "textnorm.json")
    # a1: 1 substitution + 1 insertion; a2: 1 deletion; b1: missing hypothesis (2 deletions)
    write_kaldi_map(dec / "text", {"a1": "call stella no no", "a2": "bring frog"})
    return data, dec


def test_wer_counts_and_subsets(scored, tmp_path):
    data, dec = scored
    subsets = tmp_path / "spk2subset"
    subsets.write_text("a EN DA\nb1 DE\n")
    res = score_decode_dir(data, dec, subsets_file=subsets)
    assert res["all"]["words"] == 8 and res["all"]["sents"] == 3
    assert (res["all"]["sub"], res["all"]["del"], res["all"]["ins"]) == (1, 3, 1)
    assert res["all"]["wer"] == pytest.approx(100 * 5 / 8)
    assert res["all"]["missing_hyps"] == 1
    assert res["f"]["words"] == 6 and res["m"]["wer"] == pytest.approx(100.0)
    assert res["EN"]["sents"] == 2 and res["DE"]["sents"] == 1
    assert res["EN"]["wer"] == pytest.approx(100 * 3 / 6)
    assert res["all"]["cer"] > 0
    md = (dec.parent / "RESULTS.md").read_text()
    assert "<!-- begin asr-score-exp-decode_test -->" in md and "62.50" in md
    assert json.loads((dec / "scoring" / "results.json").read_text())["DE"]["wer"] == pytest.approx(100.0)
    assert "hyp: bring frog\n" in (dec / "scoring" / "per_utt").read_text()


def test_unknown_subset_key_names_file_and_line(scored, tmp_path):
    data, dec = scored
    bad = tmp_path / "utt2subset"
    bad.write_text("a1 EN\nzz DE\n")
    with pytest.raises(FormatError, match="utt2subset:2"):
        score_decode_dir(data, dec, subsets_file=bad)


def test_wer_table_layout(scored):
    data, dec = scored
    score_decode_dir(data, dec)
    table = wer_table([f"original:small={dec}", f"transformed:small={dec}", f"original:conformer={dec}"])
    lines = table.splitlines()
    assert [c.strip() for c in lines[0].split("|")[1:4]] == ["training data", "small", "conformer"]
    assert lines[2].startswith("| original ") and "62.50" in lines[2]
    assert [c.strip() for c in lines[3].split("|")[1:4]] == ["transformed", "62.50 [50.0, 100.0] (8 w)", "-"]
    with pytest.raises(ValueError):
        wer_table(["original-small=" + str(dec)])


def test_wer_interval_resamples_speakers(scored):
    """Speaker a: 3 errors / 6 words, b: 2 / 2. Speaker resamples {a,a}, {a,b}, {b,b} give 50, 62.5 and 100 %,
    with probabilities 1/4, 1/2, 1/4: the 95 % interval is [50, 100]; one speaker falls back to utterances."""
    data, dec = scored
    res = score_decode_dir(data, dec)
    assert res["all"]["wer_ci95"] == [50.0, 100.0] or res["all"]["wer_ci95"] == (50.0, 100.0)
    assert "speaker bootstrap" in res["all"]["ci_method"]
    # speaker a alone: its two utterances (2 errors / 3 words, 1 / 3) are resampled instead
    assert res["f"]["wer_ci95"] == pytest.approx((100 / 3, 200 / 3))
    md = (dec.parent / "RESULTS.md").read_text()
    assert "WER 95 % CI" in md and "[50.0, 100.0]" in md
