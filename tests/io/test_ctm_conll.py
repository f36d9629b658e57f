"""CTM and CoNLL round trips and their error messages."""

from __future__ import annotations

import pytest

from pydeid.io import CtmEntry, FormatError, Sentence, bio_to_spans, ctm_by_utt, read_conll, read_ctm, write_conll, write_ctm


def test_ctm_roundtrip_sorted(tmp_path):
    entries = [CtmEntry("b", "1", 0.5, 0.25, "world", 0.9), CtmEntry("a", "1", 0.3, 0.2, "there"),
               CtmEntry("a", "1", 0.0, 0.3, "hello")]
    p = tmp_path / "x.ctm"
    write_ctm(p, entries)
    assert p.read_text().splitlines() == ["a 1 0.000 0.300 hello", "a 1 0.300 0.200 there", "b 1 0.500 0.250 world 0.900"]
    back = read_ctm(p)
    assert [e.token for e in back] == ["hello", "there", "world"]
    assert back[2].conf == pytest.approx(0.9) and back[0].end == pytest.approx(0.3)
    assert list(ctm_by_utt(back)) == ["a", "b"]


@pytest.mark.parametrize("line,msg", [("a 1 0.0 hello", "expected 5 or 6 fields"),
                                      ("a 1 x 0.3 hello", "non-numeric"),
                                      ("a 1 0.0 -0.3 hello", "negative time")])
def test_ctm_errors_name_line(tmp_path, line, msg):
    p = tmp_path / "bad.ctm"
    p.write_text("a 1 0.0 0.3 ok\n" + line + "\n")
    with pytest.raises(FormatError, match=msg) as ei:
        read_ctm(p)
    assert ei.value.line == 2 and str(ei.value).startswith(f"{p}:2:")


def test_conll_roundtrip_with_comments_and_hash_token(tmp_path):
    s1 = Sentence(["good", "morning", "Misses", "Smith", "#"], ["O", "O", "B-PER", "I-PER", "O"], id="spk1-d1-001",
                  comments=["speaker = A"])
    s2 = Sentence(["CEBIT", "fair", "in", "Hanover"], ["B-ORG", "O", "O", "B-LOC"], id="spk2-d1-002",
                  extra=[["x"], ["y"], ["z"], ["w"]])
    p = tmp_path / "t.conll"
    write_conll(p, [s1, s2])
    text = p.read_text()
    assert "# id = spk1-d1-001\n# speaker = A\ngood\tO\n" in text and "\n#\tO\n" in text
    back = read_conll(p)
    assert [s.id for s in back] == ["spk1-d1-001", "spk2-d1-002"]
    assert back[0].tokens[-1] == "#" and back[0].comments == ["speaker = A"]
    assert back[1].extra[3] == ["w"]
    assert back[0].spans() == [(2, 4, "PER")]


def test_conll_bad_tag_names_line(tmp_path):
    p = tmp_path / "bad.conll"
    p.write_text("# id = u1\nhello O\nSmith PERSON\n")
    with pytest.raises(FormatError, match="is not O, B-X or I-X") as ei:
        read_conll(p)
    assert ei.value.line == 3


def test_bio_to_spans_edge_cases():
    assert bio_to_spans(["B-PER", "I-PER", "B-PER", "O", "I-LOC", "I-LOC", "I-DATE"]) == [
        (0, 2, "PER"), (2, 3, "PER"), (4, 6, "LOC"), (6, 7, "DATE")]
    assert bio_to_spans([]) == []


def test_reads_snips_style_sent_id(tmp_path):
    p = tmp_path / "s.conll"
    p.write_text("# sent_id = s-1\n# text = Add d flame.\nAdd\tO\tO\nd\tB-PER\tB-artist\n#\tO\tO\n\n")
    (s,) = read_conll(p)
    assert s.id == "s-1" and s.tokens == ["Add", "d", "#"] and s.extra[1] == ["B-artist"]
    assert s.comments == ["text = Add d flame."]
