"""Text-only dialogues from the same grammar as the corpus: more NER training text without synthesis.

The spoken corpus is small on purpose (the demo must run in minutes); an NER tagger may want thousands of
sentences. These come from the same templates and entity pools (seeded apart from the corpus' own
dialogues), as `tags.conll` (spoken form, tokens like the Kaldi text) and `written.conll` (cased, punctuated).
"""

from __future__ import annotations

import random
from pathlib import Path

from . import dialogue as D
from .lexicon import build_pools


def build_text(out_dir, seed: int = 0, n_dialogues: int = 500) -> Path:
    from pydeid.io import Sentence, atomic_write_text, write_conll
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pools = build_pools(seed)
    spoken, written, text = [], [], []
    for d in range(n_dialogues):
        rng = random.Random(f"text-only-{seed}-{d}")
        ctx = D.new_context(rng, pools, rng.choice("mf"), rng.choice("mf"))
        for i, (role, tpl) in enumerate(D.dialogue_templates(rng, 30)):
            turn = D.generate_turn(tpl, role, ctx)
            sid = f"txt{d:05d}-{i:02d}"
            toks, tags = turn.spoken()
            w_toks, w_tags = turn.written()
            spoken.append(Sentence(toks, tags, id=sid))
            written.append(Sentence(w_toks, w_tags, id=sid))
            text.append(f"{sid} {' '.join(toks)}")
    write_conll(out_dir / "tags.conll", spoken)
    write_conll(out_dir / "written.conll", written)
    atomic_write_text(out_dir / "text", "\n".join(text) + "\n")
    return out_dir
