"""CPU cost of frame selection on one core (process CPU time / audio duration): the conversion of n utterances of a
data dir with a built matching set (<exp-dir>/frame_pool.npz of a transform-voice run; its content feature included,
e.g. the Whisper encoder), and the matching set's build per second of target audio.
  python bench/voice_frame_select_rtf.py <data> <exp-dir> [--n 20] [--target-data DIR] [--config YAML]
        [--ali-dir A --target-ali-dir T]   (match segments: the phone alignments of <data> and of --target-data)
Each utterance is converted towards `pool_voices` pool speakers with pooled_pseudo, one otherwise."""

import argparse
import time

from pydeid.io import DataDir
from pydeid.voice.configs import load_config
from functools import partial

from pydeid.voice.frame_select import FramePool, FrameSelectTransformer, build_frame_select, build_pool
from pydeid.voice.vtln.phone_classes import PhoneAlignment
from pydeid.voice.world import WorldConfig

ap = argparse.ArgumentParser()
ap.add_argument("data")
ap.add_argument("exp")
ap.add_argument("--n", type=int, default=20)
ap.add_argument("--target-data", default=None)
ap.add_argument("--config", default=None)
ap.add_argument("--ali-dir", default=None)
ap.add_argument("--target-ali-dir", default=None)
a = ap.parse_args()
conf = dict(load_config(a.config, "frame_select")) if a.config else {}
conf = {k: v for k, v in conf.items() if k not in ("world", "target_gender")}
d = DataDir.read(a.data)
pool = FramePool.load(f"{a.exp}/frame_pool.npz")
p, world = build_frame_select(**conf), WorldConfig(frame_period=10.0)
tr = FrameSelectTransformer(p, world, pool)
spk = sorted(pool.speakers)
ali = PhoneAlignment.read(a.ali_dir) if a.ali_dir else None
nv = p.pool_voices if p.target_selection == "pooled_pseudo" else 1


def phones(u):
    return partial(ali.frame_phones, u, 10.0) if ali is not None else None


x0 = d.load_audio(d.utts[0])
tr.transform(x0, 16000, draw={"targets": spk[:nv]}, phones=phones(d.utts[0]))   # the encoder loaded, outside the timing
cpu = dur = 0.0
for i, u in enumerate(d.utts[:a.n]):
    x = d.load_audio(u)
    t = time.process_time()
    tr.transform(x, 16000, draw={"targets": [spk[(i + j) % len(spk)] for j in range(nv)]}, phones=phones(u))
    cpu += time.process_time() - t
    dur += len(x) / 16000
print(f"conversion ({p.content}, match {p.match}, {nv} voice(s)): {a.n} utterances, {dur:.1f} s of audio, {cpu:.1f} s CPU: RTF {cpu / dur:.3f}")
if a.target_data:
    td = DataDir.read(a.target_data)
    s = sorted(td.speakers)[:2]
    secs = sum(len(td.load_audio(u)) / 16000 for sp in s for u in td.spk2utt[sp][:p.max_utts])
    t = time.process_time()
    build_pool(a.target_data, s, p, world,
               phones=PhoneAlignment.read(a.target_ali_dir) if a.target_ali_dir else None)
    c = time.process_time() - t
    print(f"matching set: {len(s)} speakers, {secs:.1f} s of target audio, {c:.1f} s CPU: {c / secs:.3f} s per s")
