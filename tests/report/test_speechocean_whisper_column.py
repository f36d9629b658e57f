"""The speechocean762 main table carries the Whisper meter's WER first when stage 5 wrote exp/utility/whisper.json,
and stays as it was without it."""

from pydeid.report.speechocean_report import SCENARIOS, render


def _rep(whisper: bool) -> dict:
    w = {"wer_pct": 80.0, "ci": [70.0, 90.0], "utterances": 60, "words": 412, "rtf": 1.0}
    rep = {"wer": {"general:test_wer": w, "general:test_wer_mcadams": w, "general:test_wer_mcadams_masked": w},
           "eer": {"original": None, **{f"{sc}_mcadams": None for sc in SCENARIOS}},
           "rho_f0": {"mcadams": {"rho": 0.8, "utterances": 60}}, "scenarios": list(SCENARIOS), "backend": "plda",
           "primary": "xvector_energy", "attack_tag": "",
           "counts": {"wer_utterances": 60, "wer_speakers": 30, "trials_target": 150, "trials_nontarget": 2140,
                      "enroll_speakers": 30, "bootstrap": 1000}}
    if whisper:
        rep["whisper"] = {"model": "tiny.en", "rows": [
            {"condition": "original", "whisper_wer": 25.7, "whisper_ci95": [17.1, 34.9]},
            {"condition": "mcadams", "whisper_wer": 31.0, "whisper_ci95": [22.0, 40.5]}]}
    return rep


def _main_rows(rep):
    title, body = next(v for v in render(rep, ["mcadams:-"], ["general"]).values() if "| McAdams" in v[1])
    head = next(ln for ln in body.splitlines() if ln.startswith("| method"))
    rows = {ln.split("|")[1].strip(): [c.strip() for c in ln.strip().strip("|").split("|")]
            for ln in body.splitlines() if ln.startswith("| McAdams") or ln.startswith("| original")}
    return head, rows, body


def test_whisper_column_first_when_stage_5_wrote_it():
    head, rows, body = _main_rows(_rep(True))
    assert "WER conv. (Whisper tiny.en)" in head.split("|")[2]
    assert rows["original (no conversion)"][1] == "25.7 [17.1, 34.9]" and rows["McAdams"][1] == "31.0 [22.0, 40.5]"
    assert rows["McAdams"][2] == "80.0 [70.0, 90.0]"   # pocketsphinx's column follows
    assert "Utility under the Whisper meter" in body


def test_table_unchanged_without_whisper():
    head, rows, _ = _main_rows(_rep(False))
    assert "Whisper" not in head and rows["McAdams"][1] == "80.0 [70.0, 90.0]"


def test_ranking_utility_is_the_primary_meter_when_decoded():
    from pydeid.report.speechocean_report import ranking_utility
    pct, ci, label = ranking_utility(_rep(True), ["mcadams"], "general")
    assert label == "Whisper tiny.en" and pct == {"": 25.7, "mcadams": 31.0} and ci["mcadams"] == "31.0 [22.0, 40.5]"
    pct, ci, label = ranking_utility(_rep(False), ["mcadams"], "general")
    assert "Whisper" not in label and pct == {"": 80.0, "mcadams": 80.0}
