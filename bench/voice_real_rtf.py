"""Real-time factor per method of bench/voice_real.sh, on one core: process CPU seconds / audio seconds over the
first --utts utterances of a data dir (real speechocean762 voices), with each method's conf/voice config as
egs/speechocean762/s5 uses it. What a publisher pays per utterance is timed: the conversion, plus for VTLN the
per-speaker fit (on the timed utterances of that speaker) and for VoiceMask pitch_mode target the source
speaker's log-F0 statistics; the one-off target pool (VTLN models, target F0 statistics) is built untimed.
Run it under `taskset -c 0` with OMP_NUM_THREADS=1 (bench/voice_real.sh does).
A phone-class VTLN config (`classes: phones`, conf/voice/vtln_ph*.yaml) is timed with its alignment: the timed
utterances are aligned here by the pocketsphinx aligner steps/align.sh runs (phones on), its CPU seconds reported
beside the conversion's ("align_cpu_s", "align_rtf_cpu"; the aligner's one-off start, model and G2P load, untimed and
reported as "align_load_cpu_s"); the target pool's phone classes come from --target-ali-dir (the phone alignment of
--vtln-targets, steps/align_phones_for_vtln.sh), built untimed like every pool.

    python bench/voice_real_rtf.py --data data/test_wer --targets data/train_xv --voice-configs "..." --out rtf.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402


REPO = Path(__file__).resolve().parents[1]


def config(method: str, variant: str) -> tuple[dict, dict]:
    """(method parameters, WORLD settings) of conf/voice/<method>[_<variant>].yaml (for run.sh's --voice-configs
    entries: a VTLN <strategy>_<variant>, a chain <variant>+vtln<N>... or vtln<N>..., "-")."""
    if method == "vtln":
        variant = variant.partition("_")[2]
    elif "+" in variant:
        variant = variant.partition("+")[0]
    elif variant.startswith("vtln"):
        variant = ""
    name = f"{method}_{variant}.yaml" if variant not in ("-", "") else f"{method}.yaml"
    from pydeid.voice.configs import load_config
    conf = load_config(REPO / "conf" / "voice" / name, method)   # VTLN's groups flattened
    return conf, dict(conf.pop("world", {}) or {})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--targets", required=True)
    ap.add_argument("--voice-configs", required=True)
    ap.add_argument("--vtln-targets", default=None, help="the VTLN target pool's data dir (default: --targets); the "
                    "recipe's is data/train_vtln")
    ap.add_argument("--target-ali-dir", default=None, help="phone-class configs: the phone alignment of --vtln-targets")
    ap.add_argument("--utts", type=int, default=12)
    ap.add_argument("--out", required=True)
    ap.add_argument("--comprise-tool", default=None,
                    help="the COMPRISE tool's vtln_based_transformers folder: also time its VoiceMask on the same "
                         "utterances (bench/comprise/convert_with_comprise.py --timing; its pool build untimed)")
    ap.add_argument("--comprise-utts", type=int, default=4, help="utterances for the tool (it is slow)")
    ap.add_argument("--comprise-pool-cache", help="the tool's pool file of bench/voice_real.sh's stage 1 (else its "
                    "pool's F0 analysis, ~340 CPU-s, untimed but spent, is redone here)")
    a = ap.parse_args()

    from pydeid.io import DataDir
    from pydeid.voice.common import log_f0_stats, rng_for
    from pydeid.voice.convert import build_pitch_pool, build_vtln_pool, f0_track
    from pydeid.voice.mcadams import McAdamsTransformer, build_mcadams, draw_mcadams
    from pydeid.voice.voicemask import DEFAULT_FRAME_PERIOD, VoiceMaskTransformer, build_voicemask, draw_voicemask
    from pydeid.voice.vtln.phone_classes import PhoneAlignment, normalise_phone
    from pydeid.voice.vtln import VtlnTransformer, build_vtln_params, draw_vtln
    from pydeid.voice.world import WorldConfig, analyze

    d = DataDir.read(a.data)
    utts = d.utts[:a.utts]
    wavs = {u: d.load_audio(u) for u in utts}
    audio_s = sum(len(w) for w in wavs.values()) / 16000
    by_spk: dict[str, list[str]] = {}
    for u in utts:
        by_spk.setdefault(d.utt2spk[u], []).append(u)
    res = {"utterances": len(utts), "speakers": len(by_spk), "audio_s": round(audio_s, 2), "data": str(a.data),
           "load_avg_1min": os.getloadavg()[0], "affinity": sorted(os.sched_getaffinity(0)), "methods": {}}
    vtln_pools: dict = {}
    vtln_targets = a.vtln_targets or a.targets
    res["vtln_targets"] = str(vtln_targets)
    phone_labels: dict = {}   # the timed utterances' PhoneAlignment, made once (the first phone-class config)
    # warm-up, untimed: imports, FFT plans and pyworld's first call would otherwise be charged to the first method
    VoiceMaskTransformer(build_voicemask()).transform(wavs[utts[0]], 16000, draw=draw_voicemask(
        build_voicemask(), rng_for(0, "warm-up")))
    McAdamsTransformer(build_mcadams()).transform(wavs[utts[0]], 16000)

    def vtln_convert(st: str, timed: list) -> dict:
        """VTLN strategy <N>[_<variant>] (the variant's averaged targets and per-utterance offsets included)."""
        conf, wc = config("vtln", st)
        world = WorldConfig(**wc)
        k = int(conf.pop("k", 8))
        conf.pop("target_gender", None)
        params = build_vtln_params(**conf)
        phones = params.classes == "phones"
        key = (k, tuple(sorted(wc.items())), phones and params.phone_min_frames)
        if key not in vtln_pools:
            tph = None
            if phones:
                if not a.target_ali_dir:
                    raise SystemExit(f"voice_real_rtf.py: vtln:{st} has phone classes: give --target-ali-dir (the "
                                     f"phone alignment of {vtln_targets})")
                tph = (PhoneAlignment.read(a.target_ali_dir, "--target-ali-dir"), params.phone_min_frames)
            vtln_pools[key] = build_vtln_pool(vtln_targets, 100, 0, k, world, phones=tph)
        targets = vtln_pools[key]
        pool = sorted(targets.models)
        ali = align_timed() if phones else None
        out = {}
        for spk, us in by_spk.items():
            t0 = time.process_time()
            tr = VtlnTransformer(targets, params=params)
            if phones:   # the frames' phone classes, from the alignment timed apart (align_timed)
                tr.fit_features((analyze(wavs[u], 16000, world) for u in us),
                                labels=[partial(lambda u, f: ali.frame_classes(u, len(f.f0), f.frame_period), u)
                                        for u in us])
            else:
                tr.fit([wavs[u] for u in us])
            for u in us:
                rng = rng_for(0, "rtf", u)
                tgts = [pool[int(i)] for i in rng.choice(len(pool), params.n_average, replace=False)] \
                    if st.startswith("3") else pool[:params.n_average]
                d = draw_vtln(params, rng)
                if phones:
                    f = analyze(wavs[u], 16000, world)
                    out[u] = tr.transform_features(f, tgts, wavs[u], warp_shift=d.get("warp_shift", 0.0),
                                                   pitch_shift=d.get("pitch_shift", 0.0),
                                                   labels=ali.frame_classes(u, len(f.f0), f.frame_period))
                else:
                    out[u] = tr.transform(wavs[u], tgts, warp_shift=d.get("warp_shift", 0.0),
                                          pitch_shift=d.get("pitch_shift", 0.0), ss_seed=d.get("ss_seed"))
            timed[0] += time.process_time() - t0
        return out

    def align_timed():
        """The timed utterances' phone alignment (pocketsphinx, as steps/align.sh), its CPU seconds in `res`."""
        if "ali" not in phone_labels:
            from pydeid.align.pipeline import make_aligner
            t0 = time.process_time()
            aligner = make_aligner("pocketsphinx", "en-us", phones=True)
            t1 = time.process_time()
            labelled: dict = {}
            failed: set = set()
            for u in utts:
                r = aligner.align(u, wavs[u], d.text.get(u, ""))
                if r.error:
                    failed.add(u)
                    continue
                labelled[u] = [(round(p.start, 3), round(p.start, 3) + max(0.0, round(p.end - p.start, 3)),
                                n) for p in r.phones   # as the phone CTM rounds them
                               if (n := normalise_phone(p.phone)) is not None]
            t2 = time.process_time()
            phone_labels["ali"] = PhoneAlignment.from_phones(labelled, failed, "aligned in voice_real_rtf.py")
            res["alignment"] = {"align_cpu_s": round(t2 - t1, 2), "align_rtf_cpu": round((t2 - t1) / audio_s, 4),
                                "align_load_cpu_s": round(t1 - t0, 2), "failed": len(failed),
                                "aligner": "pocketsphinx en-us, phones (steps/align.sh)"}
            print(f"{'phone alignment':18s} RTF (CPU, 1 core) {(t2 - t1) / audio_s:.4f} (+{t1 - t0:.1f} CPU-s "
                  f"aligner load), failed {len(failed)}/{len(utts)}", flush=True)
        return phone_labels["ali"]

    for vc in a.voice_configs.split():
        m, _, st = vc.partition(":")
        v = m if st in ("", "-") else f"{m}{st}"
        cpu = [0.0]
        if m == "vtln":
            vtln_convert(st, cpu)
        elif m == "voicemask":
            conf, wc = config(m, st)
            wc.setdefault("frame_period", DEFAULT_FRAME_PERIOD)
            world = WorldConfig(**wc)
            params = build_voicemask(**conf)
            tr = VoiceMaskTransformer(params, world)
            pitch = build_pitch_pool(a.targets, 100, 0, world) if params.pitch_mode == "target" else None
            for spk, us in by_spk.items():
                t0 = time.process_time()
                # as transform-voice does: the F0 tracks of the speaker statistics serve the conversions
                tracks = {u: f0_track(wavs[u], world) for u in us} if pitch else {}
                src = list(log_f0_stats(list(tracks.values()))) if pitch else None
                for u in us:
                    draw = draw_voicemask(params, rng_for(0, "rtf", u))
                    if pitch:
                        draw.update(source_log_f0=src, target_log_f0=pitch[sorted(pitch)[0]])
                    tr.transform(wavs[u], 16000, draw=draw, f0=tracks.get(u))
                cpu[0] += time.process_time() - t0
        elif m == "mcadams":
            conf, _ = config(m, st)
            params = build_mcadams(**conf)
            tr = McAdamsTransformer(params)
            inputs = wavs
            base = st.partition("+")[2] or (st if st.startswith("vtln") else "")
            if base:
                inputs = vtln_convert(base[len("vtln"):], cpu)
            t0 = time.process_time()
            for u in utts:
                tr.transform(inputs[u], 16000, draw=draw_mcadams(params, rng_for(0, "rtf", u)))
            cpu[0] += time.process_time() - t0
        else:
            raise SystemExit(f"voice_real_rtf.py: unknown method in --voice-configs: {vc}")
        res["methods"][v] = {"rtf_cpu": round(cpu[0] / audio_s, 4), "cpu_s": round(cpu[0], 2)}
        if m == "vtln" and "alignment" in res and config("vtln", st)[0].get("classes") == "phones":
            al = res["alignment"]
            res["methods"][v].update(align_rtf_cpu=al["align_rtf_cpu"], align_cpu_s=al["align_cpu_s"],
                                     rtf_cpu_with_alignment=round((cpu[0] + al["align_cpu_s"]) / audio_s, 4))
        print(f"{v:18s} RTF (CPU, 1 core) {cpu[0] / audio_s:.4f}", flush=True)
    if a.comprise_tool:
        import subprocess
        import sys
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            sub = DataDir(wav_scp={u: d.wav_scp[u] for u in utts[:a.comprise_utts]},
                          text={u: d.text[u] for u in utts[:a.comprise_utts]},
                          utt2spk={u: d.utt2spk[u] for u in utts[:a.comprise_utts]})
            sub.write(Path(tmp) / "in")
            subprocess.run([sys.executable, str(REPO / "bench" / "comprise" / "convert_with_comprise.py"), "--tool",
                            a.comprise_tool, "--method", "voicemask", "--targets", a.targets, "--n-targets", "100",
                            "--timing", f"{tmp}/t.json", f"{tmp}/in", f"{tmp}/out",
                            *(["--pool-cache", a.comprise_pool_cache] if a.comprise_pool_cache else [])], check=True,
                           stdout=subprocess.DEVNULL)
            t = json.loads(Path(f"{tmp}/t.json").read_text())
        res["methods"]["comprise"] = {"rtf_cpu": t["rtf_cpu"], "cpu_s": t["cpu_fit_transform_s"],
                                      "audio_s": t["audio_s"], "utterances": t["utterances"],
                                      "cpu_pool_s_untimed": t["cpu_pool_s"]}
        print(f"{'comprise':18s} RTF (CPU, 1 core) {t['rtf_cpu']:.4f} on {t['utterances']} utterances", flush=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
