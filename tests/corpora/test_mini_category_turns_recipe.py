"""egs/mini/s5 with sensitive-category turns (seed 004 A.1, issue 22): `run.sh --category-turns N` passes through
local/mini/prepare_data.sh to make-mini-corpus, and the recipe's own step scripts, with the recipe's mask_tags and
text strategy, carry the category spans through tagging, text transformation, masking and verify-masking at tiny
size: no original category token in the transformed or the neutral text, zero audio and text leaks."""

from __future__ import annotations

import os
import subprocess

import pytest

from pydeid.io.conll import read_conll
from pydeid.text.categories import CATEGORY_TYPES, DETECTED_TYPES

# words of category spans that identify nobody ("years old", "Street", "dot", "euros"): a surrogate keeps them
_STRUCTURE = {"years", "year", "old", "street", "road", "lane", "dot", "euros", "dollars", "pounds", "and", "hundred"}


def _recipe_var(rec, name):
    """A variable's value as run.sh sets it (its assignment lines only, evaluated by bash)."""
    p = subprocess.run(["bash", "-c", f'eval "$(grep -E "^{name}\\+?=" run.sh)"; printf %s "${name}"'], cwd=rec,
                       capture_output=True, text=True, check=True)
    return p.stdout


def _sh(rec, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(list(args), cwd=rec, capture_output=True, text=True, timeout=900, env=env)
    assert p.returncode == 0, " ".join(args) + "\n" + p.stdout[-3000:] + p.stderr[-3000:]
    return p


def _texts(d):
    return {ln.split(" ", 1)[0]: ln.split()[1:] for ln in (d / "text").read_text().splitlines()}


@pytest.mark.slow
def test_mini_recipe_category_turns_end_to_end(repo_root, tmp_path, recipe_copy):
    pytest.importorskip("espeakng_loader")
    rec = recipe_copy("mini", tmp_path / "s5")

    mask_tags = _recipe_var(rec, "mask_tags")
    from pydeid.text.hidden_types import parse_tags
    assert set(CATEGORY_TYPES) <= set(parse_tags(mask_tags)), mask_tags
    assert _recipe_var(rec, "category_turns") == "0"          # off by default: the default corpus is unchanged

    # stage 0 through run.sh: the option reaches make-mini-corpus
    _sh(rec, "./run.sh", "--stage", "0", "--stop-stage", "0", "--size", "tiny", "--nj", "1", "--category-turns", "3")
    test = rec / "data" / "mini_test"
    gold = read_conll(test / "tags.conll")
    cat = {(s.id, a, b, t) for s in gold for a, b, t in s.spans() if t in DETECTED_TYPES}
    assert len(cat) >= 10 and len({t for *_, t in cat}) >= 5, cat

    # tagging (the recipe adds the categories detector to its tagger; flair needs stage 2's training, so here the
    # model-free detectors): the category spans of the turns are found
    _sh(rec, "steps/tag_entities.sh", "--detectors", "grammar,categories", "data/mini_test", "-", "exp/tags/cat")
    found = {(s.id, a, b, t) for s in read_conll(rec / "exp/tags/cat/tags.conll") for a, b, t in s.spans()}
    assert len(cat & found) >= 0.9 * len(cat), sorted(cat - found)

    # text transformation with the recipe's strategy (gold tags, as stage 3 does for train/dev), and with the
    # detected tags (as stage 3 does for the test set): no original category token survives
    strategy = _sh(rec, "local/mini/category_strategy.sh", _recipe_var(rec, "text_strategy"),
                   _recipe_var(rec, "category_strategy")).stdout.strip()
    assert "HEALTH=surrogate" in strategy and strategy.startswith(_recipe_var(rec, "text_strategy") + ",")
    topts = ["--strategy", strategy, "--avoid-original",
             _recipe_var(rec, "text_avoid_original"), "--secret-dir", "exp/secrets/text"]
    _sh(rec, "steps/transform_text.sh", *topts, "data/mini_test", "data/mini_test/tags.conll", "data/mini_test_text")
    _sh(rec, "steps/transform_text.sh", *topts, "data/mini_test", "exp/tags/cat/tags.conll", "data/mini_test_text2")
    # masking with the recipe's mask_tags (original voices here; stage 5 masks the converted ones), leak check
    _sh(rec, "steps/mask_words.sh", "--tags", mask_tags, "--nj", "1", "data/mini_test", "data/mini_test/tags.conll",
        "data/mini_test/words.ctm", "exp/mask/mini_test", "data/mini_test_neutral")
    _sh(rec, "steps/verify_masking.sh", "--tags", mask_tags, "--orig-data", "data/mini_test", "--results",
        "RESULTS.md", "--name", "mini_test categories (gold CTM)", "data/mini_test_neutral",
        "data/mini_test/tags.conll", "data/mini_test/words.ctm", "exp/mask/mini_test/verify")

    from pydeid.text.categories.surrogates import LEXICON_POOLS
    neutral = _texts(rec / "data" / "mini_test_neutral")
    transformed = {name: _texts(rec / "data" / name) for name in ("mini_test_text", "mini_test_text2")}
    n = 0
    for s in gold:
        for a, b, t in s.spans():
            if t not in DETECTED_TYPES:
                continue
            words = [w.lower() for w in s.tokens[a:b]]
            # the neutral corpus: every word of the span is gone (structure words too: masking removes the span)
            low = [x.lower() for x in neutral[s.id]]
            assert all(w not in low for w in words if w not in _STRUCTURE), (s.id, words, neutral[s.id])
            for name, text in transformed.items():
                if name == "mini_test_text2" and (s.id, a, b, t) not in found:
                    continue                # a span the detectors missed is not replaced (measured above)
                out = " " + " ".join(x.lower() for x in text[s.id]) + " "
                assert f" {' '.join(words)} " not in out, (name, s.id, words, out)
                if t in LEXICON_POOLS:      # a health condition, belief ...: none of its words survives
                    assert all(f" {w} " not in out for w in words if w not in ("a", "an")), (name, words, out)
            n += 1
    assert n >= 10
    res = (rec / "RESULTS.md").read_text()
    assert "mini_test categories (gold CTM)" in res


@pytest.mark.parametrize("script", [["./run.sh", "--stop-stage", "0"], ["local/mini/prepare_data.sh"]])
def test_category_turns_option_refuses_a_bad_value(repo_root, tmp_path, script, recipe_copy):
    rec = recipe_copy("mini", tmp_path / "s5")
    args = script + ["--category-turns", "two"] + (["data"] if "prepare" in script[0] else [])
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "--category-turns must be a whole number >= 0, got 'two'" in p.stderr, p.stderr
    assert not (rec / "data").exists()          # nothing built


def test_category_strategy_names_every_category_type_once(repo_root):
    script = repo_root / "local" / "mini" / "category_strategy.sh"
    out = subprocess.run([str(script), "PER=pseudonymize,default=same_type,AGE=redact", "surrogate"],
                         capture_output=True, text=True, check=True).stdout.strip()
    spec = dict(x.split("=", 1) for x in out.split(","))
    assert spec["PER"] == "pseudonymize" and spec["default"] == "same_type" and spec["AGE"] == "redact"
    assert {t: spec[t] for t in CATEGORY_TYPES if t not in ("AGE", "EMAIL", "PHONE")} == \
        {t: "surrogate" for t in CATEGORY_TYPES if t not in ("AGE", "EMAIL", "PHONE")}
    assert out.count("AGE=") == 1
    from pydeid.text.strategies import parse_strategy_spec
    assert parse_strategy_spec(out)["HEALTH"] == "surrogate"          # a spec transform-text accepts
    p = subprocess.run([str(script), "default=same_type"], capture_output=True, text=True)
    assert p.returncode == 1 and "Usage" in p.stderr
