"""CTC forced alignment with an ESPnet ASR model trained by the recipes (any language the recipe trained on).

Two layers:
- `ctc_word_segments(log_probs, word_token_ids, ...)`: the pure core on a (frames x vocabulary) log-prob matrix,
  torchaudio.functional.forced_align + merge_tokens, word spans from the token spans. Testable on constructed
  matrices.
- `align_words(speech2text, wav, words)`: runs the model's encoder and CTC head on one utterance and returns
  [(word, start_s, end_s)]; the ASR stage uses it to time its hypotheses. `CtcAligner` plugs it into
  `pydeid align --backend ctc` (word CTM; the token CTM goes to phn_ali).

A word's span runs from the first frame of its first token to the last frame of its last token. CTC posteriors
are peaky, so boundaries are typically accurate to one or two encoder frames (40 ms with conv2d subsampling).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .normalize import is_nonverbal, prepare
from .result import PhoneTime, UttAlignment, WordTime

log = logging.getLogger(__name__)


class CtcAlignmentError(RuntimeError):
    pass


@dataclass
class WordSpan:
    start_frame: int
    end_frame: int   # exclusive
    score: float     # mean posterior of the word's tokens


def ctc_word_segments(log_probs, word_token_ids: list[list[int]], blank: int = 0,
                      separator: int | None = None) -> tuple[list[WordSpan | None], list]:
    """Force-align words given as token-id lists to a (T, V) CTC log-prob matrix.

    separator: a token inserted between words in the target (e.g. ESPnet's '<space>' for char models); it is
    aligned but belongs to no word. Words with no tokens get None. Returns (word spans, token spans).
    Raises CtcAlignmentError when the utterance has too few frames for the target.
    """
    import torch
    import torchaudio.functional as F

    lp = torch.as_tensor(log_probs, dtype=torch.float32)
    if lp.dim() == 3:
        lp = lp[0]
    targets: list[int] = []
    owner: list[int] = []  # word index per target token, -1 for separators
    for wi, ids in enumerate(word_token_ids):
        if not ids:
            continue
        if targets and separator is not None:
            targets.append(separator)
            owner.append(-1)
        targets.extend(int(i) for i in ids)
        owner.extend([wi] * len(ids))
    spans_out: list[WordSpan | None] = [None] * len(word_token_ids)
    if not targets:
        return spans_out, []
    if any(t == blank for t in targets):
        raise CtcAlignmentError("a target token equals the blank id")
    repeats = sum(1 for a, b in zip(targets, targets[1:]) if a == b)
    if lp.shape[0] < len(targets) + repeats:
        raise CtcAlignmentError(f"{lp.shape[0]} frames cannot hold {len(targets)} tokens (+{repeats} repeats)")
    tgt = torch.tensor([targets], dtype=torch.int32)
    ali, scores = F.forced_align(lp.unsqueeze(0), tgt, blank=blank)
    token_spans = F.merge_tokens(ali[0], scores[0].exp(), blank=blank)
    if len(token_spans) != len(targets):
        raise CtcAlignmentError(f"forced alignment returned {len(token_spans)} spans for {len(targets)} tokens")
    per_word: dict[int, list] = {}
    for sp, w in zip(token_spans, owner):
        if w >= 0:
            per_word.setdefault(w, []).append(sp)
    for w, sps in per_word.items():
        spans_out[w] = WordSpan(sps[0].start, sps[-1].end, float(np.mean([s.score for s in sps])))
    return spans_out, token_spans


# ---- ESPnet glue -------------------------------------------------------------------------------------------

def load_speech2text(model: str | os.PathLike, model_file: str | os.PathLike, device: str = "cpu"):
    """An ESPnet Speech2Text from an exp dir (config.yaml + *.pth) or a config.yaml path and its checkpoint.

    The caller chooses the checkpoint (pydeid.asr.checkpoints.default_model_file when the user names none): the
    alignment layer sits below the ASR layer and imports nothing from it.
    """
    from espnet2.bin.asr_inference import Speech2Text
    model = Path(model)
    config = model / "config.yaml" if model.is_dir() else model
    if not config.exists():
        raise FileNotFoundError(f"ESPnet config not found: {config}")
    if not model_file:
        raise ValueError(f"{config}: no ESPnet model file given (the .pth to align with)")
    return Speech2Text(asr_train_config=str(config), asr_model_file=str(model_file), device=device,
                       ctc_weight=1.0, beam_size=1, lm_weight=0.0)


def _parts(s2t):
    """(ESPnetASRModel, tokenizer, converter) from a Speech2Text (or a tuple of the three)."""
    if isinstance(s2t, tuple):
        return s2t
    return s2t.asr_model, s2t.tokenizer, s2t.converter


def _frame_shift(model, n_samples: int, n_enc: int, sr: int) -> float:
    """Seconds per encoder frame: frontend hop x subsampling ratio (estimated from the frame counts)."""
    import torch
    hop = getattr(getattr(model, "frontend", None), "hop_length", None)
    if hop:
        n_feat = n_samples // hop + 1
        ratio = max(1, int(round(n_feat / max(n_enc, 1))))
        return hop * ratio / sr
    return n_samples / sr / max(n_enc, 1)


def ctc_log_probs(s2t, wav: np.ndarray, sr: int = 16000):
    """(T, V) CTC log-probs of one utterance and the seconds per frame."""
    import torch
    model, _, _ = _parts(s2t)
    speech = torch.as_tensor(np.asarray(wav, dtype=np.float32)).unsqueeze(0)
    lengths = torch.tensor([speech.shape[1]])
    with torch.no_grad():
        enc, elen = model.encode(speech, lengths)
        if isinstance(enc, tuple):  # some encoders return intermediate outputs too
            enc = enc[0]
        lp = model.ctc.log_softmax(enc)[0, : int(elen[0])]
    return lp, _frame_shift(model, speech.shape[1], lp.shape[0], sr)


def word_token_ids(s2t, words: list[str]) -> tuple[list[list[int]], int | None, int]:
    """Token ids per word with the model's own tokenizer; characters outside the vocabulary map to <unk>
    (counted in the third return value). Returns (ids per word, separator id or None, n_unknown)."""
    _, tok, conv = _parts(s2t)
    token_list = list(conv.token_list)
    unk = token_list.index("<unk>") if "<unk>" in token_list else None
    sep = token_list.index("<space>") if "<space>" in token_list else None
    n_unk = 0
    out = []
    for w in words:
        # the model was trained on the recipe's normalised text (often lower case): of the word as written,
        # lower-cased and upper-cased, take the spelling with the fewest unknown tokens
        best = None
        for variant in dict.fromkeys((w, w.lower(), w.upper())):
            toks = [t for t in tok.text2tokens(variant) if t != "<space>"]
            ids = [int(i) for i in conv.tokens2ids(toks)]
            k = sum(1 for i in ids if unk is not None and i == unk)
            if best is None or k < best[0]:
                best = (k, ids)
        n_unk += best[0]
        out.append(best[1])
    # sentencepiece/word models mark word starts themselves: only char-like vocabularies use a separator
    return out, sep, n_unk


def align_words(s2t, wav: np.ndarray, words: list[str], sr: int = 16000) -> list[tuple[str, float, float]]:
    """[(word, start_s, end_s)] for each word of a transcript or hypothesis, in order.

    s2t: an espnet2 Speech2Text (or (asr_model, tokenizer, converter)). Words the tokenizer turns into no token
    (punctuation) get a zero-length span at the end of the previous word. Raises CtcAlignmentError when the
    audio is too short for the token sequence.
    """
    lp, shift = ctc_log_probs(s2t, wav, sr)
    ids, sep, _ = word_token_ids(s2t, words)
    _, _, conv = _parts(s2t)
    blank = list(conv.token_list).index("<blank>") if "<blank>" in conv.token_list else 0
    spans, _ = ctc_word_segments(lp, ids, blank=blank, separator=sep)
    out: list[tuple[str, float, float]] = []
    last = 0.0
    for w, sp in zip(words, spans):
        if sp is None:
            out.append((w, last, last))
            continue
        s, e = round(sp.start_frame * shift, 3), round(sp.end_frame * shift, 3)
        out.append((w, s, e))
        last = e
    return out


class CtcAligner:
    """`pydeid align --backend ctc`: transcript tokens -> word CTM (+ model-token CTM in phn_ali)."""

    def __init__(self, model: str, model_file: str, device: str = "cpu"):
        self.s2t = load_speech2text(model, model_file, device)

    def align(self, utt: str, wav: np.ndarray, transcript: str | list[str], sr: int = 16000) -> UttAlignment:
        tokens = transcript.split() if isinstance(transcript, str) else list(transcript)
        prep = prepare(tokens)
        res = UttAlignment(utt)
        st = res.stats
        st["utterances"] += 1
        st["tokens"] += len(tokens)
        st["punctuation_tokens"] += len(prep.punctuation)
        st["silence_markers"] += len(prep.silence_markers)
        # Words keep their case and inner characters for the model's tokenizer (it was trained on the
        # corpus text); only edge punctuation goes. Non-verbal tokens are excluded from the CTC target unless
        # the model's vocabulary has them as tokens (ESPnet non_linguistic_symbols), and counted.
        _, _, conv = _parts(self.s2t)
        vocab = set(conv.token_list)
        idx: list[int] = []
        words: list[str] = []
        for i, t in enumerate(tokens):
            if i in prep.punctuation or i in prep.silence_markers:
                continue
            if is_nonverbal(t):
                st["nonverbal_tokens"] += 1
                if t in vocab:
                    idx.append(i)
                    words.append(t)
                else:
                    st["nonverbal_unplaced"] += 1
                continue
            idx.append(i)
            words.append(prep.ctm_token(i))
        try:
            lp, shift = ctc_log_probs(self.s2t, wav, sr)
            ids, sep, n_unk = word_token_ids(self.s2t, words)
            blank = list(conv.token_list).index("<blank>") if "<blank>" in conv.token_list else 0
            spans, token_spans = ctc_word_segments(lp, ids, blank=blank, separator=sep)
        except CtcAlignmentError as e:
            res.error = str(e)
            st["failed"] += 1
            return res
        st["unknown_units"] += n_unk
        for i, w, sp in zip(idx, words, spans):
            if sp is None:
                continue
            if is_nonverbal(w):
                st["nonverbal_aligned"] += 1
            res.words.append(WordTime(i, prep.ctm_token(i), round(sp.start_frame * shift, 3),
                                      round(sp.end_frame * shift, 3)))
        tl = conv.token_list
        res.phones = [PhoneTime(tl[sp.token], sp.start * shift, sp.end * shift) for sp in token_spans]
        st["words_in_ctm"] += len(res.words)
        st["aligned"] += 1
        return res
