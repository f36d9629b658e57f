"""Kaldi ark/scp embeddings through kaldiio: exact round trip, readable by plain kaldiio, speaker means."""

import kaldiio
import numpy as np

from pydeid.attack.embeddings import read_vectors, speaker_means, write_speaker_means, write_vectors


def test_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    vecs = {f"spk{i % 3}-utt{i:02d}": rng.normal(size=16).astype(np.float32) for i in range(12)}
    write_vectors(tmp_path / "xvector.ark", tmp_path / "xvector.scp", vecs)
    back = read_vectors(tmp_path / "xvector.scp")
    assert set(back) == set(vecs)
    for k in vecs:
        assert np.array_equal(back[k].astype(np.float32), vecs[k])
    # plain kaldiio (and Kaldi tools) read it: the scp points at the final ark, sorted keys
    lines = (tmp_path / "xvector.scp").read_text().splitlines()
    assert [ln.split()[0] for ln in lines] == sorted(vecs)
    assert all(ln.split()[1].startswith(str(tmp_path / "xvector.ark") + ":") for ln in lines)
    loaded = kaldiio.load_scp(str(tmp_path / "xvector.scp"))
    assert np.array_equal(loaded["spk1-utt04"], vecs["spk1-utt04"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["xvector.ark", "xvector.scp"]  # no temp files left


def test_speaker_means(tmp_path):
    vecs = {"a-1": np.array([1.0, 0.0]), "a-2": np.array([3.0, 2.0]), "b-1": np.array([0.0, 5.0])}
    utt2spk = {"a-1": "a", "a-2": "a", "b-1": "b"}
    means, counts = speaker_means(vecs, utt2spk)
    assert np.allclose(means["a"], [2.0, 1.0]) and counts == {"a": 2, "b": 1}
    write_speaker_means(tmp_path, vecs, utt2spk)
    back = read_vectors(tmp_path / "spk_xvector.scp")
    assert np.allclose(back["a"], [2.0, 1.0]) and np.allclose(back["b"], [0.0, 5.0])
    assert (tmp_path / "num_utts.ark").read_text() == "a 2\nb 1\n"
