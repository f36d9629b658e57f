"""Audio entity recall: did the chain hide the audio of each gold sensitive word?

Gold: tags (BIO, one sentence per utterance) and word times (CTM) of the words really spoken. A chain (tags it
detected on some transcript + the word times it masked with) hides intervals computed exactly as
steps/mask_words.sh does (pydeid.mask.pipeline.plan_masks: entity span from its first to its last word,
extended over the neighbouring pauses, padded by `pad` seconds, clamped, merged). A gold sensitive token counts
as hidden when the hidden intervals cover at least `min_overlap` (default 50 %) of its gold duration. An
utterance the masking would drop (its tagged words cannot be timed) publishes no audio: its tokens count as
hidden and the utterance is counted apart.

recall = hidden gold sensitive tokens / gold sensitive tokens
cost   = hidden time inside gold NON-sensitive words / total time of gold non-sensitive words
Both with a 95 % bootstrap interval over utterances (ratio of sums, resampled utterances).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pydeid.io import DataDir
from pydeid.io.audio import audio_duration
from pydeid.io.ctm import ctm_by_utt, read_ctm
from pydeid.mask.core import mask_intervals, parse_tagset
from pydeid.mask.match import MatchError, match_tokens
from pydeid.mask.pipeline import MaskOptions, load_tags, plan_masks


def gold_words(gold_tags: str | Path, gold_ctm: str | Path, tagset: str = "all"
               ) -> dict[str, list[tuple[float, float, bool, str]]]:
    """Per utterance: (start, end, sensitive, token) of every gold token that has a time."""
    tags = load_tags(gold_tags)
    ctm = ctm_by_utt(read_ctm(gold_ctm))
    hidden = parse_tagset(tagset)
    out = {}
    for utt, sent in tags.items():
        words = ctm.get(utt, [])
        sens = {i for s, e, t in sent.spans() if t.upper() in hidden for i in range(s, e)}
        pairs = match_tokens(sent.tokens, [w.token for w in words], utt, required=sens, strict=False)
        toks = []
        for i, js in enumerate(pairs):
            if js:
                toks.append((min(words[j].start for j in js), max(words[j].end for j in js), i in sens,
                             sent.tokens[i]))
        out[utt] = toks
    return out


def chain_intervals(data: str | Path, tags: str | Path, ctm: str | Path, pad: float = 0.1, tagset: str = "all",
                    absorb_gaps: bool = True) -> dict[str, list[tuple[float, float]] | None]:
    """Per utterance: the intervals steps/mask_words.sh would hide, or None when it would drop the utterance."""
    d = DataDir.read(data, validate=False)
    opts = MaskOptions(tagset=tagset, pad=pad, absorb_gaps=absorb_gaps, on_untimed="drop")
    words = ctm_by_utt(read_ctm(ctm))
    plan = plan_masks(d, load_tags(tags), words, parse_tagset(tagset), opts, tags, ctm)
    durs = d.utt2dur or {}
    out = {}
    for utt, p in plan.items():
        if "dropped" in p:
            out[utt] = None
            continue
        dur = durs.get(utt) or audio_duration(d.wav_scp[utt])
        out[utt] = mask_intervals(p["entities"], pad, dur)
    return out


def _overlap(a: float, b: float, iv: list[tuple[float, float]]) -> float:
    return sum(max(0.0, min(b, e) - max(a, s)) for s, e in iv)


def score_utterances(gold: dict, hidden: dict, min_overlap: float = 0.5) -> dict[str, dict]:
    """Per utterance of the chain: sensitive tokens, hidden ones, the missed tokens, non-sensitive time and its
    hidden part."""
    out = {}
    for utt, toks in gold.items():
        if utt not in hidden:   # the chain ran on a subset: only its utterances are scored
            continue
        iv = hidden[utt]
        dropped = utt in hidden and hidden[utt] is None
        r = {"sens": 0, "hit": 0, "missed": [], "ns_time": 0.0, "ns_hidden": 0.0, "dropped": dropped}
        for s, e, sens, tok in toks:
            dur = max(e - s, 1e-6)
            cov = dur if dropped else _overlap(s, e, iv or [])
            if sens:
                r["sens"] += 1
                if cov >= min_overlap * dur:
                    r["hit"] += 1
                else:
                    r["missed"].append(tok)
            else:
                r["ns_time"] += dur
                r["ns_hidden"] += min(cov, dur)
        out[utt] = r
    return out


def ratio_ci(num: np.ndarray, den: np.ndarray, n_boot: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """sum(num)/sum(den) in % and its 95 % bootstrap interval over the rows (utterances)."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    if den.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(num), size=(n_boot, len(num)))
    d = den[idx].sum(1)
    boots = num[idx].sum(1)[d > 0] / d[d > 0]
    lo, hi = np.percentile(boots, [2.5, 97.5])
    return 100 * num.sum() / den.sum(), 100 * lo, 100 * hi


def summarize(per_utt: dict[str, dict], n_boot: int = 2000, seed: int = 0) -> dict:
    utts = sorted(per_utt)
    col = lambda k: np.array([per_utt[u][k] for u in utts], float)  # noqa: E731
    rec = ratio_ci(col("hit"), col("sens"), n_boot, seed)
    cost = ratio_ci(col("ns_hidden"), col("ns_time"), n_boot, seed)
    return {"utterances": len(utts), "sensitive_tokens": int(col("sens").sum()), "hidden": int(col("hit").sum()),
            "recall_pct": rec[0], "recall_ci": [rec[1], rec[2]],
            "nonsensitive_s": float(col("ns_time").sum()), "cost_pct": cost[0], "cost_ci": [cost[1], cost[2]],
            "dropped_utterances": int(sum(per_utt[u]["dropped"] for u in utts)),
            "missed": {u: per_utt[u]["missed"] for u in utts if per_utt[u]["missed"]}}


def format_summary(s: dict) -> str:
    """One line for a log: recall and cost with their intervals and counts (the benches and the CLI print it)."""
    return (f"audio entity recall {s['recall_pct']:.1f} % [{s['recall_ci'][0]:.1f}, {s['recall_ci'][1]:.1f}] "
            f"({s['hidden']}/{s['sensitive_tokens']} gold sensitive words), cost {s['cost_pct']:.1f} % "
            f"[{s['cost_ci'][0]:.1f}, {s['cost_ci'][1]:.1f}] of {s['nonsensitive_s']:.0f} s of non-sensitive "
            f"speech hidden; {s['utterances']} utterances, {s['dropped_utterances']} dropped")


def why_missed(gold: dict, per_utt: dict, tags: str | Path, ctm: str | Path, tagset: str = "all") -> dict[str, int]:
    """Each missed gold sensitive token, by cause: 'misrecognised' (no word of the chain's transcript that
    overlaps it in time has the same spelling), 'not detected' (the transcript has the word there, untagged),
    'timing' (the word is there and tagged, but its hidden interval covers too little of the gold word)."""
    from pydeid.align.normalize import match_key
    sents = load_tags(tags)
    words = ctm_by_utt(read_ctm(ctm))
    hidden = parse_tagset(tagset)
    out = {"misrecognised": 0, "not detected": 0, "timing": 0}
    for utt, r in per_utt.items():
        if not r["missed"]:
            continue
        ws = words.get(utt, [])
        tagged = set()
        if utt in sents and ws:
            s = sents[utt]
            sens = {i for a, b, t in s.spans() if t.upper() in hidden for i in range(a, b)}
            try:
                pairs = match_tokens(s.tokens, [w.token for w in ws], utt, strict=False)
                tagged = {j for i in sens for j in pairs[i]}
            except MatchError:
                pass
        todo = list(r["missed"])
        for s0, e0, sens, tok in gold[utt]:
            if not sens or tok not in todo:
                continue
            todo.remove(tok)
            near = [j for j, w in enumerate(ws) if min(e0, w.end) > max(s0, w.start) - 0.2
                    and match_key(w.token) == match_key(tok)]
            if not near:
                out["misrecognised"] += 1
            elif not any(j in tagged for j in near):
                out["not detected"] += 1
            else:
                out["timing"] += 1
    return out
