"""Frame selection's Whisper content feature (pydeid.voice.frame_select.whisper_content) on real VCTK voices of
../shared/data: one unit vector per WORLD frame, and it finds the same words said by another speaker (VCTK's prompts
are read by every speaker) far more often than the mel-cepstral feature does."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

SENTENCES = ["002", "004", "007", "010", "019"]   # read by p225 and p226


def _read(vctk_dir, spk, sent):
    return sf.read(vctk_dir / "wav" / spk / f"{spk}_{sent}.flac", dtype="float32")[0]


@pytest.fixture(scope="module")
def encoder():
    from pydeid.asr.whisper_models import WhisperModelMissing
    from pydeid.voice.frame_select.whisper_content import get_encoder
    try:
        return get_encoder("tiny.en")
    except WhisperModelMissing as e:
        pytest.skip(str(e))


def test_whisper_content_frames_and_norm(encoder, vctk_dir):
    from pydeid.voice.frame_select.whisper_content import whisper_content
    from pydeid.voice.world import WorldConfig, analyze
    x = _read(vctk_dir, "p225", "002")                       # 4.06 s
    enc = encoder.encode(x, positional=True)
    assert enc.shape == (-(-len(x) // 320), 384)               # 20 ms frames of the real audio only, not 10 s
    f = analyze(x.astype(np.float64), 16000, WorldConfig(frame_period=10.0))
    c = whisper_content(x, len(f.f0), 10.0)
    assert c.shape == (len(f.f0), 384) and c.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(c, axis=1), 1.0, atol=1e-4)
    # 10 ms frames on 20 ms ones: frame 2t+1 lies midway between encoder frames t and t+1 (centres 10, 30 ms)
    e = encoder.encode(x)                                    # minus the silence template
    u = e / np.linalg.norm(e, axis=1, keepdims=True)
    mid = (u[10] + u[11]) / 2
    assert float(c[21] @ u[10]) > 0.99 and float(c[22] @ mid / np.linalg.norm(mid)) > 0.99
    # the 10 s window stays close to Whisper's 30 s one (cosine); 35 s goes through two windows (30 s + 10 s)
    import ctranslate2
    mel = encoder.fe(np.pad(x, (0, 30 * 16000 - len(x))))[:, :3000]
    full = np.asarray(encoder.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None])),
                                           to_cpu=True))[0][:len(enc)]
    cos = (full * enc).sum(1) / np.linalg.norm(full, axis=1) / np.linalg.norm(enc, axis=1)
    assert cos.mean() > 0.95 and np.percentile(cos, 5) > 0.9   # measured 0.98 / 0.97
    long = np.concatenate([x] * 9)[:35 * 16000]
    assert encoder.encode(long).shape == (35 * 50, 384)


SHIFTS = [0, 16000, 8000, 24000, 4000]   # silence before each target sentence: where it starts must not matter


def _nn_same_sentence(feat, vctk_dir, src, tgt):
    """Share of the source's speech frames (3 sentences) whose nearest target frame lies in the target speaker's
    recording of the SAME sentence (the target's matching set: 5 sentences, each after 0-1.5 s of silence), and
    that share's chance level."""
    from pydeid.voice.world import WorldConfig, analyze
    world = WorldConfig(frame_period=10.0)
    tf, lab = [], []
    for i, s in enumerate(SENTENCES):
        tf.append(feat(np.concatenate([np.zeros(SHIFTS[i], np.float32), _read(vctk_dir, tgt, s)]), world))
        lab += [i] * len(tf[-1])
    tf, lab = np.vstack(tf), np.array(lab)
    hits = n = chance = 0.0
    for i, s in enumerate(SENTENCES[:3]):
        x = _read(vctk_dir, src, s)
        q = feat(x, world)
        f0 = analyze(x.astype(np.float64), 16000, world).f0
        q = q[f0 > 0]                                         # speech frames (silence is alike in every sentence)
        d = (tf * tf).sum(1)[None, :] - 2 * q @ tf.T
        hits += float(np.sum(lab[np.argmin(d, axis=1)] == i))
        n += len(q)
        chance += len(q) * np.mean(lab == i)
    return hits / n, chance / n


def test_whisper_content_matches_the_same_words_across_speakers(encoder, vctk_dir):
    """Female source, male target: the Whisper feature sends nearly every speech frame to the target's frames of
    the same sentence wherever that sentence starts; without the silence template (positional) it partly matches
    time offsets instead, and the speaker-normalised mel-cepstra barely beat chance."""
    from pydeid.voice.frame_select.features import code_frames, content
    from pydeid.voice.frame_select.whisper_content import to_world_frames
    from pydeid.voice.world import analyze

    def n_frames(x, world):
        return len(analyze(x.astype(np.float64), 16000, world).f0)

    def whisper(x, world):
        return to_world_frames(encoder.encode(x), n_frames(x, world), world.frame_period)

    def positional(x, world):
        return to_world_frames(encoder.encode(x, positional=True), n_frames(x, world), world.frame_period)

    def mcep(x, world):
        return content(code_frames(analyze(x.astype(np.float64), 16000, world), 40).mcep, 20, 0.5)

    w, chance = _nn_same_sentence(whisper, vctk_dir, "p225", "p226")
    r, _ = _nn_same_sentence(positional, vctk_dir, "p225", "p226")
    m, _ = _nn_same_sentence(mcep, vctk_dir, "p225", "p226")
    print(f"same-sentence nearest frames: whisper {w:.3f}, positional {r:.3f}, mcep {m:.3f}, chance {chance:.3f}")
    assert w > 0.95 and w > r + 0.1 and w > m + 0.3 and m < 2 * chance   # measured 1.00, 0.82, 0.22; chance 0.21
