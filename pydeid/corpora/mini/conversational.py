"""Conversational turns: the mini corpus's written turns as people say them, with contractions, reduced forms and
disfluencies ("I'm", "we've", "don't", "gonna", "um", "you know"), for measuring detection precision on speech
transcripts (bench/text_domains.py, set `conv`).

Only words tagged O are changed or inserted, so the gold tags stay right by construction: an entity's tokens and
tags are copied untouched. A contraction is one token ("we're"), as a whitespace-tokenised transcript writes it.
`asr_style` writes a turn as an ASR system would: lower case, no punctuation, and (half the time, seeded) without
the apostrophe ("dont", "im"). Seeded: the same seed gives the same turns.
"""

from __future__ import annotations

import random
from typing import Iterator

from . import dialogue as D
from .lexicon import build_pools

# (word, next word) -> contraction; matched case-insensitively, the first letter's case kept
CONTRACTIONS = {("i", "am"): "I'm", ("i", "will"): "I'll", ("i", "would"): "I'd", ("i", "have"): "I've",
                ("it", "is"): "it's", ("that", "is"): "that's", ("there", "is"): "there's", ("let", "us"): "let's",
                ("we", "are"): "we're", ("we", "have"): "we've", ("we", "will"): "we'll", ("you", "are"): "you're",
                ("you", "have"): "you've", ("they", "are"): "they're", ("they", "have"): "they've",
                ("is", "not"): "isn't", ("do", "not"): "don't", ("does", "not"): "doesn't", ("did", "not"): "didn't",
                ("can", "not"): "can't", ("have", "not"): "haven't", ("will", "not"): "won't",
                ("going", "to"): "gonna", ("want", "to"): "wanna", ("what", "is"): "what's"}
# said at the start of a turn (all O)
OPENERS = [["Yeah", ",", "I'm", "not", "sure", ","], ["Well", ",", "we're", "gonna", "see", "."], ["Um", ","],
           ["Uh", ","], ["Okay", ",", "that's", "great", "."], ["I", "don't", "know", ","], ["Right", ",", "you're",
           "right", "."], ["Sorry", ",", "I", "can't", "hear", "you", "."], ["So", "um", ","],
           ["Yeah", "yeah", ",", "they've", "told", "me", "."], ["Hmm", ",", "I", "haven't", "checked", "."],
           ["You", "know", ","], ["I", "mean", ","], ["Oh", ",", "y'all", "are", "fast", "."],
           ["Well", ",", "I", "wanna", "say", "yes", "."], ["Look", ",", "we've", "got", "time", "."]]
FILLERS = [["um"], ["uh"], ["you", "know"], ["I", "mean"], ["like"], ["kind", "of"]]


def _case(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def conversational(tokens: list[str], tags: list[str], rng: random.Random, p_contract: float = 0.9,
                   p_opener: float = 0.4, p_filler: float = 0.3) -> tuple[list[str], list[str]]:
    """The turn with contractions (O words only), maybe an opener and a filler inserted between two O words."""
    toks, tgs = [], []
    i = 0
    while i < len(tokens):
        pair = (tokens[i].lower(), tokens[i + 1].lower()) if i + 1 < len(tokens) else None
        if pair in CONTRACTIONS and tags[i] == tags[i + 1] == "O" and rng.random() < p_contract:
            c = CONTRACTIONS[pair]
            toks.append(c if c.startswith("I'") else _case(c, tokens[i]))
            tgs.append("O")
            i += 2
            continue
        toks.append(tokens[i])
        tgs.append(tags[i])
        i += 1
    if rng.random() < p_filler:
        slots = [k for k in range(1, len(toks)) if tgs[k - 1] == "O" and tgs[k] == "O" and toks[k - 1] not in ".?!"]
        if slots:
            k = rng.choice(slots)
            f = rng.choice(FILLERS)
            toks[k:k] = f
            tgs[k:k] = ["O"] * len(f)
    if rng.random() < p_opener:
        o = rng.choice(OPENERS)
        if toks and toks[0][:1].isupper() and toks[0] not in ("I", "I'm", "I'll", "I'd", "I've") and tgs[0] == "O":
            toks[0] = toks[0][:1].lower() + toks[0][1:]
        toks, tgs = o + toks, ["O"] * len(o) + tgs
    return toks, tgs


def asr_style(tokens: list[str], tags: list[str], rng: random.Random, p_drop_apostrophe: float = 0.5):
    """Lower case, punctuation tokens dropped with their tags, apostrophes of contractions dropped half the time."""
    keep = [i for i, t in enumerate(tokens) if any(c.isalnum() for c in t)]
    toks, tgs = [], []
    for i in keep:
        t = tokens[i].lower()
        if "'" in t and tags[i] == "O" and rng.random() < p_drop_apostrophe:
            t = t.replace("'", "")
        toks.append(t)
        tgs.append(tags[i])
    tgs = [("B-" + t[2:]) if t.startswith("I-") and (k == 0 or tgs[k - 1] == "O") else t for k, t in enumerate(tgs)]
    return toks, tgs


def turns(n_dialogues: int = 200, seed: int = 0) -> Iterator[tuple[str, list[str], list[str]]]:
    """(sentence id, tokens, tags) of the conversational turns of n_dialogues dialogues (seeded apart from the mini
    corpus's own dialogues and from bench/text_domains.py's mini set)."""
    pools = build_pools(seed)
    for d in range(n_dialogues):
        rng = random.Random(f"conversational-{seed}-{d}")
        ctx = D.new_context(rng, pools, rng.choice("mf"), rng.choice("mf"))
        for t, (role, tpl) in enumerate(D.dialogue_templates(rng, 12)):
            toks, tags = D.generate_turn(tpl, role, ctx).written()
            toks, tags = conversational(list(toks), list(tags), rng)
            yield f"conv-d{d:04d}-t{t:02d}", toks, tags
