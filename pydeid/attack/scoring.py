"""Back-ends that turn embeddings into verification scores: cosine, LDA + whitening + cosine, and PLDA.

Both subtract the mean of the attacker's training embeddings. Cosine: length-normalise each utterance
embedding, average per enrolled speaker, cosine similarity. PLDA: mean subtraction -> LDA (to at most
#training speakers - 1 and (#training utterances - #training speakers) / 2 dimensions) -> length
normalisation -> speechbrain's PLDA (PLDA_LDA.PLDA, trained on the attacker's training embeddings) ->
log-likelihood-ratio scores with speechbrain's fast_PLDA_scoring; a speaker model is the mean of its
transformed enrollment embeddings. LDA (`lda`, the pretrained attacker's trained back-end): mean subtraction ->
length normalisation -> the same LDA -> within-speaker whitening (the inverse square root of the training
speakers' pooled within-class covariance in the LDA space, which the shrinkage leaves away from identity) ->
cosine as above.

The LDA is computed here as the generalised symmetric eigenproblem B v = l W_a v (speechbrain's
get_lda_matrix_stat1 runs a symmetric eigen-solver on the non-symmetric Sb Sw^-1 and inverts a within-class
scatter that is singular whenever there are fewer utterances than dimensions). B is the between-class
covariance, W the pooled within-class covariance (Kaldi's ivector-compute-lda conventions) and
W_a = (1 - a) W + a tr(W)/D I its Ledoit-Wolf shrinkage toward a scaled identity, with the intensity a
estimated from the data (see `within_class_shrinkage`).

Why shrinkage: the informed attackers train on 2 utterances per speaker (96 x-vectors of 48 speakers, 128
dimensions), so W has rank N - #speakers = 48 < 128. With only a tiny ridge (1e-6, the former code) the
eigenproblem picks its directions in the null space of W, with eigenvalues ~ 1/ridge: every training speaker
collapses to a point there (within-class variance ~1e-12 to 1e-9 of the total), PLDA's residual covariance
is whatever its EM reaches in 10 iterations (LLRs ~ -1e5) and the scores carry the rounding noise of that
near-singular eigenproblem amplified ~1e6 times. A PCA to the rank of the data first would not help (W is
singular inside that span too); keeping only N - #speakers PCA dimensions (Fisherfaces) makes W invertible
but still barely conditioned. Shrinkage toward a scaled identity makes W_a well conditioned, with an
intensity that vanishes as data grows: the 384-utterance (8 per speaker) original-speech attacker gets
a ~ 0.06 and the same PLDA EER as before, the 2-per-speaker attackers a ~ 0.1-0.3. (The price: directions in
which the few training sessions happen not to vary are no longer trusted blindly.)

The LDA output is also capped at (N - #speakers) / 2 dimensions: PLDA then estimates a full within-class
covariance in that space from N - #speakers degrees of freedom, and a sample covariance with about as many
dimensions as degrees of freedom has eigenvalues spread over orders of magnitude (Marchenko-Pastur: smallest /
largest ~ ((1 - sqrt(p/n)) / (1 + sqrt(p/n)))^2, ~ 3e-5 at 47 / 48, ~ 0.03 at 1 / 2), which PLDA's inverse
would turn into noise. The cap does not bind when there are >= 3 utterances per speaker.
"""

from __future__ import annotations

import numpy as np

BACKENDS = ("cosine", "lda", "plda")


def _length_norm(x: np.ndarray) -> np.ndarray:
    return x / np.clip(np.linalg.norm(x, axis=1, keepdims=True), 1e-10, None)


def _speaker_models(x: np.ndarray, utt_spk: list[str], speakers: list[str]) -> np.ndarray:
    spk_of = np.array(utt_spk)
    return np.stack([x[spk_of == s].mean(axis=0) for s in speakers])


def _scatter(x: np.ndarray, labels: list[str]):
    """Pooled within-class covariance W (divided by N - #speakers), between-class covariance B (speaker means
    weighted by their utterance counts, divided by N), the degrees of freedom N - #speakers and the sum
    over utterances of n_s / (n_s - 1) * |x - m_s|^4 that the Ledoit-Wolf intensity needs."""
    labels_arr = np.array(labels)
    if len(labels_arr) != len(x):
        raise ValueError(f"{len(x)} vectors but {len(labels_arr)} labels")
    mu = x.mean(axis=0)
    d = x.shape[1]
    w = np.zeros((d, d))
    b = np.zeros((d, d))
    fourth, dof = 0.0, 0
    for s in np.unique(labels_arr):
        xs = x[labels_arr == s]
        n_s = len(xs)
        m = xs.mean(axis=0)
        c = xs - m
        w += c.T @ c
        b += n_s * np.outer(m - mu, m - mu)
        if n_s > 1:
            fourth += n_s / (n_s - 1) * float(np.sum(np.sum(c * c, axis=1) ** 2))
        dof += n_s - 1
    b /= len(x)
    if dof > 0:
        w /= dof
    return w, b, dof, fourth


def _ledoit_wolf(w: np.ndarray, dof: int, fourth: float) -> float:
    """Ledoit & Wolf (2004) intensity for shrinking W toward tr(W)/D I: estimated variance of W's entries over
    its squared distance to the target, clipped to [0, 1]. The deviations from a speaker's mean are
    dependent (they sum to 0); weighting each one by (n_s - 1) / n_s and scaling it by n_s / (n_s - 1)
    makes this exact for 2 utterances per speaker (one difference vector per speaker) and leaves it
    invariant to the order of the utterances."""
    d = w.shape[0]
    target = np.trace(w) / d
    dist2 = float(np.sum((w - target * np.eye(d)) ** 2))
    if dof == 0 or target <= 0:
        return 1.0
    if dist2 == 0:
        return 0.0
    var = (fourth - dof * float(np.sum(w * w))) / dof ** 2
    return float(np.clip(var / dist2, 0.0, 1.0))


def within_class_shrinkage(x: np.ndarray, labels: list[str]) -> float:
    """The Ledoit-Wolf intensity a that `lda_matrix` uses for these (mean-subtracted) vectors."""
    w, _, dof, fourth = _scatter(x, labels)
    return _ledoit_wolf(w, dof, fourth)


def lda_matrix(x: np.ndarray, labels: list[str], dim: int, shrinkage: float | None = None,
               min_shrinkage: float = 1e-6) -> np.ndarray:
    """[D, dim] LDA projection: the top generalised eigenvectors of B v = l W_a v (module docstring).
    shrinkage: the intensity a in [0, 1]; None = Ledoit-Wolf estimate. min_shrinkage only keeps W_a
    positive definite (constant input dimensions); the estimate is far above it whenever W is singular."""
    from scipy.linalg import eigh
    x = np.ascontiguousarray(x, dtype=np.float64)
    w, b, dof, fourth = _scatter(x, labels)
    d = x.shape[1]
    a = _ledoit_wolf(w, dof, fourth) if shrinkage is None else float(shrinkage)
    a = min(1.0, max(a, min_shrinkage))
    target = np.trace(w) / d
    if target <= 0:  # no within-class variation at all (one utterance per speaker): LDA = PCA of B
        w_a = np.eye(d)
    else:
        w_a = (1.0 - a) * w + a * target * np.eye(d)
    vals, vecs = eigh(b, w_a)
    order = np.argsort(vals, kind="stable")[::-1][:dim]
    return vecs[:, order]


class Backend:
    """Fitted on the attacker's training embeddings (matrix [N, D] and one speaker label per row)."""

    def __init__(self, train_x: np.ndarray, train_spk: list[str], lda_dim: int = 150, plda_rank: int = 100,
                 plda_iter: int = 10, lda_shrinkage: float | None = None):
        """lda_shrinkage: intensity of the within-class shrinkage of the LDA (module docstring); None = the
        Ledoit-Wolf estimate. After the PLDA fit, self.lda_shrinkage holds the value used."""
        # a C-contiguous float64 copy: the fit then runs on the same memory layout whatever the caller passed
        train_x = np.ascontiguousarray(train_x, dtype=np.float64)
        self.mean = train_x.mean(axis=0)
        self.lda_dim, self.plda_rank, self.plda_iter = lda_dim, plda_rank, plda_iter
        self._train = (train_x, list(train_spk))
        self.lda_shrinkage = lda_shrinkage
        self._plda = None
        self._lda_white = None

    # ---- cosine ----------------------------------------------------------------------------------------
    def cosine(self, enroll_x: np.ndarray, enroll_spk: list[str], speakers: list[str],
               test_x: np.ndarray) -> np.ndarray:
        e = _length_norm(enroll_x - self.mean)
        models = _length_norm(_speaker_models(e, enroll_spk, speakers))
        t = _length_norm(test_x - self.mean)
        return models @ t.T

    # ---- LDA + within-speaker whitening + cosine ----------------------------------------------------------
    def _fit_lda_white(self):
        x, spk = self._train
        n_spk = len(set(spk))
        xc = _length_norm(x - self.mean)
        dim = max(1, min(self.lda_dim, n_spk - 1, x.shape[1]))
        p = lda_matrix(xc, spk, dim, shrinkage=within_class_shrinkage(xc, spk))
        w, _, dof, _ = _scatter(xc @ p, spk)
        if dof == 0:   # one utterance per speaker: no within-speaker covariance to whiten
            w = np.eye(dim)
        vals, vecs = np.linalg.eigh(w)
        vals = np.clip(vals, vals.max() * 1e-6, None)
        self._lda_white = p @ (vecs / np.sqrt(vals)) @ vecs.T

    def lda_cosine(self, enroll_x: np.ndarray, enroll_spk: list[str], speakers: list[str],
            test_x: np.ndarray) -> np.ndarray:
        if self._lda_white is None:
            self._fit_lda_white()
        t = self._lda_white
        e = _length_norm(_length_norm(enroll_x - self.mean) @ t)
        models = _length_norm(_speaker_models(e, enroll_spk, speakers))
        tests = _length_norm(_length_norm(test_x - self.mean) @ t)
        return models @ tests.T

    # ---- PLDA ------------------------------------------------------------------------------------------
    def _fit_plda(self):
        from speechbrain.processing.PLDA_LDA import PLDA
        x, spk = self._train
        n_spk = len(set(spk))
        dof = len(spk) - n_spk
        if dof == 0:
            raise ValueError("PLDA needs some training speakers with >= 2 utterances (within-class variation)")
        # at most #speakers - 1 (the rank of B) and (N - #speakers) / 2 (module docstring) dimensions
        dim = max(1, min(self.lda_dim, n_spk - 1, x.shape[1], dof // 2))
        xc = x - self.mean
        if self.lda_shrinkage is None:
            self.lda_shrinkage = within_class_shrinkage(xc, spk)
        self.lda = lda_matrix(xc, spk, dim, shrinkage=self.lda_shrinkage)
        y = _length_norm(xc @ self.lda)
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
        # back-end "lda" is lda_cosine (self.lda is the PLDA's LDA matrix)
        return getattr(self, "lda_cosine" if backend == "lda" else backend)(*args)


def _stat(x: np.ndarray, models: list[str], segs: list[str]):
    from speechbrain.processing.PLDA_LDA import StatObject_SB
    n = len(x)
    none = np.array([None] * n)
    return StatObject_SB(modelset=np.array(models, dtype=object), segset=np.array(segs, dtype=object),
                         start=none, stop=none, stat0=np.ones((n, 1)), stat1=np.asarray(x, dtype=np.float64))
