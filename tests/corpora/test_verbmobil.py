"""VerbMobil (BAS edition) data prep on a synthetic fixture in the BAS formats (built by verbmobil_fixture.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pydeid.corpora.verbmobil import (Dialogue, PrepOptions, assign_split, clean_transliteration,
                                      fix_speaker_id, parse_turn_id, prepare_verbmobil)
from pydeid.corpora.verbmobil.bpf import read_par
from pydeid.corpora.verbmobil.trl import read_trl
from pydeid.io import DataDir, FormatError, read_kaldi_map, validate_data_dir

sys.path.insert(0, str(Path(__file__).parent))
from verbmobil_fixture import EXPECTED_SETS, build_fixture  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return build_fixture(tmp_path_factory.mktemp("vm") / "corpus")


@pytest.fixture(scope="module")
def prepared(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("vmout")
    return prepare_verbmobil([corpus], out), out


# ---- formats -------------------------------------------------------------------------------------------------
def test_turn_id_parts():
    t = parse_turn_id("z902abh0_000_QQC_ENG")
    assert (t.base, t.dialogue, t.channel_name, t.index, t.speaker, t.lang, t.scenario) == (
        "z902abh0_000_QQC", "z902a", "z902abh0", "000", "QQC", "ENG", "a")
    assert parse_turn_id("z901axc0_000_QQA").lang is None
    assert parse_turn_id("BAC000") is None and parse_turn_id("z901axc0_00_QQA") is None


def test_par_header_and_tiers(corpus):
    p = read_par(corpus / "flat" / "z903a" / "z903acn1_000_QQE.par")
    assert p.sample_rate == 8000 and p.speaker == "QQE" and p.header["LHD"] == "Partitur 1.2"
    assert p.tier_text("ORT") == ["$K", "$L", "room"]
    assert p.segments["MAU"][0] == (0, 799, "-1", "<p:>") and len(p.segments["MAU"]) == 4
    q = read_par(corpus / "VM96.1" / "par" / "z901a" / "z901axc0_000_QQA.par")
    assert q.tier_text("TRL")[-1] == "twenty-first<Z>" and "MAU" not in q.segments


def test_trl_wrapped_body_and_header(corpus):
    trl = read_trl(corpus / "VM96.1" / "trl" / "z901a.trl")
    assert list(trl.turns) == ["z901axc0_000_QQA", "z901axc1_001_QQB", "z901axc0_002_QQA", "z901axc1_003_QQB"]
    body = trl.turns["z901axc1_001_QQB"].body
    assert body.startswith("<A> the twenty-first") and body.endswith("{comment text} ?") and "meet=" in body
    assert trl.turns["z901axc1_001_QQB"].line == 4


# ---- markup mapping ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body,keep,drop", [
    ("<uhm> could we +/meet/+ meet on the twenty-first<Z> ?",
     "<hes> could we meet meet on the twenty-first", "could we meet meet on the twenty-first"),
    ("<A> the twenty-first is <%> , <#Klicken> I have a meet= meeting <P> how about <:<Lachen> the second:> , "
     "{comment text} ?",
     "<noise> the twenty-first is <unk> <noise> I have a <unk> meeting how about the second",
     "the twenty-first is I have a meeting how about the second"),
    ('<"ahm> <#> <Lachen> yes <Husten> [note] <;T> fine', "<hes> <noise> <laugh> yes <noise> fine", "yes fine"),
    ("*blorptime <!1 gonna> -/ we /- can <GER> ja </GER> go", "blorptime we can <unk> go", "blorptime we can go"),
    ("$K $L room", "k l room", "k l room"),
    ("abh=/+ the M\"unchen office", "<unk> the München office", "the München office"),
])
def test_cleaner_mapping(body, keep, drop):
    assert clean_transliteration(body).text == keep
    assert clean_transliteration(body, markers="drop").text == drop


def test_cleaner_flags_and_options():
    c = clean_transliteration("we <GER> ja </GER> go <Foo_bar> x@y")
    assert any("foreign" in f for f in c.flags) and any("<Foo_bar>" in f for f in c.flags)
    assert any("x@y" in f for f in c.flags) and c.text == "we <unk> go <unk>"
    assert clean_transliteration("$A-$G-$T", letters="dotted").text == "A. G. T."
    assert clean_transliteration("<Husten> <A> <;T>").n_words == 0
    assert clean_transliteration("Monday at ten", case="upper").text == "MONDAY AT TEN"


# ---- speaker-id fixes and split rules --------------------------------------------------------------------------
def test_speaker_fixes():
    assert fix_speaker_id("CAC", "VM1", "q030a") == "CACVM1"
    assert fix_speaker_id("RGM", "VM2", "e101a") == "RGMVM2"
    assert fix_speaker_id("MAS", "VM1", "q007n") == "MASVMZ"
    assert fix_speaker_id("MAS", "VM1", "q008n") == "MASVMX"
    assert fix_speaker_id("ABC", "VM2", "e101a") == "ABCVMX"
    assert fix_speaker_id("JDH", None, "e101a") == "JDHVMX"  # part unknown: reported by the prep


def _d(name, vol, *spk):
    return name, Dialogue(name, vol, set(spk))


def test_split_rules_unit():
    dialogues = dict([
        _d("q012a", 6, "AAAVMX", "BBBVMX"),      # CD 6 q010-q020 -> test
        _d("q025a", 6, "ZZZVMX", "YYYVMX"),      # CD 6 outside the ranges -> train
        _d("e500a", 23, "BBBVMX", "CCCVMX"),     # shares BBB with test -> test (closure)
        _d("e501a", 23, "CCCVMX", "DDDVMX"),     # shares CCC with e500a -> test (closure repeats)
        _d("e600b", 55, "EEEVMX", "FFFVMX"),     # CD 55 -> test
        _d("e601a", 51, "GGGVMX", "HHHVMX"),     # CD 51 -> dev
        _d("q004a", 6, "IIIVMX", "JJJVMX"),      # CD 6 q001-q009 -> dev
        _d("q021a", 6, "KKKVMX", "LLLVMX"),      # q021 -> dev
        _d("e602a", 23, "JJJVMX", "MMMVMX"),     # shares JJJ with dev -> dev
        _d("q013a", 6, "QZOVMX", "NNNVMX"),      # test seed, but QZO moves to dev
        _d("e603a", 23, "ADBVMX", "OOOVMX"),     # ADB -> test
        _d("e604a", 23, "OOOVMX", "PPPVMX"),     # shares OOO with ADB's dialogue -> test
        _d("e605a", 23, "VNCVMX", "RRRVMX"),     # VNC -> dev
        _d("e606a", 23, "SSSVMX", "TTTVMX"),     # train
        _d("e607a", 8, "QZBVMX", "UUUVMX"),      # QZB: never in test, stays train
    ])
    s = assign_split(dialogues)
    assert {n for n, v in s.items() if v == "test"} == {"q012a", "e500a", "e501a", "e600b", "e603a", "e604a"}
    assert {n for n, v in s.items() if v == "dev"} == {"e601a", "q004a", "q021a", "e602a", "q013a", "e605a"}
    assert {n for n, v in s.items() if v == "train"} == {"q025a", "e606a", "e607a"}
    train_spk = set().union(*(dialogues[n].speakers for n, v in s.items() if v == "train"))
    other_spk = set().union(*(dialogues[n].speakers for n, v in s.items() if v != "train"))
    assert not train_spk & other_spk


def test_hcf_moves_whole_dialogue_to_dev():
    dialogues = dict([_d("q015a", 6, "HCFVMX", "DDDVMX"), _d("e700a", 47, "XXXVMX", "WWWVMX")])
    assert assign_split(dialogues) == {"q015a": "dev", "e700a": "test"}


# ---- the whole prep on the fixture ---------------------------------------------------------------------------
def test_prep_sets_and_speakers(prepared):
    res, out = prepared
    for name in ("train", "dev", "test"):
        validate_data_dir(out / name, check_audio=True)
        d = DataDir.read(out / name)
        dialogues = set(read_kaldi_map(out / name / "utt2dialogue").values())
        assert dialogues == EXPECTED_SETS[name], name
        for utt, spk in d.utt2spk.items():
            assert utt.startswith(spk + "_") and spk[3:] in ("VM1", "VM2", "VMX", "VMZ")
        for utt in d.utts:
            assert d.load_audio(utt).size > 1000
    train = DataDir.read(out / "train")
    assert {"CACVM1", "CACVM2", "MASVMX"} <= set(train.speakers)
    assert "MASVMZ" in DataDir.read(out / "dev").speakers
    spk_sets = read_kaldi_map(out / "local" / "verbmobil" / "spk2set")
    assert all(len(v.split()) == 1 for v in spk_sets.values())
    assert spk_sets["ADBVMX"] == "test" and spk_sets["VNCVMX"] == "dev" and spk_sets["HCFVMX"] == "dev"


def test_prep_texts_and_skips(prepared):
    res, out = prepared
    text = read_kaldi_map(out / "train" / "text")
    assert text["QQAVMX_z901axc0_000_QQA"] == "<hes> could we meet on the twenty-first"
    assert text["QQBVMX_z901axc1_001_QQB"].startswith("<noise> the twenty-first is <unk>")
    assert text["QQEVMX_z903acn1_000_QQE"] == "k l room"
    assert text["QQCVMX_z902abh0_000_QQC"] == "that is fine for me"   # _ENG signal, suffix-less .par
    status = {b: (t.status, t.reason) for b, t in res.turns.items()}
    assert status["z901axc0_002_QQA"][0] == "skipped" and "marker-only" in status["z901axc0_002_QQA"][1]
    assert status["z902abh1_001_QQD"] == ("excluded", "language GER")
    assert status["z903acn1_001_QQE"] == ("skipped", "missing signal")
    assert res.turns["z901axc1_003_QQB"].flags  # foreign stretch flagged
    report = (out / "local" / "verbmobil" / "report.txt").read_text()
    assert "skipped: missing signal\t1" in report and "excluded: language GER\t1" in report
    turns = (out / "local" / "verbmobil" / "turns.tsv").read_text()
    assert "z901axc0_002_QQA\t-\tskipped" in turns


def test_prep_signals_rates_and_segments(prepared, corpus):
    res, out = prepared
    train = DataDir.read(out / "train")
    # 8 kHz turn: the duration comes from the file's header (rate 8000), not an assumed 16 kHz
    assert abs(train.utt2dur["QQEVMX_z903acn1_000_QQE"] - 0.4) < 1e-3
    assert train.wav_scp["QQEVMX_z903acn1_000_QQE"] == str((corpus / "flat/z903a/z903acn1_000_QQE.wav").resolve())
    # PhonDat turns converted to WAV under local/verbmobil/wav
    assert "/local/verbmobil/wav/" in train.wav_scp["CACVM1_q030axc0_000_CAC"]
    # per-speaker NIST file cut by the marker file -> segments
    dev = DataDir.read(out / "dev")
    seg = dev.segments["OOOVMX_e107axc0_000_OOO"]
    assert (seg.reco, seg.start, seg.end) == ("e107axc0", 0.2, 0.6)
    assert dev.wav_scp["e107axc0"].endswith("e107axc0.16")
    # NIST .nis turn files are referenced in place
    test = DataDir.read(out / "test")
    assert test.wav_scp["LLLVMX_e201bxc0_000_LLL"].endswith(".nis")


def test_prep_subsets_and_genders(prepared):
    res, out = prepared
    sub = {u: v.split() for u, v in read_kaldi_map(out / "test" / "utt2subset").items()}
    assert set(sub["LLLVMX_e201bxc0_000_LLL"]) == {"ALL", "DB", "DE", "DE+"}      # info desk, German speaker
    assert set(sub["MMMVMX_e201bxc1_001_MMM"]) == {"ALL", "DB", "EN", "EN-"}
    assert "DE+" in sub["ADBVMX_e103axc0_000_ADB"] and "EN-" not in sub["ADBVMX_e103axc0_000_ADB"]
    assert set(sub["AAAVMX_q012axc0_000_AAA"]) == {"ALL", "DA", "EN", "DA_EN", "EN-", "DA_EN-"}
    spk = read_kaldi_map(out / "dev" / "spk2subset")
    assert spk["HCFVMX"] == "DE DE+" and spk["VNCVMX"] == "EN DE+"
    s2g = read_kaldi_map(out / "train" / "spk2gender")
    assert s2g["QQBVMX"] == "f" and s2g["QQAVMX"] == "m"


def test_prep_markers_drop(corpus, tmp_path):
    prepare_verbmobil([corpus], tmp_path, PrepOptions(markers="drop"))
    text = read_kaldi_map(tmp_path / "train" / "text")
    assert text["QQAVMX_z901axc0_000_QQA"] == "could we meet on the twenty-first"
    assert not any("<" in t for t in text.values())


# ---- malformed input -------------------------------------------------------------------------------------------
def test_malformed_par_fails_with_file_and_line(corpus, tmp_path):
    bad = tmp_path / "c"
    shutil.copytree(corpus / "flat", bad / "flat")
    par = bad / "flat" / "z903a" / "z903acn1_000_QQE.par"
    par.write_text(par.read_text(encoding="latin-1").replace("ORT:\t1\t$L", "ORT:\tone\t$L"), encoding="latin-1")
    with pytest.raises(FormatError) as e:
        prepare_verbmobil([bad], tmp_path / "out")
    assert str(e.value).startswith(f"{par}:6: ORT word index must be an integer")
    assert not (tmp_path / "out" / "train").exists()
    res = prepare_verbmobil([bad], tmp_path / "out2", PrepOptions(skip_malformed=True))
    assert res.turns["z903acn1_000_QQE"].status == "skipped"


def test_malformed_trl_and_cli_message(corpus, tmp_path):
    bad = tmp_path / "c"
    shutil.copytree(corpus / "VM96.1", bad / "VM96.1")
    trl = bad / "VM96.1" / "trl" / "z901a.trl"
    trl.write_text(trl.read_text() + "z901axc0_000_QQA: again\n")
    env = dict(os.environ)
    p = subprocess.run([sys.executable, "-m", "pydeid", "prepare-verbmobil", str(tmp_path / "out"), str(bad)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 1
    assert f"{trl}:8: turn z901axc0_000_QQA already given at line 3" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    with pytest.raises(FormatError, match="not a BPF line"):
        par = bad / "VM96.1" / "par" / "z901a" / "z901axc0_000_QQA.par"
        par.write_text("LHD:\tPartitur 1.3\ngarbage line\n")
        read_par(par)


def test_run_sh_data_stage(recipe_copy, corpus, tmp_path):
    rec = recipe_copy("verbmobil", tmp_path / "s5")
    args = ["./run.sh", "--stage", "0", "--stop-stage", "0", "--corpus-roots", str(corpus), "--num-enroll", "1"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    for name in ("train", "dev", "test", "test_enroll", "test_trial"):
        validate_data_dir(rec / "data" / name)
    assert (rec / "data" / "test_trial" / "trials").read_text().strip()
    text = read_kaldi_map(rec / "data" / "train" / "text")
    assert not any("<" in t for t in text.values())   # the recipe default drops markers


def test_clarin_layout_with_user_tables(tmp_path):
    """Layout B carries no volume in its paths: a dialogue->volume table makes the CD rules apply; genders from
    a VM1 AufDat table (fields 15/16, 24/25), native language from a user table."""
    from verbmobil_fixture import _par, _wav
    root = tmp_path / "clarin"
    for i, (tid, spk, words) in enumerate((("q012axc0_000_AAA", "AAA", "monday then"),
                                           ("q012axc1_001_BBB", "BBB", "monday is fine"),
                                           ("e808axc0_000_CCC", "CCC", "see you"))):
        _par(root / tid[:5] / f"{tid}.par", spk, words.split())
        _wav(root / tid[:5] / f"{tid}.wav", 50 + i)
    fields = ["."] * 25
    fields[0], fields[14], fields[15], fields[23], fields[24] = "q012a", "AAA", "m", "BBB", "w"
    (root / "AufDat.txt").write_text("\t".join(fields) + "\n")
    vols = tmp_path / "dialogue2volume"
    vols.write_text("q012a VM6.1\ne808a 23\n")
    native = tmp_path / "native"
    native.write_text("AAA de\nBBB en\n")
    res = prepare_verbmobil([root], tmp_path / "out", PrepOptions(dialogue_volumes=vols, native_table=native))
    assert res.dialogue2set == {"q012a": "test", "e808a": "train"}
    test = DataDir.read(tmp_path / "out" / "test")
    assert test.spk2gender == {"AAAVMX": "m", "BBBVMX": "f"}
    assert read_kaldi_map(tmp_path / "out" / "test" / "spk2subset") == {"AAAVMX": "DE DE+", "BBBVMX": "EN EN-"}
    # CCC has no gender anywhere: the train set gets no partial gender table, and the report says so
    assert DataDir.read(tmp_path / "out" / "train").spk2gender is None
    assert "without a known gender" in (tmp_path / "out" / "local" / "verbmobil" / "report.txt").read_text()
    # without the table the CD rules cannot apply, and the report names the dialogues
    res = prepare_verbmobil([root], tmp_path / "out2")
    assert set(res.dialogue2set.values()) == {"train"}
    assert "dialogues without a volume" in (tmp_path / "out2" / "local" / "verbmobil" / "report.txt").read_text()


@pytest.mark.slow
def test_run_sh_deid_stages_on_fixture(recipe_copy, corpus, tmp_path):
    """Stages 0-5 of egs/verbmobil/s5 on the synthetic BAS fixture (noise + tone audio: the wiring, not the
    quality): data prep, alignment, tagging, text transformation, voice conversion, masking + leak check."""
    rec = recipe_copy("verbmobil", tmp_path / "s5")
    args = ["./run.sh", "--stage", "0", "--stop-stage", "5", "--corpus-roots", str(corpus), "--num-enroll", "1",
            "--nj", "1", "--voice-method", "voicemask"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=900, env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    for s in ("train", "dev", "test"):
        neutral = DataDir.read(rec / "data" / f"{s}_neutral", check_audio=True)
        from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir
        orig = DataDir.read(rec / "data" / s)
        assert neutral.utts and len(neutral.utts) <= len(orig.utts) and not set(neutral.utts) & set(orig.utts)
        assert find_id_leaks(rec / "data" / f"{s}_neutral", ids_of_data_dir(rec / "data" / s)) == []
        assert neutral.spk2gender is None and neutral.utt2gender is None
        validate_data_dir(rec / "data" / f"{s}_text")
    for name in ("train_voicemask_s1", "test_enroll_voicemask_s1", "test_trial_voicemask"):
        validate_data_dir(rec / "data" / name)
    assert "verify-masking" in (rec / "RESULTS.md").read_text()
