"""From several score dirs (one per method x strategy x scenario), `pydeid attack-table` writes the seed 004
layout: one RESULTS.md section per scenario, rows Pooled / Male / Female, columns method x strategy."""

import json
import re
import subprocess
import sys

import numpy as np

from pydeid.attack.embeddings import write_vectors
from pydeid.attack.evaluate import evaluate
from pydeid.attack.trials import make_trials, write_trials
from pydeid.io import DataDir, write_kaldi_map

COLUMNS = [("voicemask", "3"), ("vtln", "1"), ("vtln", "2"), ("vtln", "3"), ("mcadams", "-")]
SCENARIOS = ["ignorant", "lazy-informed", "semi-informed"]


def corpus(n_spk, n_utt, prefix):
    d = DataDir(utt2gender={}, spk2gender={})
    for i in range(n_spk):
        spk = f"{prefix}{i:02d}"
        d.spk2gender[spk] = "mf"[i % 2]
        for j in range(n_utt):
            u = f"{spk}-{j:02d}"
            d.wav_scp[u], d.text[u], d.utt2spk[u], d.utt2gender[u] = f"/nonexistent/{u}.wav", "x", spk, "mf"[i % 2]
    return d


def embed(data, rng, dim, noise):
    """Speaker mean (fixed per speaker id) + session noise: larger noise = better voice protection."""
    means = {s: np.random.default_rng(abs(hash(s)) % 2**32).normal(size=dim) for s in data.spk2utt}
    return {u: means[data.utt2spk[u]] + rng.normal(0, noise, dim) for u in data.utts}


def xvec_dir(path, data, vectors):
    path.mkdir(parents=True)
    write_vectors(path / "xvector.ark", path / "xvector.scp", vectors)
    write_kaldi_map(path / "utt2spk", data.utt2spk)


def test_table_layout_from_score_dirs(tmp_path):
    rng = np.random.default_rng(0)
    dim = 16
    train = corpus(10, 6, "tr")
    enroll, trial, trials = make_trials(corpus(6, 6, "te"), num_enroll=2, seed=0)
    for name, d in (("train", train), ("enroll", enroll), ("trial", trial)):
        d.write(tmp_path / name)
    write_trials(tmp_path / "trial" / "trials", trials)
    score_dirs = []
    for k, scenario in enumerate(SCENARIOS):
        for c, (method, strategy) in enumerate(COLUMNS):
            noise = 0.3 + 0.4 * c + 0.5 * (2 - k)  # ignorant attacker fares worst
            run = tmp_path / f"{scenario}_{method}_{strategy}"
            xvec_dir(run / "xv_train", train, embed(train, rng, dim, noise))
            xvec_dir(run / "xv_enroll", enroll, embed(enroll, rng, dim, noise))
            xvec_dir(run / "xv_trial", trial, embed(trial, rng, dim, noise))
            evaluate(run / "xv_train", tmp_path / "enroll", run / "xv_enroll", tmp_path / "trial",
                     run / "xv_trial", tmp_path / "trial" / "trials", run / "scores",
                     info={"scenario": scenario, "method": method, "strategy": strategy}, plots=(k == 0 and c == 0),
                     lda_dim=8, plda_rank=8)
            score_dirs.append(str(run / "scores"))
    assert (tmp_path / "ignorant_voicemask_3" / "scores" / "det_plda.png").stat().st_size > 1000
    m = json.loads((tmp_path / "ignorant_voicemask_3" / "scores" / "metrics.json").read_text())
    assert set(m["backends"]) == {"cosine", "plda"} and set(m["backends"]["plda"]) == {"pooled", "male", "female"}

    results = tmp_path / "RESULTS.md"
    results.write_text("# RESULTS\n\n<!-- begin asr -->\nasr table kept\n<!-- end asr -->\n")
    r = subprocess.run([sys.executable, "-m", "pydeid", "attack-table", "--results", str(results)] + score_dirs[::-1],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = results.read_text()
    assert "asr table kept" in text
    header = "| Subset | VoiceMask S3 | VTLN S1 | VTLN S2 | VTLN S3 | McAdams |"
    for scenario in SCENARIOS:
        section = re.search(rf"<!-- begin attack_{scenario} -->(.*?)<!-- end attack_{scenario} -->", text, re.S)
        assert section, scenario
        body = section.group(1)
        lines = [ln for ln in body.splitlines() if ln.startswith("| ")]
        assert re.sub(r" +", " ", lines[0]) == header
        rows = [re.sub(r" +", " ", ln).split(" | ") for ln in lines[1:4]]
        assert [row[0] for row in rows] == ["| Pooled", "| Male", "| Female"]
        cells = [re.fullmatch(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", v.strip(" |")) for v in rows[0][1:]]
        assert len(cells) == 5 and all(cells), rows[0]
        for c in cells:  # EER with its 95 % speaker-bootstrap interval around it
            eer, lo, hi = map(float, c.groups())
            assert 0 <= lo <= eer + 0.05 and eer - 0.05 <= hi <= 100 and hi >= lo
        assert "target / " in body and "resamples, seed 0" in body
    summary = re.search(r"<!-- begin attack_summary -->(.*?)<!-- end attack_summary -->", text, re.S).group(1)
    assert "| semi-informed " in summary and "| ignorant " in summary
    noise = re.search(r"<!-- begin attack_noise -->(.*?)<!-- end attack_noise -->", text, re.S).group(1)
    # paired intervals: every comparison of scenarios scored on the same trials gets one, and a difference of
    # attackers whose embedding noise differs by 1.0 (ignorant vs semi-informed) is not within noise in every column
    rows = [ln for ln in noise.splitlines() if ln.startswith("| ignorant - semi-informed ")]
    assert len(rows) == 1 and "no paired interval" not in rows[0] and "**real**" in rows[0]
    # rerunning replaces the sections instead of appending copies
    subprocess.run([sys.executable, "-m", "pydeid", "attack-table", "--results", str(results)] + score_dirs,
                   check=True, capture_output=True)
    assert results.read_text().count("<!-- begin attack_ignorant -->") == 1


def test_semi_informed_text_counts_its_training_data(tmp_path):
    """The scenario text says what this run's converted-training attacker was given, counted from its data: the
    mini's trains on a part of the training utterances, and the table must not claim all of them."""
    rng = np.random.default_rng(1)
    dim = 8
    train = corpus(6, 4, "tr")
    part = DataDir(utt2gender={}, spk2gender=dict(train.spk2gender))
    for u in train.utts:
        if u.endswith(("-00", "-01")):   # 2 of the 4 utterances of each speaker
            part.wav_scp[u], part.text[u], part.utt2spk[u] = train.wav_scp[u], "x", train.utt2spk[u]
            part.utt2gender[u] = train.utt2gender[u]
    enroll, trial, trials = make_trials(corpus(4, 4, "te"), num_enroll=2, seed=0)
    for name, d in (("enroll", enroll), ("trial", trial)):
        d.write(tmp_path / name)
    write_trials(tmp_path / "trial" / "trials", trials)
    dirs = []
    for scenario, data in (("original", train), ("ignorant", train), ("semi-informed", part)):
        run = tmp_path / scenario
        xvec_dir(run / "xv_train", data, embed(data, rng, dim, 0.5))
        xvec_dir(run / "xv_enroll", enroll, embed(enroll, rng, dim, 0.5))
        xvec_dir(run / "xv_trial", trial, embed(trial, rng, dim, 0.5))
        method = "none" if scenario == "original" else "vtln"
        evaluate(run / "xv_train", tmp_path / "enroll", run / "xv_enroll", tmp_path / "trial", run / "xv_trial",
                 tmp_path / "trial" / "trials", run / "scores", plots=False, lda_dim=4, plda_rank=4,
                 info={"scenario": scenario, "method": method, "strategy": "3"})
        dirs.append(str(run / "scores"))
    results = tmp_path / "RESULTS.md"
    subprocess.run([sys.executable, "-m", "pydeid", "attack-table", "--results", str(results)] + dirs,
                   check=True, capture_output=True, cwd=tmp_path)
    text = results.read_text()
    semi = re.search(r"<!-- begin attack_semi-informed -->(.*?)<!-- end", text, re.S).group(1)
    assert "converts all his original training" not in semi
    assert ("Here the attacker trains on 12 converted utterances of 6 training speakers (2 per speaker), a part of "
            "the 24 original training utterances") in semi
    ignorant = re.search(r"<!-- begin attack_ignorant -->(.*?)<!-- end", text, re.S).group(1)
    assert "Here the attacker trains on" not in ignorant   # trained on original speech: no such note
