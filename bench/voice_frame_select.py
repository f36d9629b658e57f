"""Bench of issue 38 (bench/results/voice_frame_select.md): the dev split of the speechocean762 train speakers,
GE2E (Resemblyzer) embeddings of data dirs (cached per utterance, resumable), and the attack scores: ignorant cosine
and the semi-informed back-ends (LDA of the dims the attacker's training data supports + within-speaker whitening +
cosine; a second back-end: within-speaker whitening without LDA), each with EER [95 % speaker bootstrap],
linkability and the attacker's training accuracy.

  python bench/voice_frame_select.py split <train-data> <work>        dev_trial, dev_enroll, dev_train, dev_att, dev_wer
  python bench/voice_frame_select.py embed <data> <out.npz>
  python bench/voice_frame_select.py score --train T.npz --enroll E.npz --trial R.npz --trials F --utt2spk FILE \
        --name N --out results.json
  python bench/voice_frame_select.py table results.json [--ref NAME]
  python bench/voice_frame_select.py ignorant --enroll E.npz --trials F --utt2spk FILE T1.npz [T2.npz ...]
  python bench/voice_frame_select.py relwer <utt2spk> <decode-dir original> <decode-dir converted>
        relative WER change with a paired speaker bootstrap (steps/decode_whisper.sh's per_utt)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def split(train: str, work: str) -> None:
    """Dev protocol of bench/results/voice_semi_informed.md: per gender, the train speakers sorted by id, every
    third from the first (positions 0-12) is a dev test speaker (5 enrolment utterances, 15 trial utterances each, first 4 trial
    utterances the utility subset); the others are the attacker's training data and the target pool."""
    from pydeid.io import DataDir
    d = DataDir.read(train)
    g = dict(d.spk2gender)
    test = []
    for gender in sorted(set(g.values())):
        spks = sorted(s for s in d.speakers if g[s] == gender)
        test += spks[0:15:3]   # positions 0, 3, 6, 9, 12
    spk2utt = d.spk2utt
    enroll = {u for s in test for u in sorted(spk2utt[s])[:5]}
    trial = {u for s in test for u in sorted(spk2utt[s])[5:]}
    wer = {u for s in test for u in sorted(spk2utt[s])[5:9]}
    dtrain = {u for s in d.speakers if s not in test for u in spk2utt[s]}
    w = Path(work)
    for name, utts in (("dev_enroll", enroll), ("dev_trial", trial), ("dev_wer", wer), ("dev_train", dtrain),
                       ("dev_att", dtrain | enroll)):
        sub = DataDir(wav_scp={u: d.wav_scp[u] for u in sorted(utts)}, text={u: d.text[u] for u in sorted(utts)},
                      utt2spk={u: d.utt2spk[u] for u in sorted(utts)},
                      spk2gender={s: g[s] for s in {d.utt2spk[u] for u in utts}})
        sub.write(w / name)
    with open(w / "dev_trial" / "trials", "w") as f:
        for s in sorted(test):
            for u in sorted(trial):
                t = d.utt2spk[u]
                if g[t] == g[s]:
                    f.write(f"{s} {u} {'target' if t == s else 'nontarget'}\n")
    print(f"dev: {len(test)} test speakers {sorted(test)}, {len(dtrain)} attacker training utterances")


def embed(data: str, out: str) -> None:
    from resemblyzer import VoiceEncoder, preprocess_wav
    from pydeid.io import DataDir
    d = DataDir.read(data)
    have = {}
    if Path(out).exists():
        with np.load(out) as z:
            have = {k: z[k] for k in z.files}
    todo = [u for u in d.utts if u not in have]
    if todo:
        enc = VoiceEncoder("cpu", verbose=False)
        for i, u in enumerate(todo):
            have[u] = enc.embed_utterance(preprocess_wav(d.load_audio(u), 16000))
            if (i + 1) % 100 == 0 or i + 1 == len(todo):   # checkpoint: a killed run resumes
                tmp = Path(out).with_suffix(".tmp.npz")
                np.savez(tmp, **have)
                tmp.replace(out)
    print(f"{out}: {len(have)} embeddings ({len(todo)} new)")


def _load(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _unit(x):
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


class Backend:
    """LDA (dims) then within-speaker whitening, fitted on the attacker's converted training embeddings; dims 0:
    the whitening alone (the second back-end)."""

    def __init__(self, X, y, dims: int):
        from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
        X = _unit(X)
        self.mu = X.mean(0)
        self.lda = None
        if dims:
            self.lda = LinearDiscriminantAnalysis(n_components=dims, solver="svd").fit(X - self.mu, y)
        Z = self._lda(X)
        cls = {c: Z[y == c].mean(0) for c in np.unique(y)}
        W = np.vstack([Z[y == c] - cls[c] for c in cls])
        cov = np.cov(W.T) + 1e-6 * np.eye(Z.shape[1])
        vals, vecs = np.linalg.eigh(cov)
        self.wt = vecs / np.sqrt(np.maximum(vals, 1e-9))
        self.zmu = Z.mean(0)
        # the attacker's convergence check: nearest class mean (cosine) on its own training data, and on a
        # split (odd utterances of each speaker held out, class means of the even ones)
        E = self(X, normed=True)
        M = {c: _unit(E[y == c].mean(0)) for c in cls}
        C = np.array(sorted(M))
        self.train_acc = float(np.mean(C[np.argmax(E @ np.vstack([M[c] for c in C]).T, 1)] == y))
        self.classes = len(C)

    def _lda(self, X):
        return self.lda.transform(X - self.mu) if self.lda is not None else X - self.mu

    def __call__(self, X, normed=False):
        X = X if normed else _unit(X)
        return _unit((self._lda(X) - self.zmu) @ self.wt)


def heldout_acc(X, y, dims: int) -> float:
    """Accuracy of a back-end trained on half of each training speaker's utterances, on the other half."""
    idx = np.arange(len(y))
    fit, test = [], []
    for c in np.unique(y):
        r = idx[y == c]
        fit += list(r[0::2])
        test += list(r[1::2])
    b = Backend(X[fit], y[fit], dims)
    E = b(X[fit])
    C = np.unique(y[fit])
    M = np.vstack([_unit(E[y[fit] == c].mean(0)) for c in C])
    return float(np.mean(C[np.argmax(b(X[test]) @ M.T, 1)] == y[test]))


def score(a) -> None:
    from pydeid.attack.metrics import eer, eer_bootstrap, linkability, percentile_ci
    u2s = dict(ln.split() for ln in open(a.utt2spk) if ln.strip())
    tr, en, ri = _load(a.train), _load(a.enroll), _load(a.trial)
    trials = [ln.split() for ln in open(a.trials) if ln.strip()]
    trials = [t for t in trials if t[1] in ri]
    spk_enr = {}
    for u, e in en.items():
        spk_enr.setdefault(u2s[u], []).append(e)
    tu = sorted(tr)
    X = np.vstack([tr[u] for u in tu])
    y = np.array([u2s[u] for u in tu])
    n_spk = len(set(y))
    backends = {"cosine (no back-end)": None, "whitening + cosine": 0}
    for d in sorted({min(100, n_spk - 1), max(2, (n_spk - 1) // 2), max(2, (n_spk - 1) // 4)}, reverse=True):
        backends[f"LDA {d} + whitening + cosine"] = d
    out = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    res = {}
    for bname, dims in backends.items():
        f = _unit if dims is None else Backend(X, y, dims)
        enr = {s: _unit(np.mean(f(np.vstack(v)), 0)) for s, v in spk_enr.items()}
        sc = np.array([float(enr[s] @ f(ri[u][None])[0]) for s, u, _ in trials])
        is_t = np.array([t == "target" for *_, t in trials])
        boot = eer_bootstrap(sc, is_t, [s for s, *_ in trials], [u2s[u] for _, u, _ in trials], n_boot=1000,
                             seed=0)
        r = {"eer": 100 * eer(sc[is_t], sc[~is_t])[0], "ci": [100 * v for v in percentile_ci(boot)],
             "dsys": linkability(sc[is_t], sc[~is_t])[0], "boot": (100 * boot).round(3).tolist(),
             "n_target": int(is_t.sum()), "n_nontarget": int((~is_t).sum())}
        if dims is not None:
            r["train_acc"] = f.train_acc
            r["heldout_acc"] = heldout_acc(X, y, dims)
            r["train_classes"] = f.classes
        res[bname] = r
    if a.orig_enroll:   # the ignorant attacker: original enrolment, converted trials, no back-end
        oe = _load(a.orig_enroll)
        enr = {}
        for u, e in oe.items():
            enr.setdefault(u2s[u], []).append(e)
        enr = {s: _unit(np.mean(_unit(np.vstack(v)), 0)) for s, v in enr.items()}
        sc = np.array([float(enr[s] @ _unit(ri[u])) for s, u, _ in trials])
        is_t = np.array([t == "target" for *_, t in trials])
        res["_ignorant"] = {"eer": 100 * eer(sc[is_t], sc[~is_t])[0], "dsys": linkability(sc[is_t], sc[~is_t])[0]}
    res["_train"] = {"utterances": len(tu), "speakers": n_spk}
    out[a.name] = res
    Path(a.out).write_text(json.dumps(out))
    for b, r in res.items():
        if not b.startswith("_"):
            print(f"{a.name:28s} {b:32s} EER {r['eer']:5.1f} [{r['ci'][0]:.1f}, {r['ci'][1]:.1f}] "
                  f"Dsys {r['dsys']:.2f} acc {r.get('train_acc', float('nan')):.2f}/{r.get('heldout_acc', float('nan')):.2f}")


def strongest(res: dict):
    """The semi-informed attacker's best back-end (lowest EER; he may also score without one)."""
    items = [(b, r) for b, r in res.items() if not b.startswith("_")]
    return min(items, key=lambda br: br[1]["eer"])


def table(a) -> None:
    allr = json.loads(Path(a.results).read_text())
    ref = allr.get(a.ref) if a.ref else None
    for name, res in allr.items():
        b, r = strongest(res)
        line = f"| {name} | {r['eer']:.1f} [{r['ci'][0]:.1f}, {r['ci'][1]:.1f}] / {r['dsys']:.2f} | {b} | " \
               f"{r.get('train_acc', 0):.2f} / {r.get('heldout_acc', 0):.2f} |"
        ig = res.get("_ignorant")
        line += f" {ig['eer']:.1f} / {ig['dsys']:.2f} |" if ig else " |"
        if ref is not None and name != a.ref:
            rb, rr = strongest(ref)
            d = np.array(r["boot"]) - np.array(rr["boot"])
            d = d[np.isfinite(d)]
            line += f" {r['eer'] - rr['eer']:+.1f} [{np.quantile(d, .025):+.1f}, {np.quantile(d, .975):+.1f}] |"
        print(line)


def ignorant(a) -> None:
    """Original enrolment against trial sets (original or converted), cosine: EER [95 %] / D_sys of each, and the
    paired difference of each against the first."""
    from pydeid.attack.metrics import eer, eer_bootstrap, linkability, percentile_ci
    u2s = dict(ln.split() for ln in open(a.utt2spk) if ln.strip())
    enr = {}
    for u, e in _load(a.enroll).items():
        enr.setdefault(u2s[u], []).append(e)
    enr = {s: _unit(np.mean(_unit(np.vstack(v)), 0)) for s, v in enr.items()}
    trials = [ln.split() for ln in open(a.trials) if ln.strip()]
    first = None
    for path in a.trial_sets:
        ri = _load(path)
        sc = np.array([float(enr[s] @ _unit(ri[u])) for s, u, _ in trials])
        is_t = np.array([t == "target" for *_, t in trials])
        boot = 100 * eer_bootstrap(sc, is_t, [s for s, *_ in trials], [u2s[u] for _, u, _ in trials], 1000, 0)
        e = 100 * eer(sc[is_t], sc[~is_t])[0]
        lo, hi = percentile_ci(boot)
        line = f"{Path(path).stem}: EER {e:.1f} [{lo:.1f}, {hi:.1f}] / {linkability(sc[is_t], sc[~is_t])[0]:.2f}"
        if first is None:
            first = (e, boot)
        else:
            d = boot - first[1]
            d = d[np.isfinite(d)]
            line += f"  vs first {e - first[0]:+.1f} [{np.quantile(d, .025):+.1f}, {np.quantile(d, .975):+.1f}]"
        print(line)


def _per_utt_errors(d):
    """utt -> (errors, reference words) from a decode dir's per_utt (#csid lines)."""
    out = {}
    for ln in open(Path(d) / "per_utt"):
        p = ln.split()
        if len(p) >= 6 and p[1] == "#csid":
            c, s, i, dl = map(int, p[2:6])
            out[p[0]] = (s + i + dl, c + s + dl)
    return out


def relwer(utt2spk, orig, conv, n_boot=1000, seed=0) -> None:
    """Relative WER change (converted / original - 1) and the paired difference in points, speaker bootstrap."""
    u2s = dict(ln.split() for ln in open(utt2spk) if ln.strip())
    a, b = _per_utt_errors(orig), _per_utt_errors(conv)
    utts = sorted(set(a) & set(b))
    spk = sorted({u2s[u] for u in utts})
    by = {s: [u for u in utts if u2s[u] == s] for s in spk}

    def stat(ss):
        us = [u for s in ss for u in by[s]]
        ea, eb, n = sum(a[u][0] for u in us), sum(b[u][0] for u in us), sum(a[u][1] for u in us)
        return 100 * (eb / ea - 1), 100 * (eb - ea) / n
    r = np.random.default_rng(seed)
    bs = np.array([stat(list(r.choice(spk, len(spk)))) for _ in range(n_boot)])
    p = stat(spk)
    lo, hi = np.percentile(bs, [2.5, 97.5], axis=0)
    print(f"{len(utts)} utterances, {len(spk)} speakers: relative {p[0]:+.0f} % [{lo[0]:+.0f}, {hi[0]:+.0f}], "
          f"paired {p[1]:+.1f} points [{lo[1]:+.1f}, {hi[1]:+.1f}]")


def main(argv=None):
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split"); s.add_argument("train"); s.add_argument("work")
    e = sub.add_parser("embed"); e.add_argument("data"); e.add_argument("out")
    c = sub.add_parser("score")
    for k in ("train", "enroll", "trial", "trials", "utt2spk", "name", "out"):
        c.add_argument(f"--{k}", required=True)
    c.add_argument("--orig-enroll", default=None)
    t = sub.add_parser("table"); t.add_argument("results"); t.add_argument("--ref", default=None)
    g = sub.add_parser("ignorant")
    for k in ("enroll", "trials", "utt2spk"):
        g.add_argument(f"--{k}", required=True)
    g.add_argument("trial_sets", nargs="+")
    w = sub.add_parser("relwer")
    for k in ("utt2spk", "orig", "conv"):
        w.add_argument(k)
    a = p.parse_args(argv)
    if a.cmd == "split":
        split(a.train, a.work)
    elif a.cmd == "embed":
        embed(a.data, a.out)
    elif a.cmd == "score":
        score(a)
    elif a.cmd == "ignorant":
        ignorant(a)
    elif a.cmd == "relwer":
        relwer(a.utt2spk, a.orig, a.conv)
    else:
        table(a)


if __name__ == "__main__":
    sys.exit(main())
