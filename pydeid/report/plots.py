"""Figures for RESULTS.md: DET curves and score-distribution / linkability plots (matplotlib, Agg, PNG)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

# DET axes: probabilities on a normal-deviate scale, ticks in percent (as in NIST / Kaldi DET plots)
_TICKS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98]


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def det_plot(curves: dict[str, tuple[np.ndarray, np.ndarray]], path: str | os.PathLike,
             title: str | None = None) -> Path:
    """curves: label -> (P_fa, P_miss) arrays (e.g. from pydeid.attack.metrics.det_points). Writes a PNG."""
    from scipy.stats import norm

    from pydeid.io import atomic_write
    plt = _pyplot()
    lo, hi = 0.0005, 0.995
    fig, ax = plt.subplots(figsize=(5, 5))
    for label, (p_fa, p_miss) in curves.items():
        x = norm.ppf(np.clip(p_fa, lo, hi))
        y = norm.ppf(np.clip(p_miss, lo, hi))
        ax.plot(x, y, label=label, linewidth=1.5)
    ax.plot(norm.ppf([lo, hi]), norm.ppf([lo, hi]), "k:", linewidth=0.8, label="EER line")
    ticks = norm.ppf(_TICKS)
    labels = [f"{100 * t:g}" for t in _TICKS]
    ax.set_xticks(ticks, labels)
    ax.set_yticks(ticks, labels)
    ax.set_xlim(norm.ppf(lo), norm.ppf(hi))
    ax.set_ylim(norm.ppf(lo), norm.ppf(hi))
    ax.set_xlabel("False acceptance rate (%)")
    ax.set_ylabel("Miss rate (%)")
    ax.grid(True, linewidth=0.3)
    ax.legend(fontsize=7, loc="upper right")
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    path = Path(path)
    with atomic_write(path, "wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)
    return path


def linkability_plot(tar, non, dsys: float, local_d: np.ndarray, centers: np.ndarray,
                     path: str | os.PathLike, title: str | None = None) -> Path:
    """Mated / non-mated score histograms with the local linkability D(s) on a second axis."""
    from pydeid.io import atomic_write
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    edges = np.linspace(min(np.min(tar), np.min(non)), max(np.max(tar), np.max(non)), 41)
    ax.hist(non, bins=edges, density=True, alpha=0.5, label="non-mated (different speaker)")
    ax.hist(tar, bins=edges, density=True, alpha=0.5, label="mated (same speaker)")
    ax.set_xlabel("score")
    ax.set_ylabel("density")
    ax2 = ax.twinx()
    ax2.plot(centers, local_d, "k-", linewidth=1.2, label="D(s)")
    ax2.set_ylim(0, 1.05)
    ax2.set_ylabel("local linkability D(s)")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title((title + ": " if title else "") + f"D_sys = {dsys:.2f}", fontsize=9)
    fig.tight_layout()
    path = Path(path)
    with atomic_write(path, "wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)
    return path
