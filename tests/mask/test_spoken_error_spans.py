"""bench/spoken_error_spans.py: ASR errors split into entity and context words (issue 20 diagnosis)."""

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "spoken_error_spans.py"


@pytest.fixture(scope="module")
def spans():
    spec = importlib.util.spec_from_file_location("spoken_error_spans", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_errors_fall_on_the_side_of_their_reference_word(spans):
    ent = [False, True, True, False]
    # b -> x: substitution of an entity word; y inserted after the last (context) word
    assert spans.side_errors("a b c d".split(), "a x c d y".split(), ent) == (1, 2, 1, 2)
    # c deleted (entity), a -> q (context); z inserted between a and b (next to an entity word: entity side)
    assert spans.side_errors("a b c d".split(), "q b d".split(), ent) == (1, 2, 1, 2)
    assert spans.side_errors("a b c d".split(), "a z b c d".split(), ent) == (1, 2, 0, 2)
    assert spans.side_errors("a b c d".split(), [], ent) == (2, 2, 2, 2)          # empty hypothesis
    with pytest.raises(ValueError, match="3 reference words, 4 tagged"):
        spans.side_errors("a b c".split(), "a".split(), ent)


def test_cli_table_and_paired_bootstrap(spans, tmp_path, capsys):
    tags = tmp_path / "tags.conll"
    tags.write_text("# id = u1\nmeet\tO\nAnna\tB-PER\nnow\tO\n\n# id = u2\nat\tO\nten\tB-TIME\n\n")
    for name, hyps in (("a", ["meet anna now", "at ten"]), ("b", ["meet hannah now please", "a ten"])):
        d = tmp_path / name / "scoring"
        d.mkdir(parents=True)
        d.joinpath("per_utt").write_text(
            f"u1 words=3 sub=0 del=0 ins=0\n  ref: meet anna now\n  hyp: {hyps[0]}\n"
            f"u2 words=2 sub=0 del=0 ins=0\n  ref: at ten\n  hyp: {hyps[1]}\n")
    assert spans.main(["--tags", str(tags), "--baseline", "a", f"a={tmp_path / 'a'}", f"b={tmp_path / 'b'}"]) == 0
    out = capsys.readouterr().out
    assert "2 utterances, 2 entity words, 3 context words" in out
    assert "| a | 0.0 [0.0, 0.0] | 0 / 2: 0.0" in out
    # b: anna -> hannah (entity), "please" inserted at the end (context), at -> a (context): 3 errors / 5 words
    assert "| b | 60.0 " in out and "1 / 2: 50.0" in out and "2 / 3: 66.7" in out
    assert "| b | +60.0 " in out
    with pytest.raises(SystemExit, match="not among the models"):
        spans.main(["--tags", str(tags), "--baseline", "zz", f"a={tmp_path / 'a'}"])
