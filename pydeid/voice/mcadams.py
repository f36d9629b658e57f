"""McAdams-coefficient anonymisation (VoicePrivacy Challenge 2020/2022 baseline B2, Patino et al. 2021).

Per 20 ms frame (10 ms shift): LPC of order 20 on the Hann-windowed frame (autocorrelation method,
Levinson-Durbin), the angle phi of every complex pole is replaced by phi^alpha (alpha = McAdams coefficient,
default 0.8), moduli unchanged; the LPC residual of the sqrt-Hann-windowed frame is re-filtered through the
modified all-pole filter, windowed by sqrt-Hann again and overlap-added: the window pair reconstructs exactly,
so alpha = 1 returns the input.

Vectorised over frames: Levinson runs over the order (20 steps) for all frames at once, poles come from batched
eigenvalues of companion matrices, and both filters are applied in the frequency domain (residual spectrum
X(w)A(w), synthesis by 1/A'(w) on an FFT long enough (2048) for the all-pole impulse response to decay, keeping the
first frame-length samples as the recursive filter would).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .method import VoiceMethod
from .world import finalize


@dataclass(frozen=True)
class McAdamsParams:
    alpha: float = 0.8
    alpha_range: tuple[float, float] | None = None   # if set, alpha is drawn uniformly per utterance
    lp_order: int = 20
    win_ms: float = 20.0
    shift_ms: float = 10.0
    n_fft: int = 2048


def build_mcadams(**overrides) -> McAdamsParams:
    p = McAdamsParams(**{k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()})
    for a in ([p.alpha] if p.alpha_range is None else list(p.alpha_range)):
        if not 0 < a <= 1.2:
            # above 1 the highest poles are pushed past pi and clipped there, which soon boosts the band near
            # Nyquist; the challenge baselines use 0.5..0.9
            raise ValueError(f"McAdams coefficient must lie in (0, 1.2]: {a}")
    return p


def draw_mcadams(params: McAdamsParams, rng: np.random.Generator) -> dict:
    if params.alpha_range is None:
        return {"alpha": float(params.alpha)}
    return {"alpha": float(rng.uniform(*params.alpha_range))}


def _frames(x: np.ndarray, win: int, shift: int) -> np.ndarray:
    n = 1 + max(0, int(np.ceil((len(x) - win) / shift)))
    pad = np.zeros((n - 1) * shift + win)
    pad[:len(x)] = x
    return np.lib.stride_tricks.sliding_window_view(pad, win)[::shift][:n]


def lpc_batch(frames: np.ndarray, order: int) -> np.ndarray:
    """(N, order+1) LPC polynomials [1, a1..ap] by autocorrelation + Levinson-Durbin, vectorised over frames."""
    N, L = frames.shape
    nfft = 1 << int(np.ceil(np.log2(2 * L)))
    S = np.fft.rfft(frames, nfft)
    r = np.fft.irfft(S.real ** 2 + S.imag ** 2, nfft)[:, :order + 1]
    r[:, 0] = r[:, 0] * (1.0 + 1e-9) + 1e-12      # white-noise floor: silent frames give a = [1, 0, ...]
    a = np.zeros((N, order + 1))
    a[:, 0] = 1.0
    err = r[:, 0].copy()
    for i in range(1, order + 1):
        acc = r[:, i] + np.einsum("nj,nj->n", a[:, 1:i], r[:, i - 1:0:-1])
        k = -acc / err
        a[:, 1:i] = a[:, 1:i] + k[:, None] * a[:, i - 1:0:-1]
        a[:, i] = k
        err = err * (1.0 - k * k)
    return a


def mcadams_lpc(a: np.ndarray, alpha: float) -> np.ndarray:
    """Move the angles of the complex poles of 1/A(z) to angle^alpha (keeping conjugate symmetry and moduli)."""
    N, P1 = a.shape
    p = P1 - 1
    comp = np.zeros((N, p, p))
    comp[:, 0, :] = -a[:, 1:]
    comp[:, np.arange(1, p), np.arange(p - 1)] = 1.0
    poles = np.linalg.eigvals(comp)                         # (N, p)
    ang = np.angle(poles)
    cplx = np.abs(poles.imag) > 1e-12
    new_ang = np.where(cplx, np.sign(ang) * np.clip(np.abs(ang) ** alpha, 0.0, np.pi), ang)
    new_poles = np.abs(poles) * np.exp(1j * new_ang)
    out = np.zeros((N, P1), dtype=np.complex128)
    out[:, 0] = 1.0
    for j in range(p):                                      # poly from roots, one root at a time for all frames
        out[:, 1:] = out[:, 1:] - new_poles[:, j:j + 1] * out[:, :-1]
    return out.real


def anonymize(x: np.ndarray, sr: int, alpha: float = 0.8, params: McAdamsParams = McAdamsParams()) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    win_len = int(round(params.win_ms * 1e-3 * sr))
    shift = int(round(params.shift_ms * 1e-3 * sr))
    hann = np.hanning(win_len + 1)[:-1]                     # periodic Hann: the LPC analysis window
    # Filtering runs on sqrt-Hann frames and the output is windowed by sqrt-Hann again: the pair multiplies to a
    # periodic Hann, whose copies at a half-window shift sum to exactly 1, so alpha = 1 gives the input back.
    # (Hann at both ends, as the challenge baseline does, sums to a gain that swings 0.5..1 every shift: a
    # 100 Hz, 6 dB modulation.) Half a window of padding at each end gives the edges full overlap too.
    syn = np.sqrt(hann)
    pad = win_len // 2
    xp = np.pad(x + 1e-9, (pad, pad))
    raw = _frames(xp, win_len, shift)
    a = lpc_batch(raw * hann, params.lp_order)
    a_new = mcadams_lpc(a, alpha)
    frames = raw * syn
    nfft = max(params.n_fft, 2 * win_len)
    Y = np.fft.rfft(frames, nfft) * np.fft.rfft(a, nfft) / np.fft.rfft(a_new, nfft)
    y = np.fft.irfft(Y, nfft)[:, :win_len] * syn
    # overlap-add without a loop over frames
    n = len(frames)
    out = np.zeros((n - 1) * shift + win_len)
    idx = np.arange(n)[:, None] * shift + np.arange(win_len)[None, :]
    np.add.at(out, idx.ravel(), y.ravel())
    if 2 * shift != win_len:
        # other overlaps: divide by the summed window so the reconstruction stays exact
        norm = np.zeros_like(out)
        np.add.at(norm, idx.ravel(), np.tile(hann, n))
        out = out / np.maximum(norm, 1e-3)
    return out[pad:pad + len(x)]


class McAdamsTransformer:
    """fit() is a no-op kept for the common API (the method needs no speaker data)."""

    def __init__(self, params: McAdamsParams = McAdamsParams(), seed: int = 0):
        self.params = params
        self.rng = np.random.default_rng(seed)

    def fit(self, utterances=None, sr: int = 16000) -> "McAdamsTransformer":
        return self

    def transform(self, wav: np.ndarray, sr: int = 16000, draw: dict | None = None) -> np.ndarray:
        draw = draw or draw_mcadams(self.params, self.rng)
        return finalize(anonymize(wav, sr, draw["alpha"], self.params), wav)


METHOD = VoiceMethod(
    name="mcadams", params=McAdamsParams, build=build_mcadams, draw=draw_mcadams,
    transformer=lambda params, world: McAdamsTransformer(params),
    summary="LPC pole angles raised to the power alpha (VoicePrivacy baseline B2)")
