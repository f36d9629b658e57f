"""Do the default surrogates pass for real? Two measurements on the development text sets, gold entity spans,
`default=surrogate`, seed 0 (issue 39):

  (1) type and shape fidelity: every surrogate of a held-out part checked by pydeid.text.fidelity.check (one
      checker per kind: identifiers and postcodes, dates, times, relative dates and durations, numbers, month and
      weekday names, titles, gender, a/an, single letters, case); the share that passes with its 95 % Wilson
      interval, per set and per kind; a seeded sample of 50 pairs written for a hand check.
  (2) a discriminator attack: a logistic regression (scikit-learn, C chosen by 5-fold cross-validation on its
      training data) on character 1-5-grams of the mention and the two words either side, trained to tell an
      original mention from a surrogate on the TUNING parts (each mention once as original, once as surrogate:
      balanced), scored on the HELD-OUT parts; accuracy with a 95 % bootstrap interval over sentences.

Sets and their fixed splits (bench/text_domains.py, decided before this bench existed; the held-out parts were not
looked at while the generators were written):
  snips  SNIPS NLU: train = tuning, valid = held-out            slurp  SLURP devel: even = tuning, odd = held-out
  mini   the mini corpus's written turns (seed 0, 200 dialogues): even dialogue = tuning, odd = held-out
  tab    TAB dev (ECHR judgments): md5(document) even = tuning, odd = held-out
  mini_lc, tab_lc: the same as ASR writes them (lower case, no punctuation), extra rows

    python bench/surrogate_fidelity.py [--data ../shared/data] [--show-failures tune] [--sample-out F] --out F.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_domains import load_sets, write_mini  # noqa: E402
from text_vs_presidio import gold_spans  # noqa: E402

BASE = ("snips", "slurp", "mini", "tab")


def transform(sents, seed: int = 0):
    """(sid, toks, tags) sentences -> pairs: one dict per gold span with its surrogate and both sentences."""
    from pydeid.io.conll import Sentence
    from pydeid.text.pools import Pools
    from pydeid.text.transform import TextTransformer, TransformConfig
    ss = [Sentence(list(t), list(g), sid) for sid, t, g in sents]
    dlg = [sid.rsplit("-t", 1)[0] if sid.startswith("mini-") else sid for sid, _, _ in sents]
    cfg = TransformConfig(seed=seed, propagate_names=False, continue_numbers=False)
    res = TextTransformer(cfg, Pools(ss)).transform(ss, dlg)
    pairs = []
    for k, ((sid, toks, tags), out) in enumerate(zip(sents, res.sentences)):
        ins, outs = gold_spans(tags), gold_spans(out.tags)
        if len(ins) != len(outs):
            raise SystemExit(f"{sid}: {len(ins)} gold spans but {len(outs)} output spans")
        for (a, b), (c, d) in zip(ins, outs):
            pairs.append({"sent": k, "sid": sid, "type": tags[a][2:], "orig": toks[a:b], "new": out.tokens[c:d],
                          "in": list(toks), "in_start": a, "out": list(out.tokens), "out_start": c})
    return pairs


def checked(pairs):
    from pydeid.text.fidelity import check, kind
    for p in pairs:
        p["kind"] = kind(p["orig"], p["type"])
        p["fails"] = check(p["orig"], p["new"], p["type"], p["out"], p["out_start"], p["in"], p["in_start"])
    return pairs


def wilson(k, n):
    from pydeid.text.categories.annotated import wilson as w
    lo, hi = w(k, n)
    return 100 * lo, 100 * hi


def features(p, which: str) -> str:
    """The attacker's view of one mention: the mention and the two words either side in the OUTPUT sentence (the
    published text: a missed original sits among the surrogates of the other entities, seed 000)."""
    toks, a = p["out"], p["out_start"]
    m = p["orig"] if which == "orig" else p["new"]
    left, right = toks[max(0, a - 2):a], toks[a + len(p["new"]):a + len(p["new"]) + 2]
    return " ".join(m), " ".join(left + ["_"] + right)


def discriminator(train, test, seed: int = 0) -> dict:
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegressionCV

    def xy(pairs):
        rows = [features(p, w) for p in pairs for w in ("orig", "new")]
        y = np.array([0, 1] * len(pairs))
        return [r[0] for r in rows], [r[1] for r in rows], y
    m_tr, c_tr, y_tr = xy(train)
    m_te, c_te, y_te = xy(test)
    vm = TfidfVectorizer(analyzer="char", ngram_range=(1, 5), lowercase=False, min_df=2, sublinear_tf=True)
    vc = TfidfVectorizer(analyzer="word", token_pattern=r"\S+", lowercase=False, min_df=2)
    x_tr = hstack([vm.fit_transform(m_tr), vc.fit_transform(c_tr)]).tocsr()
    x_te = hstack([vm.transform(m_te), vc.transform(c_te)]).tocsr()
    clf = LogisticRegressionCV(Cs=[0.1, 0.3, 1, 3, 10, 30], cv=5, max_iter=3000, random_state=seed)
    clf.fit(x_tr, y_tr)
    pred = clf.predict(x_te)
    correct = (pred == y_te).astype(float)
    # bootstrap over held-out sentences (a sentence's mentions, originals and surrogates, move together)
    sent_of = np.repeat([f"{p['set']}:{p['sent']}" for p in test], 2)
    keys, inv = np.unique(sent_of, return_inverse=True)
    per_k = np.bincount(inv, weights=correct, minlength=len(keys))
    per_n = np.bincount(inv, minlength=len(keys)).astype(float)
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(1000):
        idx = rng.integers(0, len(keys), len(keys))
        boots.append(per_k[idx].sum() / per_n[idx].sum())
    # what is left to find: a held-out original that was also a training original is recognised by heart
    seen = {" ".join(p["orig"]) for p in train}
    mem = np.repeat([" ".join(p["orig"]) in seen for p in test], 2)
    # the bound the exclusion rule sets: "original iff the mention is a training original" needs no model, and a
    # surrogate is never an original of its own corpus; the same lookup in front of the regression is the stronger
    text = np.array([features(p, w)[0] for p in test for w in ("orig", "new")], dtype=object)
    said_orig = np.array([t in seen for t in text])
    lookup = (said_orig == (y_te == 0)).astype(float)
    both = np.where(said_orig, 0, pred)
    both_ok = (both == y_te).astype(float)
    attacks = {"lookup": _sentence_bootstrap(lookup, sent_of, np.ones(len(lookup), bool), seed),
               "lookup_then_regression": _sentence_bootstrap(both_ok, sent_of, np.ones(len(both_ok), bool), seed),
               "surrogates_equal_to_a_training_original": int(said_orig[1::2].sum())}
    return {"accuracy": 100 * float(correct.mean()), "ci": [100 * float(np.percentile(boots, 2.5)),
                                                           100 * float(np.percentile(boots, 97.5))],
            "n_test": int(len(y_te)), "n_train": int(len(y_tr)), "sentences_test": int(len(keys)),
            "C": float(clf.C_[0]), "by_set": {s: 100 * float(correct[np.repeat([p["set"] == s for p in test], 2)]
                                                            .mean()) for s in sorted({p["set"] for p in test})},
            "by_set_ci": {s: _sentence_bootstrap(correct, sent_of, sent_of_set == s, seed)
                          for s in sorted({p["set"] for p in test})
                          for sent_of_set in [np.repeat([p["set"] for p in test], 2)]},
            "memorised": {"pairs": int(mem[::2].sum()), "of": len(test),
                          "accuracy_memorised": 100 * float(correct[mem].mean()) if mem.any() else None,
                          "accuracy_others": 100 * float(correct[~mem].mean()) if (~mem).any() else None},
            "other_attacks": attacks}


def _sentence_bootstrap(correct, sent_of, mask, seed: int, n: int = 1000) -> dict:
    """Accuracy of the mentions in `mask` with its 95 % bootstrap interval over their sentences, and the count."""
    keys, inv = np.unique(sent_of[mask], return_inverse=True)
    per_k = np.bincount(inv, weights=correct[mask], minlength=len(keys))
    per_n = np.bincount(inv, minlength=len(keys)).astype(float)
    rng = np.random.default_rng(seed)
    boots = [per_k[idx].sum() / per_n[idx].sum() for idx in (rng.integers(0, len(keys), len(keys)) for _ in range(n))]
    return {"accuracy": 100 * float(correct[mask].mean()), "ci": [100 * float(np.percentile(boots, 2.5)),
                                                                  100 * float(np.percentile(boots, 97.5))],
            "mentions": int(mask.sum()), "correct": int(correct[mask].sum()), "sentences": int(len(keys))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.environ.get("PYDEID_SHARED_DATA", "../shared/data"))
    ap.add_argument("--mini", default="/tmp/surrogate_fidelity_mini.conll")
    ap.add_argument("--show-failures", default="", help="tune: print the tuning parts' failures (never held-out)")
    ap.add_argument("--sample-out", default="", help="TSV of 50 seeded held-out pairs for a hand check")
    ap.add_argument("--no-attack", action="store_true")
    ap.add_argument("--final", action="store_true", help="score the held-out parts (without it: development mode, "
                    "tuning parts only, the attack trained and scored on two halves of them)")
    ap.add_argument("--out", required=True, help="JSON of the figures")
    a = ap.parse_args(argv)
    if not os.path.isdir(os.path.join(a.data, "text_snips")):
        raise SystemExit(f"{a.data}: no text_snips folder (give --data ../shared/data)")
    if not os.path.exists(a.mini):
        write_mini(a.mini)
    sets = load_sets(a.data, a.mini)
    pairs = {}
    for name, parts in sets.items():
        for part, sents in parts.items():
            ps = checked(transform(sents))
            for p in ps:
                p["set"] = name
            pairs[(name, part)] = ps
    out = {"fidelity": {}, "kinds": {}}
    for part in ("tune", "heldout") if a.final else ("tune",):
        allp = [p for n in BASE for p in pairs[(n, part)]]
        for label, ps in [(n, pairs[(n, part)]) for n in sets] + [("all four", allp)]:
            k = sum(not p["fails"] for p in ps)
            out["fidelity"][f"{part}/{label}"] = {"pass": k, "n": len(ps), "pct": 100 * k / max(1, len(ps)),
                                                  "ci": wilson(k, len(ps))}
        kinds = {}
        for p in allp:
            d = kinds.setdefault(p["kind"], {"pass": 0, "n": 0, "fails": {}})
            d["n"] += 1
            d["pass"] += not p["fails"]
            for f in p["fails"]:
                d["fails"][f] = d["fails"].get(f, 0) + 1
        for d in kinds.values():
            d["ci"] = wilson(d["pass"], d["n"])
        out["kinds"][part] = kinds
    if a.show_failures == "tune":
        for n in sets:
            for p in pairs[(n, "tune")]:
                if p["fails"]:
                    lo, hi = max(0, p["out_start"] - 3), p["out_start"] + len(p["new"]) + 3
                    print(f"FAIL {n} {p['type']} {p['kind']} {p['fails']}: {' '.join(p['orig'])!r} -> "
                          f"{' '.join(p['new'])!r} | {' '.join(p['out'][lo:hi])}")
    if a.sample_out and a.final:
        held = [p for n in BASE for p in pairs[(n, "heldout")]]
        rng = np.random.default_rng(1)
        with open(a.sample_out, "w", encoding="utf-8") as f:
            f.write("set\ttype\tkind\toriginal\tsurrogate\toutput context\tchecker\n")
            for i in sorted(rng.choice(len(held), 50, replace=False)):
                p = held[i]
                ctx = " ".join(p["out"][max(0, p["out_start"] - 4):p["out_start"] + len(p["new"]) + 4])
                f.write(f"{p['set']}\t{p['type']}\t{p['kind']}\t{' '.join(p['orig'])}\t{' '.join(p['new'])}\t{ctx}\t"
                        f"{','.join(p['fails']) or 'pass'}\n")
    if not a.no_attack:
        def split(names):
            if a.final:
                return ([p for n in names for p in pairs[(n, "tune")]],
                        [p for n in names for p in pairs[(n, "heldout")]])
            tune = [p for n in names for p in pairs[(n, "tune")]]
            return [p for p in tune if p["sent"] % 2 == 0], [p for p in tune if p["sent"] % 2 == 1]
        out["attack"] = discriminator(*split(BASE))
        out["attack_lc"] = discriminator(*split(("mini_lc", "tab_lc")))
        out["attack"]["scored_on"] = out["attack_lc"]["scored_on"] = "held-out" if a.final else "tuning halves"
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    for key, v in out["fidelity"].items():
        print(f"fidelity {key:20s} {v['pass']}/{v['n']} = {v['pct']:.1f} % [{v['ci'][0]:.1f}, {v['ci'][1]:.1f}]")
    for k, d in sorted(out["kinds"]["heldout" if a.final else "tune"].items()):
        print(f"{'heldout' if a.final else 'tune'} kind {k:10s} {d['pass']}/{d['n']} fails {d['fails']}")
    for key in ("attack", "attack_lc"):
        if key in out:
            r = out[key]
            print(f"{key}: accuracy {r['accuracy']:.1f} % [{r['ci'][0]:.1f}, {r['ci'][1]:.1f}] on {r['n_test']} "
                  f"mentions ({r['sentences_test']} sentences), trained on {r['n_train']}, C={r['C']}")
            for name, b in r["by_set_ci"].items():
                print(f"  {name:8s} {b['accuracy']:.1f} % [{b['ci'][0]:.1f}, {b['ci'][1]:.1f}] "
                      f"({b['correct']}/{b['mentions']} mentions, {b['sentences']} sentences)")
            m = r["memorised"]
            print(f"  originals also seen as training originals: {m['pairs']}/{m['of']} pairs, accuracy on them "
                  f"{m['accuracy_memorised']:.1f} %, on the others {m['accuracy_others']:.1f} %")
            for name in ("lookup", "lookup_then_regression"):
                b = r["other_attacks"][name]
                print(f"  attack {name}: {b['accuracy']:.1f} % [{b['ci'][0]:.1f}, {b['ci'][1]:.1f}] "
                      f"({b['correct']}/{b['mentions']} mentions)")
            print(f"  surrogates equal to a training original: {r['other_attacks']['surrogates_equal_to_a_training_original']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
