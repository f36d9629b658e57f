"""Speaker-subspace replacement after VTLN (issue 19): change only the directions along which speakers differ.

An x-vector attacker reads what distinguishes speakers; the recogniser reads what distinguishes phones. The
class-mean replacement (pydeid.voice.vtln.class_residual) replaces the whole class spectrum of every voiced frame by the
target's, phonetic part included (a mis-paired class then costs WER). Here only the part of the class spectra that
varies between speakers is replaced, as eigenvoices (Kuhn et al. 2000) or the between-speaker part of LDA/PLDA do:

Fit (on the VTLN target pool, no extra data): every pool speaker's k class spectra are aligned to one reference
speaker (the pool speaker whose mean spectrum is the medoid of the pool's) with VTLN's own alignment (class pairing
and per-class warp, pydeid.voice.vtln.align), so that vocal-tract length is normalised away and class c of every
speaker means the same phonetic class. Their cepstra (c1..c24 of the level-normalised log envelope, the smooth
spectral shape; finer detail is left alone) are stacked into a supervector (k * 24 values) per speaker; the
principal directions of the pool's supervectors (their between-speaker covariance, rank <= pool size - 1) are the
speaker subspace, each pool speaker has coordinates z_s in it (the pool mean is the origin).

Apply (per utterance, after VTLN's warp, voiced frames only): with U the first d directions,
- the source's coordinates are measured in the target's frame: z_src = z_T + U^T (R - T), where R is the source's
  class spectra warped as VTLN warps them towards target T, T the target's paired class spectra (both as
  supervectors in the reference's class order), z_T the target's coordinates (with `warp` off, plain analysis, or
  with a pseudo-target averaged over several pool speakers: R is the source aligned to the reference as the pool
  was, z_src = U^T (R - mean));
- the pseudo-speaker's coordinates z_P: the target's own (pseudo "target"; the mean of the averaged targets'), or
  drawn from the pool's Gaussian (pseudo "gaussian": z = sum_s e_s z_s / sqrt(n - 1), e ~ N(0, I), seeded per
  utterance), times `scale` (0: the pool's mean voice, 1: the pseudo-speaker, > 1: exaggerated away from the mean);
- every voiced frame of source class c gets the correction U (z_P - z_src) of its class (in log-envelope bins),
  averaged over `smooth_frames` neighbouring voiced frames so that class changes do not click. What lies outside
  the subspace (the phonetic detail, the source's part no pool speaker shares, the fine structure above c24) is
  left as VTLN made it. With `normalise` off (plain analysis only), the pool's and the source's classes are paired
  with the reference's but not warped: the directions then carry the vocal-tract-length differences too, which
  nothing else changes without the warp. d = 0 is plain VTLN; with pseudo "target" and d at its maximum this is
  the class-mean replacement restricted to the subspace's span.

Measured on the real-voice benchmark (session 8): bench/results/voice_real_subspace.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PSEUDO = ("target", "gaussian")


def _cepstral_basis(n_bins: int) -> np.ndarray:
    from .features import dct_basis
    return dct_basis(n_bins)          # (F, 24), orthonormal columns, each summing to 0 (level untouched)


def _warped_classes(spectra: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """(k, F): each class spectrum warped by its own factor, level-normalised."""
    from ..warping import bilinear, bin_omegas, warp_log_envelope
    k, F = spectra.shape
    read = bilinear(bin_omegas(F)[None, :], -np.asarray(alphas, dtype=np.float64)[:, None])
    w = warp_log_envelope(np.asarray(spectra, dtype=np.float64), read)
    return w - w.mean(axis=1, keepdims=True)


@dataclass
class SpeakerSubspace:
    """The pool's speaker subspace (module docstring)."""
    reference: str
    basis: np.ndarray          # (k * 24, D) orthonormal principal directions, in the reference's class order
    variances: np.ndarray      # (D,) between-speaker variance along each direction, decreasing
    mean: np.ndarray           # (k * 24,) the pool's mean supervector
    speakers: list[str]
    coords: np.ndarray         # (n, D) the pool speakers' coordinates
    class_map: np.ndarray      # (n, k) reference class of each of a speaker's classes

    @property
    def max_dims(self) -> int:
        return self.basis.shape[1]

    def index(self, spk: str) -> int:
        try:
            return self.speakers.index(spk)
        except ValueError:
            raise ValueError(f"speaker '{spk}' is not in the subspace's pool") from None

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"reference": np.array(self.reference), "basis": self.basis, "variances": self.variances,
                "mean": self.mean, "speakers": np.array(self.speakers), "coords": self.coords,
                "class_map": self.class_map}

    @classmethod
    def from_arrays(cls, z) -> "SpeakerSubspace":
        return cls(str(z["reference"]), z["basis"], z["variances"], z["mean"], [str(s) for s in z["speakers"]],
                   z["coords"], z["class_map"])

    def save(self, path) -> None:
        from pydeid.io import atomic_write
        with atomic_write(path, "wb", encoding=None) as f:
            np.savez(f, **self.to_arrays())

    @classmethod
    def load(cls, path) -> "SpeakerSubspace":
        return cls.from_arrays(np.load(path, allow_pickle=False))


def fit_subspace(targets, grid: np.ndarray, normalise: bool = True) -> SpeakerSubspace:
    """The speaker subspace of a VTLN target pool (pydeid.voice.vtln.VtlnTargets); `grid`: VTLN's warp grid;
    `normalise` False: the classes are paired with the reference's but not warped (the directions then hold the
    vocal-tract-length differences too)."""
    from .features import align
    spks = sorted(targets.models)
    if len(spks) < 2:
        raise ValueError(f"a speaker subspace needs at least 2 pool speakers, the pool has {len(spks)}")
    models = [targets.models[s] for s in spks]
    k, F = models[0].class_spectra.shape
    means = np.stack([(m.class_weights[:, None] * m.class_spectra).sum(0) for m in models])
    means -= means.mean(axis=1, keepdims=True)
    d2 = ((means[:, None, :] - means[None, :, :]) ** 2).sum(axis=2)
    r = int(d2.sum(axis=1).argmin())
    B = _cepstral_basis(F)
    X = np.zeros((len(spks), k, B.shape[1]))
    cmap = np.zeros((len(spks), k), dtype=int)
    for i, m in enumerate(models):
        if i == r:
            alphas, pairs = np.zeros(k), np.arange(k)
        else:
            al = align(m, models[r], grid)
            alphas, pairs = al["alphas"], al["pairs"]
        X[i, pairs] = _warped_classes(m.class_spectra, alphas if normalise else 0 * alphas) @ B
        cmap[i] = pairs
    X = X.reshape(len(spks), -1)
    mu = X.mean(axis=0)
    _, s, vt = np.linalg.svd(X - mu, full_matrices=False)
    D = int(min(len(spks) - 1, X.shape[1], (s > s[0] * 1e-10).sum()))
    basis = vt[:D].T
    return SpeakerSubspace(spks[r], basis, s[:D] ** 2 / (len(spks) - 1), mu, spks, (X - mu) @ basis, cmap)


def draw_coords(sub: SpeakerSubspace, rng: np.random.Generator) -> np.ndarray:
    """(D,) coordinates drawn from the pool's Gaussian (its sample mean and covariance in the subspace)."""
    n = len(sub.speakers)
    e = rng.standard_normal(n)
    return e @ sub.coords / np.sqrt(n - 1)


def class_corrections(sub: SpeakerSubspace, dims: int, source_ceps: np.ndarray, target_ceps: np.ndarray | None,
                      ref_of_class: np.ndarray, target_coords: np.ndarray | None, pseudo_coords: np.ndarray,
                      scale: float) -> np.ndarray:
    """(k, 24): the cepstral correction U (z_P - z_src) of each source class (module docstring).

    source_ceps / target_ceps: (k, 24) per source class, the source's (warped) class cepstra and the paired target
    class cepstra (target_ceps None: plain analysis, the source is measured from the pool mean, source_ceps then
    aligned to the reference as the pool was); ref_of_class: (k,) the reference class of each source class;
    target_coords: (D,) z_T; pseudo_coords: (D,) z_P before `scale`."""
    k, c = source_ceps.shape
    if dims == 0:
        return np.zeros((k, c))
    U = sub.basis[:, :dims]
    R = np.zeros((k, c))
    R[ref_of_class] = source_ceps
    if target_ceps is None:
        z_src = U.T @ (R.ravel() - sub.mean)
    else:
        T = np.zeros((k, c))
        T[ref_of_class] = target_ceps
        z_src = np.asarray(target_coords)[:dims] + U.T @ (R.ravel() - T.ravel())
    z_p = scale * np.asarray(pseudo_coords)[:dims]
    delta = (U @ (z_p - z_src)).reshape(k, c)
    return delta[ref_of_class]


def apply_corrections(log_sp: np.ndarray, voiced: np.ndarray, frame_class: np.ndarray, corrections: np.ndarray,
                      smooth_frames: int = 5) -> np.ndarray:
    """log_sp (T, F) with each voiced frame's class correction (k, F, in bins) added, smoothed over voiced
    frames; unvoiced frames unchanged."""
    from .features import voiced_smooth
    out = np.array(log_sp, dtype=np.float64, copy=True)
    if not voiced.any() or not np.any(corrections):
        return out
    D = np.zeros_like(out)
    D[voiced] = corrections[np.asarray(frame_class)[voiced]]
    D = voiced_smooth(D, voiced, smooth_frames)
    out[voiced] += D[voiced]
    return out


def check_options(dims, pseudo, scale, warp, normalise=True) -> None:
    """One-line errors for the plan's ss_* options."""
    if isinstance(dims, bool) or not isinstance(dims, int) or not 0 <= dims <= 512:
        raise ValueError(f"ss_dims must be an integer in [0, 512], got {dims!r}")
    if pseudo not in PSEUDO:
        raise ValueError(f"ss_pseudo must be one of {', '.join(PSEUDO)}, got {pseudo!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0.0 <= float(scale) <= 3.0:
        raise ValueError(f"ss_scale must be a number in [0, 3], got {scale!r}")
    if not isinstance(warp, bool):
        raise ValueError(f"ss_warp must be true or false, got {warp!r}")
    if not isinstance(normalise, bool):
        raise ValueError(f"ss_normalise must be true or false, got {normalise!r}")
    if not normalise and warp:
        raise ValueError("ss_normalise false needs ss_warp false (the warp itself normalises vocal-tract length)")


def convert_frames(tr, log_sp: np.ndarray, voiced: np.ndarray, frame_class: np.ndarray, target,
                   warp_shift: float = 0.0, ss_seed: int | None = None) -> np.ndarray:
    """The speaker-subspace replacement of one utterance by a fitted VtlnTransformer `tr` (its params' ss_*
    options): log_sp (T, F) is VTLN's output (warped, or with ss_warp off the plain analysis); `target`: a pool
    speaker id or a list of them (an averaged pseudo-target: measured in the reference's frame, pseudo "target" is
    the mean of their coordinates)."""
    from .features import MAX_ALPHA
    p = tr.params
    sub = tr.subspace()
    if p.ss_dims > sub.max_dims:
        raise ValueError(f"ss_dims {p.ss_dims} exceeds the pool's speaker subspace ({sub.max_dims} dimensions)")
    ids = [target] if isinstance(target, str) else list(target)
    src = tr.source_
    B = _cepstral_basis(log_sp.shape[1])
    idx = [sub.index(t) for t in ids]
    if p.ss_warp and len(ids) == 1:      # the source's coordinates measured in the target's frame
        al = tr.alignment(ids[0])
        pairs = np.asarray(al["pairs"], dtype=int)
        ref_of = sub.class_map[idx[0]][pairs]
        alphas = np.clip(np.asarray(al["alphas"]) + warp_shift, -MAX_ALPHA, MAX_ALPHA)
        R = _warped_classes(src.class_spectra, alphas) @ B
        T = tr.targets.models[ids[0]].class_spectra[pairs]
        T = (T - T.mean(axis=1, keepdims=True)) @ B
        z_t = sub.coords[idx[0]]
    else:                                # plain analysis or averaged targets: in the reference's frame
        al = tr.alignment(sub.reference)
        ref_of = np.asarray(al["pairs"], dtype=int)
        a = al["alphas"] if p.ss_normalise else 0 * al["alphas"]
        R, T, z_t = _warped_classes(src.class_spectra, a) @ B, None, None
    if p.ss_pseudo == "gaussian":
        if ss_seed is None:
            raise ValueError("ss_pseudo gaussian needs the utterance's draw (ss_seed) from the plan")
        z_p = draw_coords(sub, np.random.default_rng(int(ss_seed)))
    else:
        z_p = sub.coords[idx].mean(axis=0)
    corr = class_corrections(sub, p.ss_dims, R, T, ref_of, z_t, z_p, float(p.ss_scale)) @ B.T
    return apply_corrections(log_sp, voiced, frame_class, corr, tr.smooth_frames)
