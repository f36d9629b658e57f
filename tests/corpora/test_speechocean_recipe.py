"""egs/speechocean762/s5 end to end at tiny settings on the real speechocean762 subset: 6 test and 6 train
speakers, 8 utterances each, McAdams only; every stage runs and the report holds WER, EER per scenario with
intervals and rho_F0, the VCTK table (2 f + 2 m VCTK speakers, 1 utterance each) and the CPU time of every stage."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from recipe_refusal import assert_refused_before_any_stage

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


# slow: every stage of the real-voice recipe, now with the Whisper meter and the GE2E attacker (4+ CPU-min)
@pytest.mark.slow
def test_tiny_recipe_end_to_end(repo_root, tmp_path, recipe_copy):
    root = SHARED / "speechocean762_adults"
    vctk = SHARED / "vctk_subset"
    if not root.is_dir() or not vctk.is_dir():
        pytest.skip(f"real data subset {root} or {vctk} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    # the x-vector attacker alone (ECAPA: tests/attack/test_ecapa.py), with and without VAD
    args = ["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--voice-configs", "mcadams:-",
            "--general-lm", "false", "--bootstrap", "50", "--nj", "2", "--vctk-root", str(vctk),
            "--vctk-table", "true", "--neutral-corpus", "false",   # stage 4b: tests/corpora/test_speechocean_neutral.py
            "--attackers", "xvector:conf/xvector/mini.yaml"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=1800)   # ~4 CPU-min; loaded machines
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    res = (rec / "RESULTS.md").read_text()
    row = next(ln for ln in res.splitlines() if ln.startswith("| McAdams"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # WER converted (Whisper, then pocketsphinx), WER masked, EER x 4 scenarios + informed-same-draws ([lo, hi]), rho_F0
    assert len(cells) == 10
    for c in cells[1:9]:
        m = re.fullmatch(r"(\d+\.\d) \[(\d+\.\d), (\d+\.\d)\]", c)
        assert m, c
        assert float(m.group(2)) <= float(m.group(1)) <= float(m.group(3))
    assert 0.0 < float(cells[9]) < 1.0   # McAdams keeps the pitch contour: rho_F0 high, not 1
    rep = json.loads((rec / "exp" / "report.json").read_text())
    assert rep["counts"]["enroll_speakers"] == 6 and rep["counts"]["wer_speakers"] == 6
    assert set(rep["eer"]) == {"plda", "cosine"}
    assert set(rep["eer"]["plda"]) == {"original", "ignorant_mcadams", "lazy-informed_mcadams",
                                       "semi-informed_mcadams", "parameter-shifted_mcadams",
                                       "informed-same-draws_mcadams"}
    # the semi-informed attacker trains on the WHOLE training set converted by himself (VoicePrivacy 2024), the
    # extra rows on the --converted-train-per-spk subset
    data = rec / "data"

    def utts(d):
        return set((data / d / "utt2spk").read_text().split()[::2])
    assert utts("train_xv_mcadams_a") == utts("train_xv") and len(utts("train_xv")) == 48
    assert utts("train_xv_mcadams_ps") == utts("train_xvc") < utts("train_xv")
    for fe in ("energy", "none"):
        adir = rec / "exp" / "attack" / f"xvector_{fe}"
        summ = json.loads((adir / "semi-informed_mcadams" / "xvector_nnet" / "train_summary.json").read_text())
        assert summ["data"] == "data/train_xv_mcadams_a" and summ["utterances"] == 48 and summ["vad"] == fe
        assert summ["speakers"] == 6 and summ["cpu_seconds"] > 0
        m = json.loads((adir / "semi-informed_mcadams" / "scores" / "metrics.json").read_text())
        assert m["info"]["scenario"] == "semi-informed" and m["info"]["train_speakers"] == 6
    # the extra rows with one front-end only
    assert (rec / "exp/attack/xvector_energy/parameter-shifted_mcadams/scores/metrics.json").is_file()
    assert not (rec / "exp/attack/xvector_none/parameter-shifted_mcadams").exists()
    # the grid: every scenario under both front-ends, EER [interval] / linkability, semi-informed first
    grid = re.search(r"<!-- begin so-attackers -->(.*?)<!-- end", res, re.S).group(1)
    rows = [ln for ln in grid.splitlines() if ln.startswith("| McAdams")]
    assert [r.split("|")[2].strip() for r in rows] == ["semi-informed", "lazy-informed", "ignorant",
                                                       "parameter-shifted (extra)", "informed-same-draws (extra)"]
    cells = [c.strip() for c in rows[0].strip("|").split("|")][3:]
    assert len(cells) == 4 and all(re.fullmatch(r"\d+\.\d \[\d+\.\d, \d+\.\d\] / (\d\.\d\d|n/a)", c) for c in cells), cells
    assert "Methods ranked under the strongest attacker" in res
    # the attackers' enrollment is converted from ORIGINAL enrollment audio with their own seed / parameters
    assert (rec / "data" / "test_enroll_mcadams_a").is_dir() and (rec / "data" / "test_enroll_mcadams_ps").is_dir()
    # informed-same-draws: the publisher's seed on ORIGINAL enrollment audio, a separate dir from the published set
    assert (rec / "data" / "test_enroll_mcadams_p").is_dir() and (rec / "data" / "train_xv_mcadams_p").is_dir()
    # the LM never saw a test transcript; the masked set leaks nothing
    lm_text = (rec / "exp" / "lm_train" / "lm_info.json").read_text()
    assert json.loads(lm_text)["sentences"] == 48
    assert "leaks: audio 0, text 0" in p.stdout
    # the VCTK table: original and McAdams, general LM, 1 utterance of each of 4 speakers
    assert set(rep["vctk"]) == {"vctk", "vctk_mcadams"}
    assert rep["counts"]["vctk_speakers"] == 4 and rep["vctk"]["vctk"]["utterances"] == 4
    assert rep["vctk"]["vctk"]["words"] == rep["vctk"]["vctk_mcadams"]["words"] > 0
    assert "VCTK sample: pocketsphinx WER" in res and re.search(r"\| McAdams +\| \d+\.\d \[", res)
    assert (rec / "exp" / "ps" / "decode_general_vctk_mcadams" / "decode_pocketsphinx.json").is_file()
    # the phone error rate beside the word WER (stage 5, --per true): original first, paired difference, meter's WER
    per = [ln.split("\t") for ln in (rec / "exp" / "utility" / "per.tsv").read_text().splitlines()]
    assert [r[0] for r in per] == ["method", "original", "mcadams"]
    o, m = (dict(zip(per[0], r)) for r in per[1:])
    assert 0 < float(o["per"]) < 100 and o["n_phones"] == m["n_phones"] and m["per_diff"] != "NA"
    assert m["wer_original_meter"] == o["wer"] != "NA"
    assert "phone error rate of phone-loop decoding" in res and re.search(r"\| McAdams +\| \d+\.\d \[", res)
    # the Whisper meter (stage 5, primary): original, McAdams, McAdams masked; paired difference; pocketsphinx beside
    wt = json.loads((rec / "exp" / "utility" / "whisper.json").read_text())
    assert [r["condition"] for r in wt["rows"]] == ["original", "mcadams", "mcadams+masked"]
    assert wt["model"] == "tiny.en" and wt["rows"][0]["utterances"] == 12 and wt["rtf"] > 0
    assert wt["rows"][1]["whisper_diff"]["utterances"] == 12 and "ps_wer" in wt["rows"][1]
    assert "Utility under the Whisper meter (tiny.en): the utility subset" in res
    assert "Its own WER on original speech" in res
    vt = json.loads((rec / "exp" / "utility" / "whisper_vctk.json").read_text())
    assert [r["condition"] for r in vt["rows"]] == ["original", "mcadams"] and vt["rows"][0]["utterances"] == 4
    # CPU and wall time of every stage 0-6 (stage 7 writes the table while it runs)
    assert [r["stage"] for r in rep["stage_times"]] == [str(i) for i in range(7)]
    assert all(r["cpu_s"] >= 0 for r in rep["stage_times"]) and sum(r["cpu_s"] for r in rep["stage_times"]) > 10
    assert "Run time per stage" in res
    # a rerun finds everything done and rewrites the same tables
    p2 = subprocess.run(args + ["--stage", "1"], cwd=rec, capture_output=True, text=True, timeout=600)
    assert p2.returncode == 0, p2.stderr[-2000:]
    res2 = (rec / "RESULTS.md").read_text()
    assert res2.count("| McAdams") == res.count("| McAdams") and res2.count("<!-- begin so-attackers -->") == 1
    assert res2.count("<!-- begin so-utility-per -->") == 1   # stage 5's phone error rates, once
    assert res2.count("<!-- begin so-utility-whisper -->") == 1


def test_unknown_method_is_refused(repo_root, tmp_path, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "pitchshift:-", "--stop-stage", "0"], cwd=rec,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "unknown method in --voice-configs: pitchshift:-" in p.stderr


@pytest.mark.slow
def test_tiny_recipe_attacker_extra_data_vctk(repo_root, tmp_path, recipe_copy):
    """--attacker-extra-data vctk: the VCTK speakers join the training data of every attacker, original for the
    original-trained ones, converted by the attacker himself (his seed / shifted parameters) for semi-informed and
    parameter-shifted; the attacks and their tables are kept apart (exp/attack_xvctk)."""
    root, vctk = SHARED / "speechocean762_adults", SHARED / "vctk_subset"
    if not root.is_dir() or not vctk.is_dir():
        pytest.skip(f"real data subset {root} or {vctk} is absent (read in place from ../shared/data)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    args = ["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--voice-configs", "mcadams:-",
            "--general-lm", "false", "--bootstrap", "50", "--nj", "2", "--vctk-root", str(vctk),
            "--attacker-extra-data", "vctk", "--attackers", "xvector:conf/xvector/mini.yaml", "--front-ends", "energy"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=1500)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    data = rec / "data"

    def utts(d):
        return set((data / d / "utt2spk").read_text().split()[::2])
    vctk_utts = utts("vctk_full")
    assert len(vctk_utts) == 8   # 2 f + 2 m speakers, 2 utterances each
    assert utts("train_xv_xvctk") == utts("train_xv") | vctk_utts
    assert utts("train_xv_mcadams_a_xvctk") == utts("train_xv_mcadams_a") | vctk_utts
    # the attacker's own conversion of the VCTK audio (his seed), never the original audio
    wav_a = (data / "vctkx_mcadams_a" / "wav.scp").read_text()
    assert str(vctk) not in wav_a and "vctkx_mcadams_a" in wav_a
    rep = json.loads((rec / "exp" / "report_xvctk.json").read_text())
    assert set(rep["eer"]["plda"]) == {"original", "ignorant_mcadams", "lazy-informed_mcadams",
                                       "semi-informed_mcadams", "parameter-shifted_mcadams"}
    assert "attackers + vctk" in (rec / "RESULTS.md").read_text()
    assert not (rec / "exp" / "attack").exists()


@pytest.mark.parametrize("configs, message", [
    ("mcadams:nosuch", "--voice-configs mcadams:nosuch: no config conf/voice/mcadams_nosuch.yaml"),
    ("mcadams:vtln3", "--voice-configs mcadams:vtln3 chains on VTLN S3: add vtln:3 to --voice-configs"),
    ("vtln:4", "--voice-configs vtln:4: vtln takes a target strategy 1, 2 or 3"),
])
def test_voice_config_variants_are_checked(repo_root, tmp_path, configs, message, recipe_copy):
    """<method>:<variant> names a config pair that must exist; a chain names a VTLN run that must be listed."""
    assert_refused_before_any_stage(recipe_copy("speechocean762", tmp_path / "s5"), ["--voice-configs", configs],
                                    message)


@pytest.mark.parametrize("voice, message", [
    ("frame_select:nosuch", "--neutral-voice frame_select:nosuch: no config conf/voice/frame_select_nosuch.yaml"),
    ("mcadams:nosuch", "--neutral-voice mcadams:nosuch: no config conf/voice/mcadams_nosuch.yaml"),
    ("vtln:3_nosuch", "--neutral-voice vtln:3_nosuch: no config conf/voice/vtln_nosuch.yaml"),
])
def test_neutral_voice_variant_is_checked(repo_root, tmp_path, voice, message, recipe_copy):
    """The published voices' config must exist: refused before any stage, not at stage 4b."""
    assert_refused_before_any_stage(recipe_copy("speechocean762", tmp_path / "s5"), ["--neutral-voice", voice],
                                    message)


def test_voice_config_variants_accepted(repo_root, tmp_path, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 mcadams:range mcadams:vtln3 voicemask:target",
                        "--stage", "99"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr


def test_shifted_configs_must_name_a_voice_config(repo_root, tmp_path, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 mcadams:-", "--shifted-configs", "mcadams:range",
                        "--stop-stage", "0"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "--shifted-configs mcadams:range is not one of --voice-configs" in p.stderr, p.stderr
    assert not (rec / "data").exists()
    ok = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 mcadams:-", "--shifted-configs", "mcadams:-",
                         "--stage", "99"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr


def test_stage2_makes_the_text_again_when_its_strategy_changes(repo_root, tmp_path, recipe_copy):
    """A rerun of stage 2 with another --text-strategy makes data/test_text again: it used to be kept (done_ok),
    and every later stage published the old strategy's text."""
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")

    def run(*extra):
        p = subprocess.run(["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--voice-configs", "mcadams:-",
                            "--stop-stage", "2", *extra], cwd=rec, capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
        return p, (rec / "data/test_text/text").read_text()
    _, first = run()
    p, same = run("--stage", "2")
    assert same == first and "made again" not in p.stderr
    p, other = run("--stage", "2", "--text-strategy", "default=placeholder")
    assert "data/test_text was made from other inputs: removed, made again" in p.stderr, p.stderr[-2000:]
    assert other != first
