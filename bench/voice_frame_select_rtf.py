"""CPU cost of frame selection on one core (process CPU time / audio duration): the conversion of n utterances of a
data dir with a built matching set (<exp-dir>/frame_pool.npz of a transform-voice run), and the matching set's
build per second of target audio.  python bench/voice_frame_select_rtf.py <data> <exp-dir> [n] [target-data]"""

import sys
import time

import numpy as np

from pydeid.io import DataDir
from pydeid.voice.frame_select import FramePool, FrameSelectTransformer, build_frame_select, build_pool
from pydeid.voice.world import WorldConfig

data, exp = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
d = DataDir.read(data)
pool = FramePool.load(f"{exp}/frame_pool.npz")
p, world = build_frame_select(), WorldConfig(frame_period=10.0)
tr = FrameSelectTransformer(p, world, pool)
spk = sorted(pool.speakers)
cpu = dur = 0.0
for i, u in enumerate(d.utts[:n]):
    x = d.load_audio(u)
    t = time.process_time()
    tr.transform(x, 16000, draw={"targets": [spk[i % len(spk)]]})
    cpu += time.process_time() - t
    dur += len(x) / 16000
print(f"conversion: {n} utterances, {dur:.1f} s of audio, {cpu:.1f} s CPU: RTF {cpu / dur:.3f}")
if len(sys.argv) > 4:
    td = DataDir.read(sys.argv[4])
    s = sorted(td.speakers)[:2]
    secs = sum(len(td.load_audio(u)) / 16000 for sp in s for u in td.spk2utt[sp][:p.max_utts])
    t = time.process_time()
    build_pool(sys.argv[4], s, p, world)
    c = time.process_time() - t
    print(f"matching set: {len(s)} speakers, {secs:.1f} s of target audio, {c:.1f} s CPU: {c / secs:.3f} s per s")
