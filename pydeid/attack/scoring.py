"""Back-ends that turn embeddings into verification scores: cosine and PLDA.

Both subtract the mean of the attacker's training embeddings. Cosine: length-normalise each utterance
embedding, average per enrolled speaker, cosine similarity. PLDA: mean subtraction -> LDA (to at most
#training speakers - 1 dimensions) -> length normalisation -> speechbrain's PLDA (PLDA_LDA.PLDA, trained on the
attacker's training embeddings) -> log-likelihood-ratio scores with speechbrain's fast_PLDA_scoring; a speaker
model is the mean of its transformed enrollment embeddings.

The LDA is computed here as the generalised symmetric eigenproblem Sb v = l (Sw + eps I) v:
speechbrain's get_lda_matrix_stat1 runs a symmetric eigen-solver on the non-symmetric Sb Sw^-1 and inverts
a within-class scatter that is singular whenever there are fewer utterances than dimensions.
"""

from __future__ import annotations

import numpy as np

BACKENDS = ("cosine", "plda")


def _length_norm(x: np.ndarray) -> np.ndarray:
    return x / np.clip(np.linalg.norm(x, axis=1, keepdims=True), 1e-10, None)


def _speaker_models(x: np.ndarray, utt_spk: list[str], speakers: list[str]) -> np.ndarray:
    spk_of = np.array(utt_spk)
    return np.stack([x[spk_of == s].mean(axis=0) for s in speakers])


def lda_matrix(x: np.ndarray, labels: list[str], dim: int, ridge: float = 1e-6) -> np.ndarray:
    from scipy.linalg import eigh
    labels_arr = np.array(labels)
    mu = x.mean(axis=0)
    d = x.shape[1]
    sw = np.zeros((d, d))
    sb = np.zeros((d, d))
    for s in np.unique(labels_arr):
        xs = x[labels_arr == s]
        m = xs.mean(axis=0)
        c = xs - m
        sw += c.T @ c / len(xs)
        sb += np.outer(m - mu, m - mu)
    sw += ridge * np.trace(sw) / d * np.eye(d)
    vals, vecs = eigh(sb, sw)
    return vecs[:, np.argsort(vals)[::-1][:dim]]


class Backend:
    """Fitted on the attacker's training embeddings (matrix [N, D] and one speaker label per row)."""

    def __init__(self, train_x: np.ndarray, train_spk: list[str], lda_dim: int = 150, plda_rank: int = 100,
                 plda_iter: int = 10):
        self.mean = train_x.mean(axis=0)
        self.lda_dim, self.plda_rank, self.plda_iter = lda_dim, plda_rank, plda_iter
        self._train = (train_x, list(train_spk))
        self._plda = None

    # ---- cosine ----------------------------------------------------------------------------------------
    def cosine(self, enroll_x: np.ndarray, enroll_spk: list[str], speakers: list[str],
               test_x: np.ndarray) -> np.ndarray:
        e = _length_norm(enroll_x - self.mean)
        models = _length_norm(_speaker_models(e, enroll_spk, speakers))
        t = _length_norm(test_x - self.mean)
        return models @ t.T

    # ---- PLDA ------------------------------------------------------------------------------------------
    def _fit_plda(self):
        from speechbrain.processing.PLDA_LDA import PLDA
        x, spk = self._train
        n_spk = len(set(spk))
        dim = max(1, min(self.lda_dim, n_spk - 1, x.shape[1]))
        self.lda = lda_matrix(x - self.mean, spk, dim)
        y = _length_norm((x - self.mean) @ self.lda)
        plda = PLDA(rank_f=max(1, min(self.plda_rank, dim)), nb_iter=self.plda_iter)
        plda.plda(_stat(y, spk, [f"u{i}" for i in range(len(spk))]))
        self._plda = plda

    def _project(self, x: np.ndarray) -> np.ndarray:
        return _length_norm((x - self.mean) @ self.lda)

    def plda(self, enroll_x: np.ndarray, enroll_spk: list[str], speakers: list[str],
             test_x: np.ndarray) -> np.ndarray:
        from speechbrain.processing.PLDA_LDA import Ndx, fast_PLDA_scoring
        if self._plda is None:
            self._fit_plda()
        models = _speaker_models(self._project(enroll_x), enroll_spk, speakers)
        tests = self._project(test_x)
        utt_ids = [f"t{i}" for i in range(len(tests))]
        ndx = Ndx()
        ndx.modelset = np.array(speakers, dtype=object)
        ndx.segset = np.array(utt_ids, dtype=object)
        ndx.trialmask = np.ones((len(speakers), len(utt_ids)), dtype=bool)
        scores = fast_PLDA_scoring(_stat(models, speakers, speakers), _stat(tests, utt_ids, utt_ids), ndx,
                                   self._plda.mean, self._plda.F, self._plda.Sigma, check_missing=False)
        return np.asarray(scores.scoremat, dtype=np.float64)

    def score(self, backend: str, *args) -> np.ndarray:
        if backend not in BACKENDS:
            raise ValueError(f"unknown back-end '{backend}', choose from {BACKENDS}")
        return getattr(self, backend)(*args)


def _stat(x: np.ndarray, models: list[str], segs: list[str]):
    from speechbrain.processing.PLDA_LDA import StatObject_SB
    n = len(x)
    none = np.array([None] * n)
    return StatObject_SB(modelset=np.array(models, dtype=object), segset=np.array(segs, dtype=object),
                         start=none, stop=none, stat0=np.ones((n, 1)), stat1=np.asarray(x, dtype=np.float64))
