"""Builds a tiny synthetic VerbMobil-English tree in the BAS formats (../shared/formats/verbmobil/FIXTURE.md).

All sentences and most ids are invented. The FIXTURE.md part (volumes VM96.1 / VM97.1 and the CLARIN-style
`flat/` folder) exercises the formats; the extra dialogues on volumes 6, 23, 32 and 47 carry the speaker codes
the seed-004 A.3 split rules and speaker-id fixes name (HCF, ADB, VNC, CAC, MAS), so the rules can be checked.
Signals are a few tenths of a second of seeded noise + tone, in every format the prep reads: RIFF WAV (16 and
8 kHz), NIST SPHERE (.nis), PhonDat (.a16: 512-byte header + little-endian int16) and a per-speaker NIST file
(.16) cut by a marker file (.mar).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

HEADER = "LHD:\tPartitur 1.3\nREP:\tNowhere\nSNB:\t2\nSAM:\t{sam}\nSBF:\t10\nSSB:\t16\nNCH:\t1\nSPN:\t{spk}\nLBD:\n"


def _audio(seed: int, sr: int = 16000, dur: float = 0.4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(int(sr * dur)) / sr
    return (0.05 * rng.standard_normal(t.size) + 0.2 * np.sin(2 * np.pi * (120 + 20 * (seed % 7)) * t)
            ).astype(np.float32)


def _par(path: Path, spk: str, words: list[str] | None, sam: int = 16000, extra: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = HEADER.format(sam=sam, spk=spk)
    for i, w in enumerate(words or []):
        body += f"ORT:\t{i}\t{w}\n"
    path.write_text(body + extra, encoding="latin-1")


def _wav(path: Path, seed: int, sr: int = 16000, fmt: str = "WAV") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), _audio(seed, sr), sr, format=fmt, subtype="PCM_16")


# (volume, dialogue dir, [(channel, turn index, speaker, words)], signal kind)
SPLIT_DIALOGUES = [
    ("VM6.1", "q012a", [("xc0", "000", "AAA", "we could meet monday"), ("xc1", "001", "BBB", "monday is fine")], "wav"),
    ("VM6.1", "q015a", [("xc0", "000", "HCF", "how about friday"), ("xc1", "001", "DDD", "friday suits me")], "wav"),
    ("VM6.1", "q007n", [("xc0", "000", "MAS", "good morning"), ("xc1", "001", "EEE", "morning to you")], "wav"),
    ("VM6.1", "q030a", [("xc0", "000", "CAC", "let us say ten"), ("xc1", "001", "PPP", "ten is good")], "phondat"),
    ("VM23.1", "e101a", [("xc0", "000", "CAC", "see you then"), ("xc1", "001", "FFF", "bye then")], "wav"),
    ("VM23.1", "e102a", [("xc0", "000", "AAA", "the third works"), ("xc1", "001", "GGG", "the third it is")], "wav"),
    ("VM23.1", "e103a", [("xc0", "000", "ADB", "shall we say noon"), ("xc1", "001", "HHH", "noon is fine")], "wav"),
    ("VM23.1", "e104a", [("xc0", "000", "HHH", "what about lunch"), ("xc1", "001", "III", "lunch sounds good")], "wav"),
    ("VM23.1", "e105b", [("xc0", "000", "VNC", "where is the train"), ("xc1", "001", "JJJ", "platform two")], "wav"),
    ("VM23.1", "e106a", [("xc0", "000", "MAS", "next week then"), ("xc1", "001", "KKK", "next week works")], "wav"),
    ("VM47.1", "e201b", [("xc0", "000", "LLL", "a room for two"), ("xc1", "001", "MMM", "two nights")], "nist"),
    ("VM32.1", "e301a", [("xc0", "000", "NNN", "in the morning"), ("xc1", "001", "OOO", "morning is good")], "wav"),
    ("VM32.1", "e107a", [("xc0", "000", "OOO", "the evening then"), ("xc1", "001", "RRR", "evening is fine")], "marked"),
]
GERMAN_SPEAKERS = {"BBB", "HCF", "LLL", "NNN"}   # spr dialect says German -> DE subset
FEMALE = {"AAA", "DDD", "EEE", "GGG", "HHH", "JJJ", "LLL", "NNN", "QQB", "QQE", "RRR"}

EXPECTED_SETS = {
    "test": {"q012a", "e102a", "e103a", "e104a", "e201b"},
    "dev": {"q015a", "q007n", "e301a", "e107a", "e105b"},
    "train": {"q030a", "e101a", "e106a", "z901a", "z902a", "z903a"},
}

TRL_Z901A = """; dialogue z901a  (synthetic)
; volume VM96.1
z901axc0_000_QQA: <uhm> could we +/meet/+ meet on the twenty-first<Z> ?
z901axc1_001_QQB: <A> the twenty-first is <%> , <#Klicken> I have a
   meet= meeting <P> how about <:<Lachen> the second:> , {comment text} ?
z901axc0_002_QQA: <Husten> <A> <;T>
z901axc1_003_QQB: *blorptime <!1 gonna> -/ we /- we can <GER> ja </GER> [a comment] go $A-$G later
"""


def _spr(dirpath: Path, code: str) -> None:
    dirpath.mkdir(parents=True, exist_ok=True)
    sex = "f" if code in FEMALE else "m"
    dialect = "german" if code in GERMAN_SPEAKERS else "american"
    (dirpath / f"e_{code.lower()}.spr").write_text(f"sex {sex}\ndialect {dialect}\n", encoding="latin-1")


def build_fixture(root: str | Path) -> Path:
    root = Path(root)
    seed = 0
    # ---- FIXTURE.md: CD-style English volume (layout A) ---------------------------------------------------
    vm96 = root / "VM96.1"
    for ch, idx, spk in (("c0", "000", "QQA"), ("c1", "001", "QQB"), ("c0", "002", "QQA"), ("c1", "003", "QQB")):
        seed += 1
        _wav(vm96 / "data" / "z901a" / f"z901ax{ch}_{idx}_{spk}.wav", seed)
    ort = ["<uhm>", "could", "we", "meet", "on", "the", "twenty-first"]
    kan = "".join(f"KAN:\t{i}\tx\n" for i in range(len(ort)))
    trl = "".join(f"TRL:\t{i}\t{w}\n" for i, w in enumerate(["<uhm>", "could", "we", "+/meet/+", "on", "the",
                                                             "twenty-first<Z>"]))
    _par(vm96 / "par" / "z901a" / "z901axc0_000_QQA.par", "QQA", ort, extra=kan + trl)
    _par(vm96 / "par" / "z901a" / "z901axc1_001_QQB.par", "QQB", None)   # no ORT: text from the .trl
    _par(vm96 / "par" / "z901a" / "z901axc0_002_QQA.par", "QQA", None)   # marker-only turn
    _par(vm96 / "par" / "z901a" / "z901axc1_003_QQB.par", "QQB", None)
    (vm96 / "trl").mkdir(parents=True)
    (vm96 / "trl" / "z901a.trl").write_text(TRL_Z901A, encoding="latin-1")
    _spr(vm96 / "spr", "QQA")
    _spr(vm96 / "spr", "QQB")
    # ---- FIXTURE.md: mixed-language volume, 6-char dialogue dirs, _ENG on the signal only -------------------
    vm97 = root / "VM97.1"
    _wav(vm97 / "data" / "z902ab" / "z902abh0_000_QQC_ENG.wav", 11)
    _wav(vm97 / "data" / "z902ab" / "z902abh1_001_QQD_GER.wav", 12)
    _par(vm97 / "par" / "z902ab" / "z902abh0_000_QQC.par", "QQC", ["that", "is", "fine", "for", "me"])
    _par(vm97 / "par" / "z902ab" / "z902abh1_001_QQD.par", "QQD", ['sp"ater', "gerne"])
    _spr(vm97 / "spr", "QQC")
    _spr(vm97 / "spr", "QQD")
    # ---- FIXTURE.md: CLARIN layout (layout B), 8 kHz, a .par without signal, a set list -----------------
    flat = root / "flat"
    _wav(flat / "z903a" / "z903acn1_000_QQE.wav", 13, sr=8000)
    mau = "MAU:\t0\t799\t-1\t<p:>\nMAU:\t800\t400\t0\tk\nMAU:\t1200\t600\t1\tE\nMAU:\t1800\t800\t2\tr\n"
    (flat / "z903a" / "z903acn1_000_QQE.par").write_text(
        "LHD:\tPartitur 1.2\nSAM:\t8000\nSPN:\tQQE\nLBD:\nORT:\t0\t$K\nORT:\t1\t$L\nORT:\t2\troom\n" + mau,
        encoding="latin-1")
    _par(flat / "z903a" / "z903acn1_001_QQE.par", "QQE", ["no", "signal", "here"], sam=8000)
    _spr(flat, "QQE")
    (root / "SETS").mkdir(parents=True)
    (root / "SETS" / "VM1_TRAIN").write_text("z903acn1_000_QQE\tVM99.1\n")
    # ---- dialogues for the A.3 split rules and speaker-id fixes ------------------------------------------
    for volume, dlg, turns, kind in SPLIT_DIALOGUES:
        vol = root / volume
        marks = []
        for ch, idx, spk, words in turns:
            seed += 1
            tid = f"{dlg}{ch}_{idx}_{spk}"
            _par(vol / "par" / dlg / f"{tid}.par", spk, words.split())
            _spr(vol / "spr", spk)
            if kind == "wav":
                _wav(vol / "data" / dlg / f"{tid}.wav", seed)
            elif kind == "nist":
                _wav(vol / "data" / dlg / f"{tid}.nis", seed, fmt="NIST")
            elif kind == "phondat":
                path = vol / "data" / dlg / f"{tid}.a16"   # real VM1 CDs use 8.3 names (not mapped, reported)
                path.parent.mkdir(parents=True, exist_ok=True)
                pcm = (np.clip(_audio(seed), -1, 1) * 32767).astype("<i2")
                path.write_bytes(b"\0" * 512 + pcm.tobytes())
            elif kind == "marked":
                # one speaker file per channel holding this speaker's turn after 0.2 s of lead-in
                sig = np.concatenate([np.zeros(3200, np.float32), _audio(seed)])
                spk_file = vol / "data" / dlg / f"{tid[:8]}.16"
                spk_file.parent.mkdir(parents=True, exist_ok=True)
                sf.write(str(spk_file), sig, 16000, format="NIST", subtype="PCM_16")
                marks.append(f"3200 {3200 + len(_audio(seed))} {tid}")
        if marks:
            (vol / "data" / dlg / f"{dlg}x.mar").write_text("; begin end turn\n" + "\n".join(marks) + "\n")
    return root
