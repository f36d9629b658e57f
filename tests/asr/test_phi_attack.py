"""Seed 004 table 1's x-vector attacker on ASR representations (pydeid.asr.phi_attack): trained on frame sequences,
scored by pydeid.attack.evaluate with the project's speaker-bootstrap interval and trial counts."""

import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")


class _StubASR(torch.nn.Module):
    """Stands in for an ESPnet model: _extract_feats = ESPnet's log-mel front end of the waveform (speaker
    information intact); encode = frames drawn from a seeded generator independent of the audio (no speaker
    information at all)."""

    def __init__(self):
        super().__init__()
        from espnet2.asr.frontend.default import DefaultFrontend
        self.frontend = DefaultFrontend(n_fft=512, hop_length=160, n_mels=30)
        self.normalize = None

    def _extract_feats(self, wav, lens):
        return self.frontend(wav, lens)

    def encode(self, wav, lens):
        g = torch.Generator().manual_seed(int(wav.shape[1]))
        n = max(4, int(lens[0]) // 640)
        return torch.randn(1, n, 16, generator=g), torch.tensor([n])


def _cfg():
    from pydeid.attack.config import load_config
    return load_config(None, {"n_mels": 30, "xvector": {"tdnn_channels": [32, 32, 32, 32, 64], "lin_neurons": 32},
                              "epochs": 5, "crop_min": 1.0, "crop_max": 1.5, "lr": 0.003, "lda_dim": 16,
                              "plda_rank": 8})


def test_attacker_finds_speakers_in_filterbanks_not_in_speakerless_frames(mini_corpus, tmp_path, monkeypatch):
    from pydeid.asr import phi_attack as P
    from pydeid.asr import probe
    monkeypatch.setattr(probe, "load_model", lambda exp: _StubASR())
    m = mini_corpus
    # the tiny corpus has 4 training speakers, too few for an x-vector to generalise: the attacker trains on the
    # test speakers' own utterances (mini_test; enrolment and trial utterances are other turns of theirs)
    runs = P.phi_attack([("phi_stub", "unused")], m / "mini_test", m / "mini_test_enroll", m / "mini_test_trial",
                        tmp_path / "phi", _cfg(), seed=0)
    assert [r["info"]["representation"] for r in runs] == ["Filterbank", "phi_stub"]
    fb, phi = (r["backends"]["cosine"]["pooled"] for r in runs)
    n_tar = sum(line.split()[2] == "target" for line in (m / "mini_test_trial" / "trials").read_text().splitlines())
    assert fb["n_target"] == phi["n_target"] == n_tar and fb["n_nontarget"] > n_tar
    # the filterbank attacker separates the synthetic voices; on frames without speaker information it guesses
    assert fb["eer_pct"] <= 20.0 and phi["eer_pct"] >= fb["eer_pct"] + 20.0, (fb["eer_pct"], phi["eer_pct"])
    lo, hi = fb["eer_ci95_pct"]
    assert lo <= fb["eer_pct"] <= hi
    assert runs[0]["info"]["attacker"]["fps"] == pytest.approx(100.0, rel=0.05)     # 10 ms hop
    assert runs[1]["info"]["dim"] == 16
    # resumable and deterministic: a second call reads the same metrics back
    again = P.phi_attack([("phi_stub", "unused")], m / "mini_test", m / "mini_test_enroll", m / "mini_test_trial",
                         tmp_path / "phi", _cfg(), seed=0)
    assert again[0]["backends"]["cosine"]["pooled"]["eer_pct"] == fb["eer_pct"]
    table = P.phi_table(runs)
    assert "| EER Pooled" in table and f"{fb['eer_pct']:.2f} [" in table
    assert f"{fb['n_target']} / {fb['n_nontarget']}" in table


def test_same_seed_same_embeddings():
    from pydeid.asr.phi_attack import embed, train_embedder
    rng = np.random.default_rng(0)
    seqs = {f"s{k}-u{i}": (rng.normal(size=(60, 8)) + k).astype(np.float32) for k in range(3) for i in range(4)}
    u2s = {u: u.split("-")[0] for u in seqs}
    a, _ = train_embedder(seqs, u2s, _cfg(), fps=100.0, seed=3)
    b, _ = train_embedder(seqs, u2s, _cfg(), fps=100.0, seed=3)
    ea, eb = embed(a, seqs), embed(b, seqs)
    assert all(np.allclose(ea[u], eb[u]) for u in seqs)


def test_cli_names_a_missing_model_in_one_line(mini_corpus, tmp_path):
    m = mini_corpus
    r = subprocess.run([sys.executable, "-m", "pydeid", "asr-phi-attack", "--model", f"phi_0={tmp_path / 'nope'}",
                        "--train-data", str(m / "mini_train"), "--enroll", str(m / "mini_test_enroll"),
                        "--trial", str(m / "mini_test_trial"), str(tmp_path / "out")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "config.yaml" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()


def test_probe_summaries_pool_the_attackers_frame_sequences(mini_corpus):
    """The speaker probe (ACC) and the phi attacker (EER) read one representation: the probe's mean+std summary of
    an utterance is the pooled statistics of the frame sequence the x-vector attacker trains on."""
    from pydeid.asr import phi_attack as P
    from pydeid.asr import probe
    from pydeid.io import DataDir
    data = DataDir.read(mini_corpus / "mini_test")
    utts = data.utts[:3]
    model = _StubASR()
    for kind in ("encoder", "filterbank"):
        seqs = P.sequences(model, data, utts, kind)
        summ = probe.summaries(model, data, utts, kind)
        want = np.stack([np.concatenate([s.mean(0), np.sqrt(np.maximum(s.var(0), 1e-8))]) for s in seqs.values()])
        assert summ.shape == want.shape and np.allclose(summ, want, atol=1e-4), kind
