"""The Whisper utility table: every condition's WER under the Whisper meter with its speaker-bootstrap 95 %
interval, the PAIRED difference against original speech (the same speakers drawn for both; utterances both
conditions hold), the utterances a loop guard changed, and pocketsphinx as the second column; under the table the
meter's own WER on original speech and its CPU cost (RTF on one core).

Inputs are decode dirs scored by `pydeid score-wer` (scoring/per_utt.json: words, sub, del, ins per utterance).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydeid.io import FormatError, atomic_write_text
from pydeid.report.tables import markdown_table

N_BOOT = 1000


def _per_utt(decode_dir: Path) -> dict[str, dict]:
    f = decode_dir / "scoring" / "per_utt.json"
    if not f.is_file():
        raise FormatError(f, None, "missing: score the decode dir first (pydeid score-wer)")
    return json.loads(f.read_text())


def _wer_ci(pu: dict[str, dict], n_boot: int, seed: int) -> tuple[float | None, list | None]:
    from pydeid.asr.score import wer_bootstrap_ci
    words = sum(c["words"] for c in pu.values())
    if not words:
        return None, None
    wer = 100.0 * sum(c["sub"] + c["del"] + c["ins"] for c in pu.values()) / words
    ci = wer_bootstrap_ci(pu, list(pu), {u: c["spk"] for u, c in pu.items()}, n_boot=n_boot, seed=seed)
    return wer, (list(ci) if ci else None)


def _paired(a: dict, b: dict, n_boot: int, seed: int) -> dict | None:
    from pydeid.asr.phone_decode import paired_difference
    if not set(a) & set(b):
        return None
    as_ph = lambda pu: {u: {**c, "phones": c["words"]} for u, c in pu.items()}  # noqa: E731 (same counts)
    utt2spk = {u: c["spk"] for u, c in a.items()}
    return paired_difference(as_ph(a), as_ph(b), utt2spk, n_boot=n_boot, seed=seed)


def _ci(ci) -> str:
    return f"[{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "n/a"


def whisper_table(specs: list[tuple[str, str, str | None]], original: str = "original", n_boot: int = N_BOOT,
                  seed: int = 0) -> dict:
    """specs: (condition, whisper decode dir, pocketsphinx decode dir or None); `original` names the baseline."""
    names = [s[0] for s in specs]
    if original not in names:
        raise FormatError(None, None, f"no condition named '{original}' among {names}")
    w = {n: _per_utt(Path(d)) for n, d, _ in specs}
    p = {n: _per_utt(Path(d)) for n, _, d in specs if d}
    rows, audio, cpu, model, guards_total = [], 0.0, 0.0, None, 0
    for n, d, pd in specs:
        info = json.loads((Path(d) / "decode_whisper.json").read_text())
        audio += info["audio_seconds"]
        cpu += info["decode_cpu_seconds"]
        model = info["model"]
        guards_total += info["guard_changed_utterances"]
        wer, ci = _wer_ci(w[n], n_boot, seed)
        row = {"condition": n, "utterances": len(w[n]), "speakers": len({c["spk"] for c in w[n].values()}),
               "words": sum(c["words"] for c in w[n].values()), "whisper_wer": wer, "whisper_ci95": ci,
               "guard_changed": info["guard_changed_utterances"], "rtf": info["rtf"]}
        if n != original:
            if w[n] and w[original] and not set(w[n]) & set(w[original]):
                # a published dir's keyed ids: the paired difference would silently be missing
                raise FormatError(Path(d), None, f"condition '{n}' shares no utterance id with '{original}': "
                                                 "decode the working dir (original ids), not a published copy")
            row["whisper_diff"] = _paired(w[original], w[n], n_boot, seed)
        if pd:
            row["ps_wer"], row["ps_ci95"] = _wer_ci(p[n], n_boot, seed)
            if n != original and original in p:
                row["ps_diff"] = _paired(p[original], p[n], n_boot, seed)
        rows.append(row)
    return {"model": model, "rows": rows, "audio_seconds": round(audio, 1), "cpu_seconds": round(cpu, 1),
            "rtf": round(cpu / audio, 3) if audio else None, "guard_changed": guards_total,
            "original": original, "n_boot": n_boot, "seed": seed}


def _diff(d) -> str:
    if not d:
        return "-"
    return f"{d['diff']:+.1f} {_ci(d['ci95'])}{'' if d['beyond_noise'] else ' (n.s.)'}"


def to_markdown(t: dict, ps_label: str = "pocketsphinx") -> str:
    has_ps = any("ps_wer" in r for r in t["rows"])
    head = ["condition", "utts", "words", f"Whisper {t['model']} WER % [95 % CI]", "- original (paired, points)",
            "guard-changed utts"]
    if has_ps:
        head += [f"{ps_label} WER % [95 % CI]", f"{ps_label} - original"]
    rows = []
    for r in t["rows"]:
        row = [r["condition"], r["utterances"], r["words"],
               f"{r['whisper_wer']:.1f} {_ci(r['whisper_ci95'])}" if r["whisper_wer"] is not None else "n/a",
               _diff(r.get("whisper_diff")), r["guard_changed"]]
        if has_ps:
            row += [f"{r['ps_wer']:.1f} {_ci(r['ps_ci95'])}" if r.get("ps_wer") is not None else "-",
                    _diff(r.get("ps_diff"))]
        rows.append(row)
    orig = next(r for r in t["rows"] if r["condition"] == t["original"])
    foot = (f"\nThe meter: Whisper {t['model']} (faster-whisper int8, beam 5, temperature 0, loop guards; "
            f"docs/utility_meters.md). Its own WER on original speech: {orig['whisper_wer']:.1f} % "
            f"{_ci(orig['whisper_ci95'])} on {orig['utterances']} utterances of {orig['speakers']} speakers. "
            f"CPU cost: RTF {t['rtf']} on one core ({t['cpu_seconds']} CPU s for {t['audio_seconds']} s of audio "
            f"over all rows); {t['guard_changed']} decodings changed by a loop guard. Intervals: speaker bootstrap, "
            f"{t['n_boot']} resamples, seed {t['seed']}; the difference is paired (the same speakers drawn for both, "
            f"utterances both hold), n.s.: the interval holds 0.\n")
    return markdown_table(head, rows) + foot


def write_table(t: dict, out_md: str | Path, results_md: str | Path | None = None, key: str = "whisper-utility",
                title: str = "Utility under the Whisper meter", ps_label: str = "pocketsphinx") -> str:
    md = to_markdown(t, ps_label)
    out_md = Path(out_md)
    atomic_write_text(out_md, md)
    atomic_write_text(out_md.with_suffix(".json"), json.dumps(t, indent=1) + "\n")
    if results_md:
        from pydeid.report import update_results_section
        update_results_section(results_md, key, md, title=title)
    return md
