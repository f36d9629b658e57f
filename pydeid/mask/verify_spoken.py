"""verify-spoken: prove that a spoken-pseudonym data dir keeps nothing of the original inside its intervals.

For every utterance, the secret plan of `spoken_data_dir` is read and every interval's insert is rendered again
from its entry alone (text, espeak voice, F0/level targets, lengths: nothing of the original signal). Each output
sample inside an interval must equal that insert's sample or be zero (silence); any other sample makes the
interval a leak (with a noise floor, the rendered interval is the insert plus its seeded synthetic noise).
What the inserts say: each surrogate an insert speaks is checked against the original entities of its dialogue
(from the original tags: pydeid.mask.originals); an insert that says an original word, value, digit string or
spelling is a leak however clean its samples are. Structure checks: the plan's intervals cover every hidden entity of the reference tags + CTM (an entity outside
every interval is a leak), the untouched stretches sit where the plan's shifts put them, the output length is the
plan's, and no wav.scp entry points to the original audio.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import soundfile as sf

from pydeid.io import DataDir, ctm_by_utt, read_ctm

from .core import entity_times, parse_tagset
from .match import MatchError
from .pipeline import load_tags
from .spoken import SR, render_interval


@dataclass
class SpokenLeakReport:
    utterances: int = 0
    intervals: int = 0
    inserts: int = 0
    samples_checked: int = 0
    audio_leaks: list[dict] = field(default_factory=list)      # interval samples neither insert nor silence
    uncovered: list[dict] = field(default_factory=list)        # hidden entities outside every interval
    unverifiable: list[dict] = field(default_factory=list)     # no plan, wrong length, CTM mismatch
    said_originals: list[dict] = field(default_factory=list)   # inserts whose words say an original entity
    original_audio_refs: list[str] = field(default_factory=list)
    conversion_checked: int = 0                                # published utterances re-converted from the fill
    conversion_mismatch: list[str] = field(default_factory=list)   # ... whose samples differ from the published

    @property
    def n_leaks(self) -> int:
        return len(self.audio_leaks) + len(self.uncovered) + len(self.unverifiable) + len(self.original_audio_refs) \
            + len(self.conversion_mismatch) + len(self.said_originals)

    def summary(self) -> dict:
        return {"utterances": self.utterances, "intervals": self.intervals, "inserts": self.inserts,
                "samples_checked": self.samples_checked, "audio_leaks": len(self.audio_leaks),
                "uncovered": len(self.uncovered), "unverifiable": len(self.unverifiable),
                "said_originals": len(self.said_originals),
                "original_audio_refs": len(self.original_audio_refs), "conversion_checked": self.conversion_checked,
                "conversion_mismatch": len(self.conversion_mismatch), "total_leaks": self.n_leaks}


def verify_spoken(out_data, secret_dir, tags_path=None, ctm_path=None, tagset="all",
                  orig_data=None, published=None, conversion=None, check_utts: int = 0,
                  check_seed: int = 0) -> SpokenLeakReport:
    """`out_data`: the mask-spoken output. With `published` (its conversion, `pydeid convert-spoken`), `conversion`
    (the exp dir of the original's conversion) and `orig_data`: the published audio must be the conversion of
    the verified fill -- `check_utts` utterances (0: all) are re-converted and compared sample by sample, the
    published wav.scp may name neither the fill nor the original, and its text must be the fill's."""
    d = DataDir.read(out_data)
    plan_dir = Path(secret_dir) / "spoken_plan"
    tset = parse_tagset(tagset)
    tags = load_tags(tags_path) if tags_path else {}
    words = ctm_by_utt(read_ctm(ctm_path)) if ctm_path else {}
    rep = SpokenLeakReport()
    if orig_data:
        od = DataDir.read(orig_data)
        orig = {os.path.realpath(v.strip()) for v in od.wav_scp.values()} | {v.strip() for v in od.wav_scp.values()}
        rep.original_audio_refs = [u for u, v in d.wav_scp.items()
                                   if v.strip() in orig or os.path.realpath(v.strip()) in orig]
    if tags:
        from .originals import dialogue_entities, dialogues
        dlg = dialogues(out_data, d.utts, d.utt2spk)
        dents = dialogue_entities(tags, d.utts, dlg)
    if published is not None:
        _check_published(rep, d, out_data, published, conversion, orig_data, check_utts, check_seed)
    for utt in d.utts:
        rep.utterances += 1
        pf = plan_dir / f"{utt}.json"
        if not pf.exists():
            rep.unverifiable.append({"utt": utt, "reason": f"no plan {pf}"})
            continue
        plan = json.loads(pf.read_text())
        y, sr = sf.read(d.wav_scp[utt].strip(), dtype="int16")
        if sr != SR or y.ndim != 1 or len(y) != plan["out_samples"]:
            rep.unverifiable.append({"utt": utt, "reason": f"audio {len(y)} samples at {sr} Hz, plan says "
                                                           f"{plan['out_samples']} at {SR}"})
            continue
        ivs = plan["intervals"]
        # the untouched stretches must sit where the plan's shifts put them (no interval missing from the plan)
        prev_in = prev_out = 0
        for e in ivs:
            if e["out"][0] - prev_out != e["in"][0] - prev_in or e["in"][0] < prev_in:
                rep.unverifiable.append({"utt": utt, "reason": f"interval {e['in']} misplaced in the plan"})
            prev_in, prev_out = e["in"][1], e["out"][1]
        if plan["out_samples"] - prev_out != plan["in_samples"] - prev_in:
            rep.unverifiable.append({"utt": utt, "reason": "output length does not follow the plan"})
        # every hidden entity of the reference inside one interval
        if utt in tags:
            try:
                ents = entity_times(utt, tags[utt], words.get(utt, []), tset, strict=False)
            except MatchError as ex:
                rep.unverifiable.append({"utt": utt, "reason": str(ex)})
                ents = []
            for s, e, t, idx in ents:
                a, b = int(np.ceil(s * SR)), min(plan["in_samples"], int(np.floor(e * SR)))
                if b > a and not any(iv["in"][0] <= a and b <= iv["in"][1] for iv in ivs):
                    rep.uncovered.append({"utt": utt, "type": t, "tokens": idx, "start": round(s, 3),
                                          "end": round(e, 3)})
        if utt in tags:
            _check_words(rep, utt, ivs, tags[utt], dents.get(dlg[utt], []))
        for e in ivs:
            rep.intervals += 1
            o0, o1 = e["out"]
            seg = y[o0:o1]
            if e["tokens"] or e.get("noise"):
                rep.inserts += bool(e["tokens"])
                exp, _, _ = render_interval(e)
            else:
                exp = np.zeros(o1 - o0, np.int16)
            rep.samples_checked += len(seg)
            if len(exp) != len(seg):
                rep.audio_leaks.append({"utt": utt, "out": [o0, o1], "reason": f"insert has {len(exp)} samples"})
                continue
            bad = (seg != exp) & (seg != 0)
            if bad.any():
                rep.audio_leaks.append({"utt": utt, "out": [o0, o1], "foreign_samples": int(bad.sum()),
                                        "first": int(o0 + np.flatnonzero(bad)[0])})
    return rep


def _check_words(rep: SpokenLeakReport, utt: str, ivs: list[dict], orig, originals) -> None:
    """Each surrogate spoken by an insert (its tokens, grouped by the plan's entity numbers) against the dialogue's
    original entities. A plan without entity numbers (older versions): every insert word that is not an untagged
    word of the original utterance."""
    from .originals import leaks
    for e in ivs:
        toks = e.get("tokens") or []
        if not toks:
            continue
        ent = e.get("ent")
        if ent is None:
            plain = {t for t, g in zip(orig.tokens, orig.tags) if g == "O"}
            groups = [[t for t in toks if t not in plain]]
        else:
            groups = [[t for t, k in zip(toks, ent) if k == n] for n in sorted(set(ent) - {-1})]
        for g in groups:
            why = leaks(g, originals) if g else []
            if why:
                rep.said_originals.append({"utt": utt, "out": e["out"], "says": " ".join(g), "reason": why[0]})


def _check_published(rep: SpokenLeakReport, filled: DataDir, filled_path, published, conversion, orig_data,
                     check_utts: int, check_seed: int) -> None:
    from pydeid.voice.spoken_convert import check_conversion
    if not (conversion and orig_data):
        raise ValueError("checking the published conversion needs the conversion exp dir and the original data dir")
    pub = DataDir.read(published)
    if set(pub.utts) != set(filled.utts):
        rep.unverifiable.append({"utt": "*", "reason": f"{published} and {filled_path} hold different utterances"})
    for u in pub.utts:
        if u in filled.text and pub.text.get(u) != filled.text[u]:
            rep.unverifiable.append({"utt": u, "reason": "published text differs from the verified fill's"})
    fill_paths = {v.strip() for v in filled.wav_scp.values()} | \
        {os.path.realpath(v.strip()) for v in filled.wav_scp.values()}
    rep.original_audio_refs += [f"{u} (names the unconverted fill)" for u, v in pub.wav_scp.items()
                                if v.strip() in fill_paths or os.path.realpath(v.strip()) in fill_paths]
    od = DataDir.read(orig_data)
    orig = {os.path.realpath(v.strip()) for v in od.wav_scp.values()} | {v.strip() for v in od.wav_scp.values()}
    rep.original_audio_refs += [u for u, v in pub.wav_scp.items()
                                if v.strip() in orig or os.path.realpath(v.strip()) in orig]
    c = check_conversion(orig_data, filled_path, conversion, published, check_utts, check_seed)
    rep.conversion_checked = c["checked"]
    rep.conversion_mismatch = c["mismatched"] + c["missing"]
