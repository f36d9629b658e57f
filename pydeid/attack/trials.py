"""Speaker-verification trials: enrollment/trial split of a data dir and Kaldi trials files.

A trials file has lines `<enroll-speaker> <trial-utterance> target|nontarget`. Two properties are guaranteed by
make_trials and enforced by check_trials before any scoring: no trial utterance is also an enrollment
utterance (so an utterance is never scored against a model built from itself), and every label agrees with
utt2spk. Gender subsets: a trial belongs to the male (female) subset when its enrolled speaker and its trial
utterance are both male (female); cross-gender non-target trials count in the pooled set only.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np

from pydeid.io import DataDir, FormatError, atomic_write_text, kaldi_sort_key

log = logging.getLogger(__name__)
LABELS = ("target", "nontarget")


def read_trials(path: str | os.PathLike) -> list[tuple[str, str, str]]:
    path = Path(path)
    if not path.is_file():
        raise FormatError(path, None, "trials file is missing")
    out, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 3 or fields[2] not in LABELS:
                raise FormatError(path, lineno, f"expected '<enroll-speaker> <utterance> target|nontarget', got "
                                  f"'{line.rstrip()}'")
            key = (fields[0], fields[1])
            if key in seen:
                raise FormatError(path, lineno, f"duplicate trial {fields[0]} {fields[1]}")
            seen.add(key)
            out.append((fields[0], fields[1], fields[2]))
    if not out:
        raise FormatError(path, None, "trials file is empty")
    return out


def write_trials(path: str | os.PathLike, trials: list[tuple[str, str, str]]) -> None:
    rows = sorted(trials, key=lambda t: (kaldi_sort_key(t[0]), kaldi_sort_key(t[1])))
    atomic_write_text(path, "".join(f"{s} {u} {lab}\n" for s, u, lab in rows))


def speaker_gender(data: DataDir, spk: str) -> str | None:
    if data.spk2gender and spk in data.spk2gender:
        return data.spk2gender[spk]
    genders = {data.gender(u) for u in data.spk2utt.get(spk, [])} - {None}
    return genders.pop() if len(genders) == 1 else None


def check_trials(trials: list[tuple[str, str, str]], enroll: DataDir, trial: DataDir,
                 trials_path: str | os.PathLike = "trials") -> None:
    """Raise FormatError naming the trials line that breaks a rule."""
    enroll_utts = set(enroll.utt2spk)
    enroll_spks = set(enroll.spk2utt)
    overlap = enroll_utts & set(trial.utt2spk)
    if overlap:
        u = sorted(overlap)[0]
        raise FormatError(Path(trial.path or ".") / "utt2spk", None,
                          f"utterance '{u}' is both an enrollment and a trial utterance ({len(overlap)} such)")
    for lineno, (spk, utt, label) in enumerate(trials, 1):
        if spk not in enroll_spks:
            raise FormatError(trials_path, lineno, f"speaker '{spk}' is not in the enrollment data")
        if utt not in trial.utt2spk:
            raise FormatError(trials_path, lineno, f"utterance '{utt}' is not in the trial data")
        if utt in enroll.spk2utt[spk]:
            raise FormatError(trials_path, lineno, f"utterance '{utt}' is one of the enrollment utterances of "
                              f"'{spk}'")
        truth = trial.utt2spk[utt]
        if truth in enroll_spks or label == "target":
            expected = "target" if truth == spk else "nontarget"
            if label != expected:
                raise FormatError(trials_path, lineno, f"'{spk} {utt}' is labelled {label} but utt2spk says the "
                                  f"utterance is spoken by '{truth}'")


def trial_subset(enroll: DataDir, trial: DataDir, spk: str, utt: str) -> str | None:
    """'m' or 'f' when enrolled speaker and trial utterance have that gender, else None (pooled only)."""
    g1, g2 = speaker_gender(enroll, spk), trial.gender(utt)
    return g1 if g1 is not None and g1 == g2 else None


def make_trials(data: DataDir, num_enroll: int | None = None, enroll_fraction: float | None = None,
                seed: int = 0, same_gender_nontargets: bool = False,
                max_nontargets_per_utt: int | None = None) -> tuple[DataDir, DataDir, list]:
    """Split each speaker's utterances into enrollment and trial utterances; pair every trial utterance with
    its own speaker (target) and with the other enrolled speakers (non-target; optionally only those of the
    same gender, optionally a seeded random sample of at most max_nontargets_per_utt of them).

    num_enroll utterances per speaker (default: enroll_fraction of them, default 0.5), always at least one
    and at most all but one; speakers with a single utterance cannot be both enrolled and tested: skipped.
    """
    if num_enroll is not None and num_enroll < 1:
        raise ValueError("num_enroll must be >= 1")
    if enroll_fraction is None:
        enroll_fraction = 0.5
    if not 0 < enroll_fraction < 1:
        raise ValueError("enroll_fraction must be in (0, 1)")
    rng = np.random.default_rng(seed)
    enroll_utts, trial_utts = [], []
    skipped = []
    for spk, utts in data.spk2utt.items():
        if len(utts) < 2:
            skipped.append(spk)
            continue
        k = num_enroll if num_enroll is not None else int(round(enroll_fraction * len(utts)))
        k = min(max(k, 1), len(utts) - 1)
        order = [utts[i] for i in rng.permutation(len(utts))]
        enroll_utts += order[:k]
        trial_utts += order[k:]
    if skipped:
        log.warning("%d speaker(s) with a single utterance cannot be enrolled and tested: skipped (%s)",
                    len(skipped), " ".join(skipped[:5]))
    enroll, trial = data.subset(enroll_utts), data.subset(trial_utts)
    spks = enroll.speakers
    genders = {s: speaker_gender(enroll, s) for s in spks}
    trials = []
    for utt in trial.utts:
        own = trial.utt2spk[utt]
        trials.append((own, utt, "target"))
        others = [s for s in spks if s != own]
        if same_gender_nontargets:
            others = [s for s in others if genders[s] is not None and genders[s] == genders[own]]
        if max_nontargets_per_utt is not None and len(others) > max_nontargets_per_utt:
            others = [others[i] for i in sorted(rng.choice(len(others), max_nontargets_per_utt, replace=False))]
        trials += [(s, utt, "nontarget") for s in others]
    trials.sort(key=lambda t: (kaldi_sort_key(t[0]), kaldi_sort_key(t[1])))
    check_trials(trials, enroll, trial)
    return enroll, trial, trials
