"""WORLD analysis-synthesis with no modification of a data dir: the floor row of bench/voice_real.sh (issue 19).

Every pydeid voice method (VoiceMask, VTLN, the class-mean candidates) edits WORLD features and resynthesises; this
script resynthesises the unmodified features (pydeid.voice.world: analyze, synthesize, finalize, the methods' WORLD
settings: dio + stonemask, 5 ms frames) so that the bench can measure what the analysis-synthesis alone costs in
WER and in rho_F0, and what any conversion adds on top. Per utterance, atomic and resumable (an existing output wav
is kept); the output data dir is written by pydeid.voice.convert.assemble (absolute wav.scp, the other files carried
over, no original audio path left).

    python bench/voice_real_copysynth.py [--f0-method dio] [--frame-period 5] <in-data> <out-data>

Writes <out-data>/wav/<utt>.wav, <out-data>/{wav.scp,text,utt2spk,...} and <out-data>/copysynth.json (utterances,
audio and CPU seconds, RTF, the WORLD settings).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pydeid.io import DataDir, FormatError, write_audio
from pydeid.voice.convert import assemble, wav_path
from pydeid.voice.world import F0_METHODS, WorldConfig, analyze, finalize, synthesize

SR = 16000


def copy_synthesize(in_dir: Path, out_dir: Path, world: WorldConfig) -> dict:
    """Resynthesise every utterance of in_dir through WORLD unchanged; returns the counts and timing."""
    full = DataDir.read(in_dir)
    wav_dir = out_dir / "wav"
    wav_dir.mkdir(parents=True, exist_ok=True)
    done = skipped = 0
    audio_s = 0.0
    cpu0 = time.process_time()
    for u in full.utts:
        out = wav_path(wav_dir, u)
        if out.is_file():
            skipped += 1
            continue
        x = full.load_audio(u, sr=SR)
        write_audio(out, finalize(synthesize(analyze(x, SR, world)), x), SR)
        audio_s += len(x) / SR
        done += 1
    cpu = time.process_time() - cpu0
    assemble(in_dir, out_dir, wav_dir)
    return {"utterances": len(full.utts), "converted": done, "skipped": skipped, "audio_s": round(audio_s, 2),
            "cpu_s": round(cpu, 2), "rtf_cpu": round(cpu / audio_s, 4) if audio_s else None,
            "world": {"f0_method": world.f0_method, "frame_period": world.frame_period}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("in_data")
    ap.add_argument("out_data")
    ap.add_argument("--f0-method", default="dio", choices=F0_METHODS)
    ap.add_argument("--frame-period", type=float, default=5.0, help="ms")
    a = ap.parse_args(argv)
    if not (Path(a.in_data) / "wav.scp").is_file():
        print(f"voice_real_copysynth.py: {a.in_data}/wav.scp: no such file", file=sys.stderr)
        return 1
    if Path(a.in_data).resolve() == Path(a.out_data).resolve():
        print(f"voice_real_copysynth.py: the output data dir {a.out_data} is the input", file=sys.stderr)
        return 1
    try:
        res = copy_synthesize(Path(a.in_data), Path(a.out_data), WorldConfig(a.f0_method, a.frame_period))
    except FormatError as e:
        print(f"voice_real_copysynth.py: {e}", file=sys.stderr)
        return 1
    js = Path(a.out_data) / "copysynth.json"
    if res["converted"] or not js.is_file():   # a resumed run with nothing left to do keeps the first run's timing
        js.write_text(json.dumps(res, indent=1) + "\n")
    print(f"{a.out_data}: {res['converted']} resynthesised, {res['skipped']} kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
