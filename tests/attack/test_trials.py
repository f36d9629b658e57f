"""Trial lists: never pair an utterance with itself, never put an enrollment utterance among trials, labels agree
with utt2spk; deterministic under --seed; check_trials refuses broken lists with file and line."""

import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from pydeid.attack.trials import check_trials, make_trials, read_trials, trial_subset, write_trials
from pydeid.io import DataDir, FormatError


def synthetic(counts, genders=None):
    d = DataDir(utt2gender={})
    for i, n in enumerate(counts):
        spk = f"s{i:02d}"
        for j in range(n):
            u = f"{spk}-u{j:03d}"
            d.wav_scp[u] = f"/nonexistent/{u}.wav"
            d.text[u] = "hello"
            d.utt2spk[u] = spk
            d.utt2gender[u] = (genders[i] if genders else "mf"[i % 2])
    return d


def assert_properties(data, enroll, trial, trials):
    enroll_utts, trial_utts = set(enroll.utt2spk), set(trial.utt2spk)
    assert not enroll_utts & trial_utts
    assert enroll_utts | trial_utts <= set(data.utt2spk)
    for spk, utt, label in trials:
        assert utt not in enroll_utts                     # never an enrollment utterance among trials
        assert utt not in enroll.spk2utt[spk]             # never paired with itself
        assert label == ("target" if data.utt2spk[utt] == spk else "nontarget")
    assert len(set((s, u) for s, u, _ in trials)) == len(trials)
    # every trial utterance has exactly one target trial
    targets = Counter(u for _, u, lab in trials if lab == "target")
    assert set(targets) == trial_utts and set(targets.values()) == {1}


# Random corpora drawn from a fixed seed (hypothesis is not used here: its constant collection walks
# sys.modules and trips over speechbrain's lazy optional modules once speechbrain is imported).
CASES = [(list(r.integers(1, 9, r.integers(2, 8))), int(r.integers(0, 1000)),
          None if r.random() < 0.3 else int(r.integers(1, 7)))
         for r in [np.random.default_rng(k) for k in range(60)]]


@pytest.mark.parametrize("counts,seed,num_enroll", [c for c in CASES if sum(n >= 2 for n in c[0]) >= 1])
def test_properties_hold_for_any_corpus(counts, seed, num_enroll):
    data = synthetic(counts)
    enroll, trial, trials = make_trials(data, num_enroll=num_enroll, seed=seed)
    assert_properties(data, enroll, trial, trials)
    # every speaker with >= 2 utterances is enrolled with at least one and tested with at least one utterance
    assert set(enroll.spk2utt) == {f"s{i:02d}" for i, c in enumerate(counts) if c >= 2}
    assert set(trial.spk2utt) == set(enroll.spk2utt)


def test_deterministic_and_seeded():
    data = synthetic([6, 6, 6, 6])
    a = make_trials(data, num_enroll=2, seed=1)
    b = make_trials(data, num_enroll=2, seed=1)
    c = make_trials(data, num_enroll=2, seed=2)
    assert a[2] == b[2] and a[0].utts == b[0].utts
    assert a[0].utts != c[0].utts


def test_same_gender_and_sampled_nontargets():
    data = synthetic([4, 4, 4, 4, 4, 4], genders="mmmfff")
    enroll, trial, trials = make_trials(data, num_enroll=2, seed=0, same_gender_nontargets=True)
    assert_properties(data, enroll, trial, trials)
    assert all(trial_subset(enroll, trial, s, u) is not None for s, u, _ in trials)
    enroll, trial, trials = make_trials(data, num_enroll=2, seed=0, max_nontargets_per_utt=2)
    assert_properties(data, enroll, trial, trials)
    assert set(Counter(u for _, u, lab in trials if lab == "nontarget").values()) == {2}


def test_gender_subsets():
    data = synthetic([3, 3, 3], genders="mfm")
    enroll, trial, trials = make_trials(data, num_enroll=1, seed=0)
    subs = Counter(trial_subset(enroll, trial, s, u) for s, u, _ in trials)
    # 6 trial utts x 3 speakers: same-gender pairs m-m: 4 utts x 2 spk = 8; f-f: 2 x 1 = 2; cross: 8
    assert subs == {"m": 8, "f": 2, None: 8}


def test_check_trials_refuses_enrollment_utterance(tmp_path):
    data = synthetic([4, 4])
    enroll, trial, trials = make_trials(data, num_enroll=2, seed=0)
    bad = trials + [("s00", enroll.spk2utt["s00"][0], "target")]
    # the enrollment utterance is not in the trial data: refused
    with pytest.raises(FormatError, match="not in the trial data"):
        check_trials(bad, enroll, trial, tmp_path / "trials")
    # a trial data dir that shares an utterance with the enrollment data: refused
    leaky = data.subset(trial.utts + [enroll.spk2utt["s00"][0]])
    with pytest.raises(FormatError, match="both an enrollment and a trial utterance"):
        check_trials(trials, enroll, leaky)


def test_check_trials_refuses_wrong_label_with_line(tmp_path):
    data = synthetic([3, 3])
    enroll, trial, trials = make_trials(data, num_enroll=1, seed=0)
    i = next(k for k, t in enumerate(trials) if t[2] == "nontarget")
    trials[i] = (trials[i][0], trials[i][1], "target")
    with pytest.raises(FormatError, match=rf"trials:{i + 1}: .* labelled target"):
        check_trials(trials, enroll, trial, tmp_path / "trials")


def test_read_write_round_trip_and_bad_lines(tmp_path):
    trials = [("s01", "s01-u001", "target"), ("s00", "s01-u001", "nontarget")]
    write_trials(tmp_path / "trials", trials)
    assert read_trials(tmp_path / "trials") == sorted(trials)
    (tmp_path / "bad").write_text("s00 s01-u001 target\ns00 s01-u002 maybe\n")
    with pytest.raises(FormatError, match=r"bad:2:"):
        read_trials(tmp_path / "bad")


def test_cli_make_trials(tmp_path, repo_root):
    data = synthetic([5, 5, 5])
    data.write(tmp_path / "data")
    before = {p.name: p.read_bytes() for p in (tmp_path / "data").iterdir()}
    r = subprocess.run([sys.executable, "-m", "pydeid", "make-trials", "--num-enroll", "2", str(tmp_path / "data"),
                        str(tmp_path / "enroll"), str(tmp_path / "trial")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "9 target and 18 non-target trials" in r.stdout
    assert {p.name: p.read_bytes() for p in (tmp_path / "data").iterdir()} == before  # input untouched
    enroll, trial = DataDir.read(tmp_path / "enroll"), DataDir.read(tmp_path / "trial")
    assert_properties(data, enroll, trial, read_trials(tmp_path / "trial" / "trials"))
