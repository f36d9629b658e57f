"""transform-text / tag-entities / text-metrics / santext on the embedded mini corpus: outputs, secrets, leaks."""

import json
import os
import stat

import pytest

from pydeid.cli import main
from pydeid.io import read_conll
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.text.dialogue import dialogue_ids


@pytest.fixture(scope="module")
def test_dir(mini_corpus):
    return mini_corpus / "mini_test"


def _identifying_gold_tokens(data):
    """Gold PER/ORG/LOC tokens that never occur outside an entity in the original text."""
    sents = read_conll(data / "tags.conll")
    outside = {t.lower() for s in sents for t, g in zip(s.tokens, s.tags) if g == "O"}
    return {t for s in sents for a, b, typ in s.spans() if typ in ("PER", "ORG", "LOC")
            for t in s.tokens[a:b] if t.lower() not in outside and len(t) > 2}


def test_typed_placeholders_leave_no_original_anywhere(test_dir, tmp_path, capsys):
    out = tmp_path / "deid"
    rc = main(["transform-text", "--strategy", "default=typed_placeholder", "--report", str(tmp_path / "r.json"),
               str(test_dir), str(test_dir / "tags.conll"), str(out)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "overall epsilon (seed 000 eq. 2): 0" in printed and "leak rate" in printed
    names = sorted(os.listdir(out))
    assert "words.ctm" not in names and "written.conll" not in names            # they carry original words
    for f in ("wav.scp", "utt2spk", "spk2utt", "utt2gender"):
        assert (out / f).read_bytes() == (test_dir / f).read_bytes()
    secrets = _identifying_gold_tokens(test_dir)
    assert secrets
    for f in names:
        words = set((out / f).read_text().split())
        assert not (words & secrets), f
    assert main(["validate-data-dir", str(out)]) in (0, None)
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["leak"]["leaked"] == 0 and rep["overall"]["epsilon"] == 0.0
    # tags stay aligned with the text, entity types kept
    sents = read_conll(out / "tags.conll")
    text = read_kaldi_map(out / "text", require_value=False)
    assert all(text[s.id].split() == s.tokens for s in sents)
    assert {t for s in sents for *_, t in s.spans()} <= {"PER", "ORG", "LOC", "DATE", "TIME", "NUM"}


def test_pseudonym_map_is_a_secret(test_dir, tmp_path, capsys):
    out, sec = tmp_path / "deid", tmp_path / "secrets"
    rc = main(["transform-text", "--strategy", "PER=pseudonymize,NUM=random_digits,default=same_type",
               "--secret-dir", str(sec), "--report", str(tmp_path / "r.json"),
               str(test_dir), str(test_dir / "tags.conll"), str(out)])
    assert rc == 0
    assert "NOT COVERED" in capsys.readouterr().out
    maps = list(sec.iterdir())
    assert len(maps) == 1 and stat.S_IMODE(maps[0].stat().st_mode) == 0o600
    secret = json.loads(maps[0].read_text())
    assert secret["seed"] == 0            # a rerun with another seed is refused (test_surrogate_leaks)
    m = secret["dialogues"]
    dlg, _ = dialogue_ids(sorted(read_kaldi_map(test_dir / "utt2spk")), read_kaldi_map(test_dir / "utt2spk"))
    assert set(m) <= set(dlg) and all("PER" in v for v in m.values())
    assert not any(json.dumps(m) in p.read_text() for p in out.iterdir())
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["leak"]["per_type"].get("PER", 0.0) == 0.0     # a pseudonym never equals its original
    # the map inside the output corpus is refused (one error line, before anything is written)
    capsys.readouterr()
    rc = main(["transform-text", "--strategy", "PER=pseudonymize", "--secret-dir", str(tmp_path / "deid2" / "s"),
               str(test_dir), str(test_dir / "tags.conll"), str(tmp_path / "deid2")])
    assert rc == 1 and "inside the corpus" in capsys.readouterr().err
    assert not (tmp_path / "deid2").exists()


def test_bad_tags_fail_cleanly(test_dir, tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    txt = (test_dir / "tags.conll").read_text().splitlines()
    i = next(k for k, line in enumerate(txt) if line and not line.startswith("#"))
    txt[i] = "NOTAWORD\tO"
    bad.write_text("\n".join(txt) + "\n")
    rc = main(["transform-text", str(test_dir), str(bad), str(tmp_path / "out")])
    assert rc == 1 and not (tmp_path / "out").exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.conll" in err[0] and "tokens differ" in err[0]


def test_output_never_overwrites_input(test_dir, tmp_path):
    import shutil
    d = tmp_path / "data"
    shutil.copytree(test_dir, d)
    before = (d / "text").read_text()
    assert main(["transform-text", str(d), str(d / "tags.conll"), str(d)]) == 1
    assert (d / "text").read_text() == before


def test_dialogue_ids(tmp_path):
    utts = ["spk003-tr001-04", "spk004-tr001-05", "spk003-tr002-00"]
    u2s = {u: u.split("-")[0] for u in utts}
    assert dialogue_ids(utts, u2s)[0] == ["tr001", "tr001", "tr002"]
    (tmp_path / "utt2dialogue").write_text("".join(f"{u} D{i % 2}\n" for i, u in enumerate(sorted(utts))))
    ids, how = dialogue_ids(utts, u2s, "auto", tmp_path)
    assert "utt2dialogue" in how and len(set(ids)) == 2
    assert dialogue_ids(["1272-128104-0000"], {"1272-128104-0000": "1272"})[0] == ["128104"]


def test_grammars_cover_mini_numbers(test_dir, tmp_path, capsys):
    out = tmp_path / "tags.conll"
    assert main(["tag-entities", "--detectors", "grammar,capitalisation", "--gold",
                 str(test_dir / "tags.conll"), str(test_dir), str(out)]) == 0
    printed = capsys.readouterr().out
    print(printed)
    rows = {line.split("|")[1].strip(): line.split("|")[2:] for line in printed.splitlines() if line.startswith("| ")}
    assert float(rows["NUM"][4]) == 1.0             # every spoken phone/extension number found (exact recall)
    assert float(rows["ANY-TYPE"][7]) >= 0.9        # partial recall of any sensitive span
    s = read_conll(out)
    assert any(e.startswith("grammar:") for x in s for e in sum(x.extra, []))


def test_text_metrics_cli(test_dir, tmp_path, capsys):
    pred = tmp_path / "pred.conll"
    main(["tag-entities", "--detectors", "grammar", str(test_dir), str(pred)])
    out = tmp_path / "deid"
    main(["transform-text", "--strategy", "default=redact", str(test_dir), str(pred), str(out)])
    capsys.readouterr()
    rc = main(["text-metrics", "--pred", str(pred), "--data", str(test_dir), "--transformed", str(out),
               "--json", str(tmp_path / "m.json"), str(test_dir)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "all-or-nothing recall" in printed and "leak rate" in printed
    m = json.loads((tmp_path / "m.json").read_text())
    assert 0 < m["leak"]["leak_rate"] < 1             # grammars alone miss names: they leak, and we see it


def test_santext_cli(test_dir, tmp_path, capsys):
    out = tmp_path / "san"
    args = ["santext", "--plus", "--epsilon", "2", "--cache-dir", str(tmp_path / "cache"), "--stats-runs", "5",
            str(test_dir), str(out)]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert "UMLDP" in first and "N_x median" in first and "tables built" in first
    a = read_kaldi_map(out / "text", require_value=False)
    b = read_kaldi_map(test_dir / "text", require_value=False)
    assert a.keys() == b.keys() and all(len(a[u].split()) == len(b[u].split()) for u in a)
    assert main(args) == 0
    assert "tables from cache" in capsys.readouterr().out


def test_cli_avoids_originals_by_default_and_the_independent_policy_is_opt_in(test_dir, tmp_path, capsys):
    """full_entity on mini_test: the CLI's default gives no original identifying word back (0 leaked); the
    independent policy of seed 000 (--no-avoid-original) gives some back by chance and is covered by eq. (2)."""
    reps = {}
    for name, extra in (("default", []), ("independent", ["--no-avoid-original"])):
        rc = main(["transform-text", "--strategy", "default=full_entity", "--seed", "1", *extra,
                   "--report", str(tmp_path / f"{name}.json"), str(test_dir), str(test_dir / "tags.conll"),
                   str(tmp_path / name)])
        assert rc == 0
        reps[name] = json.loads((tmp_path / f"{name}.json").read_text())
    capsys.readouterr()
    assert reps["default"]["leak"]["in_place"]["leaked"] == 0 and reps["default"]["overall"]["epsilon"] is None
    assert reps["independent"]["leak"]["in_place"]["leaked"] > 0
    # the word leak sees what in-place counting misses: full_entity moves real values between utterances
    assert reps["default"]["leak"]["leaked"] > 0
    assert reps["independent"]["overall"]["epsilon"] is not None                 # eq. (2) accounts it
