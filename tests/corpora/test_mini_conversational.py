"""The conversational turns (bench set `conv`): contractions and disfluencies on words tagged O only, so every
entity of the source turn is there with its tags; seeded."""

import random

from pydeid.corpora.mini import dialogue as D
from pydeid.corpora.mini.conversational import asr_style, conversational, turns
from pydeid.corpora.mini.lexicon import build_pools
from pydeid.text.contractions import is_contraction


def _entities(toks, tags):
    return [(t, g) for t, g in zip(toks, tags) if g != "O"]


def test_entities_and_tags_survive_and_contractions_appear():
    pools = build_pools(0)
    n_contr = 0
    for d in range(6):
        rng = random.Random(f"t-{d}")
        ctx = D.new_context(rng, pools, "m", "f")
        for role, tpl in D.dialogue_templates(rng, 12):
            toks, tags = D.generate_turn(tpl, role, ctx).written()
            ct, cg = conversational(list(toks), list(tags), random.Random(f"c-{d}"))
            assert len(ct) == len(cg)
            assert _entities(ct, cg) == _entities(toks, tags)
            assert all(g == "O" for t, g in zip(ct, cg) if is_contraction(t))
            n_contr += sum(is_contraction(t) for t in ct)
            lt, lg = asr_style(ct, cg, random.Random(0))
            assert [t.lower() for t, _ in _entities(ct, cg) if any(c.isalnum() for c in t)] == \
                [t for t, _ in _entities(lt, lg)]
            assert all(t == t.lower() for t in lt)
    assert n_contr >= 20


def test_turns_are_seeded():
    a = [x for _, x in zip(range(30), turns(3, seed=0))]
    b = [x for _, x in zip(range(30), turns(3, seed=0))]
    assert a == b
