"""Tag what the recogniser was unsure of, so that the masking hides it like a detected entity.

On speech from recordings without transcripts, most sensitive words the chain misses were never written by the
recogniser: an unusual name comes out as common words ("Estela" -> "your scalar"), which no detector can
flag. Whisper is unsure of exactly those words. This step adds to the detectors' tags (BIO, one sentence per
utterance, over the hypothesis) every untagged word whose CTM confidence (Whisper's word probability,
steps/transcribe.sh) is below `below`, and optionally `next` words either side of each such run and of each
detected entity (a name misheard as two words may have one sure half). The added words are tagged PER: a word
the recogniser could not make out is treated as a possible name, the type masking and verification already
hide. A comment line `# unsure = i j ...` in each sentence lists the token indices added here, so that a
report can tell them from the detectors' entities. steps/mask_words.sh then silences them and removes them from
the text, exactly as it does tagged words.
"""

from __future__ import annotations

from pathlib import Path

from pydeid.io import CtmEntry, FormatError, Sentence, UsageError
from pydeid.io.conll import write_conll
from pydeid.io.ctm import ctm_by_utt, read_ctm
from pydeid.mask.match import MatchError, match_tokens
from pydeid.mask.pipeline import load_tags

UNSURE_TYPE = "PER"
COMMENT = "unsure ="


def unsure_sentence(sent: Sentence, words: list[CtmEntry], below: float, next_words: int = 0) -> Sentence:
    """A copy of `sent` with its low-confidence untagged tokens (and `next_words` neighbours of each low-
    confidence run and of each entity) tagged UNSURE_TYPE. Tokens are paired with the CTM words by sequence
    alignment; a token with no timed word, or whose words carry no confidence, is never added."""
    n = len(sent.tokens)
    tagged = [t != "O" for t in sent.tags]
    pairs = match_tokens(sent.tokens, [w.token for w in words], sent.id or "", strict=False) if words else [[]] * n
    conf = [min((words[j].conf for j in js if words[j].conf is not None), default=None) for js in pairs]
    low = [c is not None and c < below and not tagged[i] for i, c in enumerate(conf)]
    add = list(low)
    if next_words > 0:
        seeds = [i for i in range(n) if low[i] or tagged[i]]
        for i in seeds:
            for k in range(max(0, i - next_words), min(n, i + next_words + 1)):
                if not tagged[k] and pairs[k]:   # a word that was spoken (timed), not punctuation
                    add[k] = True
    tags = list(sent.tags)
    for i in range(n):
        if add[i]:
            tags[i] = f"I-{UNSURE_TYPE}" if i > 0 and add[i - 1] else f"B-{UNSURE_TYPE}"
    # a detected entity right after an added run opens its own span again
    for i in range(1, n):
        if add[i - 1] and not add[i] and tags[i].startswith("I-"):
            tags[i] = "B-" + tags[i][2:]
    comments = [c for c in sent.comments if not c.startswith(COMMENT)]
    added = [i for i in range(n) if add[i]]
    if added:
        comments.append(f"{COMMENT} {' '.join(map(str, added))}")
    return Sentence(tokens=list(sent.tokens), tags=tags, id=sent.id, extra=sent.extra, comments=comments)


def tag_unsure(tags_path: str | Path, ctm_path: str | Path, out: str | Path, below: float,
               next_words: int = 0) -> dict:
    """Write `out`: the sentences of `tags_path` with unsure_sentence() applied; returns counts."""
    if not 0.0 <= below <= 1.0:
        raise UsageError("--below", f"a probability in [0, 1], not {below}")
    if next_words < 0:
        raise UsageError("--next", f"must be >= 0, not {next_words}")
    sents = load_tags(tags_path)
    entries = read_ctm(ctm_path)
    if below > 0 and entries and all(e.conf is None for e in entries):
        raise FormatError(ctm_path, None, "no confidences (6th field): transcribe again with steps/transcribe.sh "
                                          "--words-from whisper, or use --below 0")
    words = ctm_by_utt(entries)
    out_sents, added, utts = [], 0, 0
    for utt, s in sents.items():
        try:
            new = unsure_sentence(s, words.get(utt, []), below, next_words)
        except MatchError as e:
            raise FormatError(ctm_path, None, f"{e} (tags: {tags_path})") from None
        k = sum(a != b for a, b in zip(s.tags, new.tags))
        added += k
        utts += k > 0
        out_sents.append(new)
    write_conll(out, out_sents)
    return {"sentences": len(out_sents), "tokens": sum(len(s.tokens) for s in out_sents), "added": added,
            "utterances_changed": utts}
