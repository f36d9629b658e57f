"""bench/results/whisper_meter.md from bench/whisper_meter.sh's decode dirs: per data set, WER with the speaker-
bootstrap 95 % interval, RTF on one core, guard counts for tiny.en and base, pocketsphinx (general LM) beside them,
and the paired difference base - tiny.en. Usage: python bench/whisper_meter_report.py <work> <out.md>"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydeid.asr.whisper_models import MODELS, install_size_mb
from pydeid.report.whisper_table import _paired, _per_utt, _wer_ci
from pydeid.report.tables import markdown_table

SETS = {"so762_test_wer": "speechocean762 utility subset (60 utts, 30 L2 speakers; the recipe's reported part)",
        "vctk": "VCTK sample (the recipe's data/vctk: 25 utts, 13 native speakers)",
        "librispeech_mini": "librispeech_mini (10 utts, 3 speakers, dev-clean)"}


def main(work: str, out: str) -> None:
    exp = Path(work) / "exp"
    rows, pairs, figures = [], [], {}
    for s, label in SETS.items():
        pu = {}
        for m in ("tiny.en", "base", "pocketsphinx"):
            d = exp / s / (m if m == "pocketsphinx" else f"whisper_{m}")
            if not (d / "scoring" / "per_utt.json").is_file():
                continue
            pu[m] = _per_utt(d)
            wer, ci = _wer_ci(pu[m], 1000, 0)
            info = json.loads((d / ("decode_pocketsphinx.json" if m == "pocketsphinx" else
                                    "decode_whisper.json")).read_text())
            g = info.get("guard_counts")
            figures[f"{s}:{m}"] = {"wer": wer, "ci95": ci, "rtf": info["rtf"], "utterances": len(pu[m]),
                                   "words": sum(c["words"] for c in pu[m].values()), "guards": g,
                                   "cpu_s": info["decode_cpu_seconds"], "audio_s": info["audio_seconds"]}
            rows.append([label if not rows or rows[-1][0] != label else "", m, len(pu[m]),
                         figures[f"{s}:{m}"]["words"], f"{wer:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]", info["rtf"],
                         "-" if g is None else f"{info['guard_changed_utterances']} "
                                               f"({', '.join(f'{k} {v}' for k, v in g.items())})"])
        if "tiny.en" in pu and "base" in pu:
            d = _paired(pu["tiny.en"], pu["base"], 1000, 0)
            pairs.append([label, f"{d['diff']:+.1f} [{d['ci95'][0]:.1f}, {d['ci95'][1]:.1f}]",
                          "yes" if d["beyond_noise"] else "no"])
            figures[f"{s}:base-tiny.en"] = d
    md = ["# The Whisper meter: tiny.en or base (bench/whisper_meter.sh)\n",
          "faster-whisper 1.2.1, CTranslate2 int8 on CPU, one thread, beam 5, temperature 0 only, language en, no VAD, "
          "no conditioning on previous text, loop guards (pydeid.asr.whisper_guards). References and hypotheses "
          "normalised alike (lower case, punctuation removed, numbers spelled: pydeid.asr.numbers). RTF = decoding "
          "CPU seconds (process time, model loading excluded) / audio seconds, measured on the shared 2-core machine "
          "under load (load average 12-15): an upper bound of the unloaded cost. Intervals: speaker bootstrap, "
          "1000 resamples, seed 0.\n",
          markdown_table(["data", "meter", "utts", "words", "WER % [95 % CI]", "RTF (1 core)",
                          "guard-changed utts (per guard)"], rows),
          "\nPaired difference base - tiny.en (WER points, the same speakers drawn for both):\n",
          markdown_table(["data", "base - tiny.en [95 % CI]", "beyond noise"], pairs),
          "\nInstall size of the weights: " + ", ".join(
              f"{m} {install_size_mb(m)} MB ({' + '.join(MODELS[m]['packages'])})" for m in MODELS) +
          " (base's two parts are joined once into a 145 MB cache copy, so base takes about 293 MB on disk).\n"]
    Path(out).write_text("\n".join(md))
    Path(out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main(*sys.argv[1:3])
