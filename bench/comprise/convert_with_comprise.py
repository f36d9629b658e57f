"""Convert a Kaldi data dir with the COMPRISE voice transformation tool (ruckard/comprise_voice_transformation),
run from its own checkout, so that the project's attackers score both tools on the same files.

The tool is not part of pydeid and none of its code is copied here: this driver imports its `voice_transformation`
package from --tool (the folder vtln_based_transformers of a checkout) and calls its documented API
(builder(target_utterances) -> Transformer(params).fit(source utterances).transform(utterance, target)).
Two adaptations to today's libraries, applied from outside: scikit-learn >= 1.0 has no KMeans(n_jobs=...), so
the argument is dropped; Python 3.11's random.sample() refuses dict views, so the target is always passed
explicitly (drawn here, seeded: one per utterance, as the tool's script does for corpora without dialogues).

    python bench/comprise/convert_with_comprise.py --tool <checkout>/vtln_based_transformers \
        --method voicemask|vtln --targets data/train --n-targets 10 --seed 0 data/test out_dir
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tool", required=True, help="the tool's vtln_based_transformers folder")
    p.add_argument("--method", choices=["voicemask", "vtln"], required=True)
    p.add_argument("--targets", required=True, help="data dir of target speakers (the pool)")
    p.add_argument("--n-targets", type=int, default=10, help="pool size (the tool's -T, default 10)")
    p.add_argument("--max-target-utts", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--pool-cache", help="JSON file keeping what the tool's builder returns for this pool (per target "
                   "speaker, the mean and std of log F0: no random draw), so that several conversions from the same "
                   "pool analyse its ~600 utterances once (~340 CPU-s); rebuilt when the pool or its utterances differ")
    p.add_argument("--timing", help="JSON file for the process CPU seconds (pool building, per-speaker fit + "
                   "transform) and the audio seconds converted: the tool's RTF")
    p.add_argument("in_data")
    p.add_argument("out_data")
    a = p.parse_args(argv)

    sys.path.insert(0, str(Path(a.tool).resolve()))
    import sklearn.cluster
    _KMeans = sklearn.cluster.KMeans

    def kmeans(n_clusters=8, n_jobs=None, **kw):   # n_jobs was removed in scikit-learn 1.0; the tool passes it
        return _KMeans(n_clusters=n_clusters, random_state=a.seed, n_init=10, **kw)

    sklearn.cluster.KMeans = kmeans
    from voice_transformation import Utterance
    if a.method == "voicemask":
        from voice_transformation.voicemask import Transformer, builder
    else:
        from voice_transformation.vtln_based_conversion import Transformer, builder

    from pydeid.io import DataDir, write_audio

    random.seed(a.seed)
    np.random.seed(a.seed)
    src, tgt = DataDir.read(a.in_data), DataDir.read(a.targets)
    rng = random.Random(a.seed)
    pool = sorted(rng.sample(sorted(tgt.speakers), min(a.n_targets, len(tgt.speakers))))
    t_spk2utt = tgt.spk2utt
    pool_utts = {s: list(t_spk2utt[s][:a.max_target_utts]) for s in pool}
    import json
    import time
    t0 = time.process_time()
    cache = Path(a.pool_cache) if a.pool_cache else None
    cached = json.loads(cache.read_text()) if cache and cache.is_file() else {}
    if a.method == "voicemask" and cached.get("pool_utts") == pool_utts:
        params = {s: tuple(v) for s, v in cached["params"].items()}
    else:
        target_utts = {s: [Utterance(tgt.load_audio(u).astype(np.float64), 16000) for u in us]
                       for s, us in pool_utts.items()}
        params = builder(target_utts)
        if cache and a.method == "voicemask":   # VoiceMask's builder: {speaker: (mean, std) of log F0}
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({"pool_utts": pool_utts, "cpu_s": round(time.process_time() - t0, 2),
                                         "params": {s: [float(x) for x in v] for s, v in params.items()}}) + "\n")
    t_build, t_conv, audio_s = time.process_time() - t0, 0.0, 0.0
    out = Path(a.out_data)
    wav_dir = (out / "wav").resolve()
    wav_dir.mkdir(parents=True, exist_ok=True)
    wav_scp = {}
    for spk, utts in sorted(src.spk2utt.items()):
        utterances = [Utterance(src.load_audio(u).astype(np.float64), 16000) for u in utts]
        t0 = time.process_time()
        tr = Transformer(params)
        tr.fit(utterances)
        t_conv += time.process_time() - t0
        for u, utt in zip(utts, utterances):
            t1 = time.process_time()
            y = tr.transform(utt, target=pool[rng.randrange(len(pool))]).data
            t_conv += time.process_time() - t1
            audio_s += len(utt.data) / 16000
            y = np.nan_to_num(np.asarray(y, dtype=np.float64))[:len(utt.data)]
            y = np.pad(y, (0, len(utt.data) - len(y)))
            peak = float(np.max(np.abs(y))) or 1.0
            y = y * min(float(np.max(np.abs(utt.data))), 0.99) / peak     # the input's peak, as pydeid does
            write_audio(wav_dir / f"{u}.wav", y.astype(np.float32), 16000)
            wav_scp[u] = str(wav_dir / f"{u}.wav")
    d = DataDir(wav_scp=wav_scp, text=src.text, utt2spk=src.utt2spk, utt2gender=src.utt2gender,
                spk2gender=src.spk2gender)
    d.write(out)
    if a.timing:
        Path(a.timing).parent.mkdir(parents=True, exist_ok=True)
        Path(a.timing).write_text(json.dumps({"cpu_pool_s": round(t_build, 2), "cpu_fit_transform_s": round(t_conv, 2),
                                              "audio_s": round(audio_s, 2), "utterances": len(wav_scp),
                                              "rtf_cpu": round(t_conv / max(audio_s, 1e-9), 4)}) + "\n")
    print(f"{out}: {len(wav_scp)} utterances converted with the COMPRISE tool ({a.method}, pool of {len(pool)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
