"""What a neutral corpus hides by default (--tags all everywhere), the spoken fill that never says an original,
and the smaller refusals of the same change (mask-spoken writes nothing on a bad 4th utterance, transform-voice
keeps its voice plan, a broken VTLN config is one line)."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pydeid.io import DataDir, UsageError, read_conll, write_conll
from pydeid.mask.originals import Entity, leaks
from pydeid.mask.verify_spoken import SpokenLeakReport, _check_words
from pydeid.text.hidden_types import describe, detector_types, hidden_types, parse_tags


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], capture_output=True, text=True)


def one_line_error(p) -> str:
    assert p.returncode != 0
    assert "Traceback" not in p.stderr, p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------------------------
# one definition of what a neutral corpus hides

def test_all_is_every_type_the_detectors_can_emit():
    assert set(hidden_types()) == detector_types()
    for t in ("HEALTH", "CREDENTIAL", "EMAIL", "PHONE", "PER", "NUM"):
        assert t in hidden_types()
    assert parse_tags("all") == hidden_types() == parse_tags(None)
    assert parse_tags("per,Loc") == ("PER", "LOC")
    with pytest.raises(UsageError, match="PERSON"):
        parse_tags("PERSON,LOC")
    with pytest.raises(UsageError, match="stands alone"):
        parse_tags("all,PER")
    assert "NOT hidden" in describe(parse_tags("PER")) and "HEALTH" in describe(parse_tags("PER"))
    assert describe(hidden_types()).startswith("hidden types: all")


@pytest.mark.parametrize("mod", ["mask_words", "verify_masking", "mask_spoken", "verify_spoken"])
def test_every_masking_cli_defaults_to_all(mod):
    import importlib
    p = argparse.ArgumentParser()
    importlib.import_module(f"pydeid.cli.{mod}").add_arguments(p)
    assert p.get_default("tagset") == "all"
    with pytest.raises(SystemExit):   # an unknown type is an argparse error, never ignored
        p.parse_args(["--tags", "PERSON"])


def test_every_step_and_recipe_hides_every_type_by_default(repo_root):
    for step in ("mask_words", "verify_masking", "mask_spoken", "verify_spoken"):
        text = (repo_root / "steps" / f"{step}.sh").read_text()
        assert re.search(r"^tags=all$", text, re.M), step
    recipes = list(repo_root.glob("egs/*/s5/run.sh")) + list(repo_root.glob("local/mini/*.sh"))
    seen = 0
    for r in recipes:
        for m in re.finditer(r"^mask_tags=(\S+)", r.read_text(), re.M):
            assert set(parse_tags(m.group(1))) == set(hidden_types()), f"{r}: mask_tags={m.group(1)}"
            seen += 1
    assert seen >= 5


# ---------------------------------------------------------------------------------------------------------------
# the spoken fill never says an original

EMAIL = "john dot smith at gmail dot com".split()


@pytest.mark.parametrize("surrogate,originals", [
    (EMAIL, [EMAIL]),                                                   # transformed tags = original tags
    ("John Smith".split(), [["John", "Smith"]]),                        # PER=keep
    ("john dot smith at gmail dot com".split(), [["John", "Smith"], EMAIL]),
    ("K seven W A L S K I".split(), ["K two W A L S K I".split()]),     # NUM=random_digits on a spelling
    ("call three four five two one one eight".split(), ["four five two one one".split()]),   # digits kept inside
    (["john.smith@gmail.com"], [EMAIL]),                                # written form of the same address
    ("the fifth of May".split(), ["the fifth of May".split()]),         # the same value
])
def test_surrogates_that_say_an_original_are_caught(surrogate, originals):
    assert leaks(surrogate, [Entity(o) for o in originals])


@pytest.mark.parametrize("surrogate,original", [
    ("mary dot jones at yahoo dot com", "john dot smith at gmail dot com"),
    ("three nine one two seven seven zero", "four five two one one eight seven"),
    ("the sixth of June", "the fifth of May"),
    ("thirty years old", "forty five years old"),
    ("Q R T E B M", "K O W A L S K I"),
    ("asthma", "diabetes"),
    ("Ysoldine Tavrin", "Zbigniewa Quaxley"),
])
def test_generated_surrogates_of_the_same_shape_pass(surrogate, original):
    assert leaks(surrogate.split(), [Entity(original.split())]) == []


def test_verify_spoken_flags_an_insert_that_says_an_original():
    orig = read_conll_sentence(["call", "John", "Smith", "now"], ["O", "B-PER", "I-PER", "O"])
    originals = [Entity(["John", "Smith"])]
    rep = SpokenLeakReport()
    ok = {"tokens": ["call", "Mary", "Jones"], "ent": [-1, 1, 1], "out": [0, 10]}
    bad = {"tokens": ["call", "John", "Smith"], "ent": [-1, 1, 1], "out": [10, 20]}
    legacy = {"tokens": ["call", "Smith"], "out": [20, 30]}      # a plan of an older version: no entity numbers
    _check_words(rep, "u1", [ok, bad, legacy], orig, originals)
    assert [x["out"] for x in rep.said_originals] == [[10, 20], [20, 30]]
    assert rep.n_leaks == 2 and rep.summary()["said_originals"] == 2


def read_conll_sentence(tokens, tags):
    from pydeid.io import Sentence
    return Sentence(tokens, tags, "u1")


@pytest.fixture(scope="module")
def four(mini_corpus, tmp_path_factory):
    """Four mini_test utterances with entities (gold tags, gold CTM)."""
    root = tmp_path_factory.mktemp("four")
    src = DataDir.read(mini_corpus / "mini_test")
    tags = {s.id: s for s in read_conll(mini_corpus / "mini_test" / "tags.conll")}
    utts = [u for u in src.utts if len(tags[u].spans()) >= 1][:4]
    src.subset(utts).write(root / "data")
    write_conll(root / "tags.conll", [tags[u] for u in utts])
    ctm = [ln for ln in (mini_corpus / "mini_test" / "words.ctm").read_text().splitlines() if ln.split()[0] in utts]
    (root / "words.ctm").write_text("\n".join(ctm) + "\n")
    return {"root": root, "utts": utts, "tags": tags}


def _spoken(base, trans, ctm, out):
    return run_cli("mask-spoken", "--secret-dir", base / f"sec_{out}", base / "data", base / "tags.conll", trans,
                   ctm, base / out)


def test_mask_spoken_refuses_transformed_tags_equal_to_the_originals(four, tmp_path):
    base = four["root"]
    p = _spoken(base, base / "tags.conll", base / "words.ctm", "same")
    line = one_line_error(p)
    assert "would say" in line and "refused" in line, line
    assert not (base / "same").exists() and not (base / "sec_same").exists()


def test_mask_spoken_leaves_nothing_behind_when_the_fourth_ctm_mismatches(four, tmp_path):
    """Before: the first three utterances were filled (wavs + plans) before the 4th one's CTM failed."""
    base = four["root"]
    last = four["utts"][-1]
    rows = (base / "words.ctm").read_text().splitlines()
    k = max(i for i, r in enumerate(rows) if r.split()[0] == last)
    f = rows[k].split()
    rows[k] = " ".join(f[:4] + ["zzzmismatch"])
    bad = tmp_path / "bad.ctm"
    bad.write_text("\n".join(rows) + "\n")
    # any transformation that replaces every entity (here: every token of an entity by 'x')
    trans = []
    for u in four["utts"]:
        s = four["tags"][u]
        trans.append(type(s)([t if g == "O" else "x" for t, g in zip(s.tokens, s.tags)], list(s.tags), u))
    write_conll(tmp_path / "trans.conll", trans)
    p = _spoken(base, tmp_path / "trans.conll", bad, "mismatch")
    line = one_line_error(p)
    assert last in line and "bad.ctm" in line, line
    assert not (base / "mismatch").exists(), "filled wavs left behind"
    assert not list(base.glob("sec_mismatch/**/*.json")), "plans left behind"


def test_mask_spoken_step_refusal_suggests_an_option_the_step_accepts(repo_root):
    text = (repo_root / "steps" / "mask_spoken.sh").read_text()
    assert re.search(r"^overwrite=false$", text, re.M) and '--overwrite "$overwrite"' in text
    src = (repo_root / "pydeid" / "mask" / "spoken.py").read_text()
    assert "--overwrite true (steps/mask_spoken.sh: the same option)" in src


# ---------------------------------------------------------------------------------------------------------------
# smaller refusals

def test_vtln_config_has_phones_broken_yaml_is_one_line(repo_root, tmp_path):
    bad = tmp_path / "vtln_broken.yaml"
    bad.write_text("classes:\n  classes: [phones\n  k: 8\n")
    p = subprocess.run([str(repo_root / "utils" / "vtln_config_has_phones.sh"), str(bad)], capture_output=True,
                       text=True)
    assert p.returncode == 2, (p.returncode, p.stderr)
    line = one_line_error(p)
    assert str(bad) in line and "YAML" in line, line
    good = subprocess.run([str(repo_root / "utils" / "vtln_config_has_phones.sh"),
                           str(repo_root / "conf" / "voice" / "vtln_ph.yaml")], capture_output=True, text=True)
    assert good.returncode == 0, good.stderr


def test_transform_voice_rerun_with_another_seed_keeps_the_plan(mini_corpus, tmp_path):
    data = tmp_path / "data"
    DataDir.read(mini_corpus / "mini_test").subset(DataDir.read(mini_corpus / "mini_test").utts[:2]).write(data)
    common = ["transform-voice", "--method", "mcadams", "--exp-dir", tmp_path / "exp", "--part", "plan"]
    assert run_cli(*common, "--seed", "0", data, tmp_path / "out").returncode == 0
    plan = tmp_path / "exp" / "secrets" / "voice_plan.json"
    before = plan.read_bytes()
    assert run_cli(*common, "--seed", "0", data, tmp_path / "out").returncode == 0   # a redo is fine
    line = one_line_error(run_cli(*common, "--seed", "1", data, tmp_path / "out"))
    assert "--seed 0" in line and "--seed 1" in line and "voice_plan.json" in line, line
    assert plan.read_bytes() == before
    assert json.loads(before)["seed"] == 0
