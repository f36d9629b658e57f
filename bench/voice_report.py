"""Render bench/results/voice.md from the JSON figures of voice_rtf.py, voice_world.py, voice_memory.py and
(when run) voice_eer.sh."""

from __future__ import annotations

import json
from pathlib import Path

from pydeid.report import markdown_table

RES = Path(__file__).resolve().parent / "results"


def load(name):
    p = RES / name
    return json.loads(p.read_text()) if p.is_file() else None


def main():
    parts = ["# Voice conversion benchmarks (pydeid.voice)", "",
             "Produced by `bash bench/voice.sh` (one core: OMP_NUM_THREADS=1). Audio: the VCTK subset in "
             "../shared/data (CC BY 4.0, CSTR VCTK). RTF = processing time / audio duration; `cpu` is process CPU "
             "time, robust to other jobs on a shared machine, `wall` is elapsed time and depends on the load.", ""]
    rtf = load("voice_rtf.json")
    if rtf:
        parts += ["## Real-time factor per method (one core)", "",
                  f"{rtf['utterances']} utterances, {rtf['audio_seconds']} s of speech; load average during the run "
                  f"{rtf['load_avg_1min']:.1f} on 2 cores. Targets: <= 0.04 for VoiceMask and McAdams.", "",
                  markdown_table(["method", "RTF cpu", "RTF wall"],
                                 [[k, v["rtf_cpu"], v["rtf_wall"]] for k, v in rtf["methods"].items()], ".4f"), ""]
    world = load("voice_world.json")
    if world:
        rows = []
        for k, v in world["estimators"].items():
            rows.append([k, v["analysis_rtf_cpu"], v["copy_synthesis_lsd_db"],
                         100 * v["vs_dio_ref"]["gpe"], 100 * v["vs_dio_ref"]["vde"],
                         100 * v["vs_harvest_ref"]["gpe"], 100 * v["vs_harvest_ref"]["vde"],
                         v["vs_harvest_ref"]["fine_cents"]])
        parts += ["## WORLD F0 estimator and frame period: quality and speed", "",
                  f"{world['utterances']} utterances ({world['audio_seconds']} s). F0 errors are measured on WORLD "
                  "resyntheses whose F0 is known (reference analysed by dio or by harvest, so neither is favoured); "
                  "GPE = voiced frames off by > 20 %, VDE = wrong voicing decisions, both in %; LSD = log-spectral "
                  "distance (dB) of the analysis-synthesis copy to the original (lower is better).", "",
                  markdown_table(["estimator", "analysis RTF cpu", "copy LSD dB", "GPE % (dio ref)",
                                  "VDE % (dio ref)", "GPE % (harvest ref)", "VDE % (harvest ref)",
                                  "fine err cents (harvest ref)"], rows, ".3f"), ""]
    mem = load("voice_memory.json")
    if mem:
        parts += ["## Peak memory against the number of utterances (whole `pydeid transform-voice` command)", "",
                  markdown_table(["method", "utterances", "audio s", "peak RSS MB", "CPU s", "RTF cpu (command)"],
                                 [[r["method"], r["utterances"], r["audio_s"], r["peak_rss_mb"], r["cpu_s"],
                                   r["rtf_cpu_whole_command"]] for r in mem["runs"]], ".4g"), ""]
    eer = load("voice_eer.json")
    if eer:
        rows = [[k, v.get("eer_pooled_pct"), v.get("eer_male_pct"), v.get("eer_female_pct"),
                 v.get("pitch_correlation")] for k, v in eer.items() if k != "conversion_time"]
        parts += ["## Privacy: x-vector EER (embedded corpus, default size)", "",
                  markdown_table(["config", "EER % pooled", "male", "female", "pitch corr."], rows, ".2f"), ""]
    else:
        parts += ["## Privacy: x-vector EER", "",
                  "Not measured yet: run `VOICE_EER=1 bash bench/voice_eer.sh` (trains the mini attacker, converts "
                  "the trial/enrolment sets with dio and harvest, scores ignorant and lazy-informed attacks).", ""]
    notes = RES / "voice_notes.md"
    if notes.is_file():
        parts += [notes.read_text().rstrip(), ""]
    (RES / "voice.md").write_text("\n".join(parts))
    print(f"wrote {RES / 'voice.md'}")


if __name__ == "__main__":
    main()
