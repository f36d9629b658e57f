"""WORLD analysis-synthesis with no modification of a data dir: the floor row of bench/voice_real.sh (issue 19).

Every pydeid voice method (VoiceMask, VTLN, the class-mean candidates) edits WORLD features and resynthesises; this
script resynthesises the unmodified features (pydeid.voice.world: analyze, synthesize, finalize, the methods' WORLD
settings: dio + stonemask, 5 ms frames) so that the bench can measure what the analysis-synthesis alone costs in
WER and in rho_F0, and what any conversion adds on top. Per utterance, atomic and resumable (an existing output wav
is kept); the output data dir is written by pydeid.voice.convert.assemble (absolute wav.scp, the other files carried
over, no original audio path left).

    python bench/voice_real_copysynth.py [--f0-method dio] [--frame-period 5] [--world KEY=VALUE ...] \
        <in-data> <out-data>

--world sets any other option of pydeid.voice.world.WorldConfig (fft_size, f0_floor, f0_ceil, stonemask, dio_speed,
dio_channels_in_octave, dio_allowed_range, cheaptrick_q1, d4c_threshold), as a voice yaml's world: block does, to
measure which settings make the resynthesis closest to transparent (issue 19, part V).

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
WORLD_FIXED = ("f0_method", "frame_period")   # their own flags


def world_option(item: str) -> tuple[str, object]:
    """KEY=VALUE of --world: KEY a WorldConfig field, VALUE parsed as YAML (2048, 0.0, false)."""
    import dataclasses

    import yaml
    key, sep, val = item.partition("=")
    fields = [f.name for f in dataclasses.fields(WorldConfig) if f.name not in WORLD_FIXED]
    if not sep or not val:
        raise ValueError(f"--world {item}: expected KEY=VALUE")
    if key not in fields:
        raise ValueError(f"--world {item}: unknown WORLD option {key!r} (one of {', '.join(fields)})")
    return key, yaml.safe_load(val)


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
            "world": world.to_dict()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("in_data")
    ap.add_argument("out_data")
    ap.add_argument("--f0-method", default="dio", choices=F0_METHODS)
    ap.add_argument("--frame-period", type=float, default=5.0, help="ms")
    ap.add_argument("--world", action="append", default=[], metavar="KEY=VALUE",
                    help="another WorldConfig option (repeatable): fft_size=2048, d4c_threshold=0, ...")
    a = ap.parse_args(argv)
    try:
        world = WorldConfig(a.f0_method, a.frame_period, **dict(world_option(w) for w in a.world))
    except (TypeError, ValueError) as e:
        print(f"voice_real_copysynth.py: {e}", file=sys.stderr)
        return 1
    if not (Path(a.in_data) / "wav.scp").is_file():
        print(f"voice_real_copysynth.py: {a.in_data}/wav.scp: no such file", file=sys.stderr)
        return 1
    if Path(a.in_data).resolve() == Path(a.out_data).resolve():
        print(f"voice_real_copysynth.py: the output data dir {a.out_data} is the input", file=sys.stderr)
        return 1
    try:
        res = copy_synthesize(Path(a.in_data), Path(a.out_data), world)
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
