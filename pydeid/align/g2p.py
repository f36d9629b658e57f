"""Offline grapheme-to-phoneme for words missing from the pronunciation dictionary.

Uses the neural model that ships inside the g2p_en wheel (installed with ESPnet): a GRU encoder-decoder whose
weights are in g2p_en/checkpoint20.npz. Importing g2p_en itself would call nltk.download (no network here), so
only the weight file is located and the same greedy decoding is run in numpy. Output is ARPAbet without stress
digits, i.e. the CMU dictionary phone set of the pocketsphinx en-us model.
"""

from __future__ import annotations

import importlib.util
import os
import re
from functools import lru_cache

import numpy as np

GRAPHEMES = ["<pad>", "<unk>", "</s>"] + list("abcdefghijklmnopqrstuvwxyz")
PHONEMES = ["<pad>", "<unk>", "<s>", "</s>"] + [
    'AA0', 'AA1', 'AA2', 'AE0', 'AE1', 'AE2', 'AH0', 'AH1', 'AH2', 'AO0', 'AO1', 'AO2', 'AW0', 'AW1', 'AW2',
    'AY0', 'AY1', 'AY2', 'B', 'CH', 'D', 'DH', 'EH0', 'EH1', 'EH2', 'ER0', 'ER1', 'ER2', 'EY0', 'EY1', 'EY2',
    'F', 'G', 'HH', 'IH0', 'IH1', 'IH2', 'IY0', 'IY1', 'IY2', 'JH', 'K', 'L', 'M', 'N', 'NG', 'OW0', 'OW1',
    'OW2', 'OY0', 'OY1', 'OY2', 'P', 'R', 'S', 'SH', 'T', 'TH', 'UH0', 'UH1', 'UH2', 'UW', 'UW0', 'UW1', 'UW2',
    'V', 'W', 'Y', 'Z', 'ZH']
_G2I = {g: i for i, g in enumerate(GRAPHEMES)}


class G2PUnavailable(RuntimeError):
    pass


def _weights_path() -> str:
    spec = importlib.util.find_spec("g2p_en")  # locates the package without executing its __init__
    if spec is None or not spec.submodule_search_locations:
        raise G2PUnavailable("g2p_en is not installed (pip install g2p_en, it comes with espnet)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "checkpoint20.npz")
    if not os.path.exists(path):
        raise G2PUnavailable(f"{path} is missing from the g2p_en wheel")
    return path


class NeuralG2P:
    """g2p_en's GRU seq2seq, greedy decoding, numpy only."""

    def __init__(self, weights: str | None = None):
        v = np.load(weights or _weights_path())
        self.w = {k: v[k] for k in v.files}

    @staticmethod
    def _cell(x, h, w_ih, w_hh, b_ih, b_hh):
        gi = x @ w_ih.T + b_ih
        gh = h @ w_hh.T + b_hh
        n3 = gi.shape[-1] // 3
        r = 1 / (1 + np.exp(-(gi[:, :n3] + gh[:, :n3])))
        z = 1 / (1 + np.exp(-(gi[:, n3:2 * n3] + gh[:, n3:2 * n3])))
        n = np.tanh(gi[:, 2 * n3:] + r * gh[:, 2 * n3:])
        return (1 - z) * n + z * h

    @lru_cache(maxsize=4096)
    def predict(self, word: str) -> tuple[str, ...]:
        """ARPAbet phones (stress removed) for a lower-case word; letters outside a-z are dropped."""
        w = self.w
        letters = re.sub("[^a-z]", "", word.lower())
        if not letters:
            return ()
        ids = [_G2I[c] for c in letters] + [_G2I["</s>"]]
        h = np.zeros((1, w["enc_w_hh"].shape[1]), np.float32)
        for i in ids:
            h = self._cell(w["enc_emb"][[i]], h, w["enc_w_ih"], w["enc_w_hh"], w["enc_b_ih"], w["enc_b_hh"])
        dec = w["dec_emb"][[2]]  # <s>
        out: list[str] = []
        for _ in range(max(20, 2 * len(letters))):
            h = self._cell(dec, h, w["dec_w_ih"], w["dec_w_hh"], w["dec_b_ih"], w["dec_b_hh"])
            pred = int((h @ w["fc_w"].T + w["fc_b"]).argmax())
            if pred == 3:  # </s>
                break
            if pred >= 4:
                out.append(re.sub(r"\d", "", PHONEMES[pred]))
            dec = w["dec_emb"][[pred]]
        return tuple(out)
