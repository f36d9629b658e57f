"""Speakers and volumes: speaker-id fixes (seed 004 A.3), volume (CD) of a file, gender and native language.

Speaker-id fixes (A.3 "Problem with speaker ids"): the 3-letter codes are not unique, so every speaker id gets a
suffix: CAC JDH NKH RGM -> <code>VM1 in VerbMobil I and <code>VM2 in VerbMobil II (different people); MAS of
dialogue q007n -> MASVMZ (a second MAS in VM I); every other code -> <code>VMX.

Volume (CD number) of a file, in this order: a path component `VM<n>[.x]`, `cd<n>` or `CD<n>`; an entry of the
BAS set lists (`SETS/VM1_TRAIN` ... lines `<turn id><TAB>VM<n>.x`, FORMAT.md section 7); a user table
(`dialogue volume` lines). VerbMobil I = volumes up to 14 [P: UASR's CD type rule], II = 15 and above;
failing a volume, the set-list name (VM1_*, VM2_*) gives the part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

AMBIGUOUS_ACROSS_PARTS = {"CAC", "JDH", "NKH", "RGM"}
MAS_VMZ_DIALOGUE = "q007n"
_VOL_RE = re.compile(r"^(?:VM|vm|cd|CD|_cd)(\d{1,2})(?:\.\d+)?$")


def volume_from_path(path: Path) -> int | None:
    for part in reversed(path.parts[:-1]):
        m = _VOL_RE.match(part)
        if m:
            return int(m.group(1))
    return None


def part_of_volume(volume: int | None) -> str | None:
    if volume is None:
        return None
    return "VM1" if volume <= 14 else "VM2"


def fix_speaker_id(code: str, part: str | None, dialogue: str) -> str:
    """A.3 speaker-id fix. `part` is 'VM1'/'VM2'/None; `dialogue` the 5-char dialogue id."""
    if code in AMBIGUOUS_ACROSS_PARTS and part in ("VM1", "VM2"):
        return code + part
    if code == "MAS" and dialogue.lower() == MAS_VMZ_DIALOGUE:
        return code + "VMZ"
    return code + "VMX"


def base_code(speaker_id: str) -> str:
    return speaker_id[:3]


def read_set_lists(files: list[Path]) -> tuple[dict[str, int], dict[str, str]]:
    """BAS SETS lists -> ({turn id: volume}, {turn id: part}); lines without a turn id are ignored."""
    vol: dict[str, int] = {}
    part: dict[str, str] = {}
    for f in files:
        m = re.match(r"^(VM[12])_(TRAIN|DEV|TEST)$", f.name)
        if not m:
            continue
        for line in f.read_bytes().decode("latin-1").splitlines():
            fields = line.split()
            if not fields:
                continue
            turn = re.sub(r"_(ENG|GER|JAP)$", "", fields[0])
            part[turn] = m.group(1)
            if len(fields) > 1:
                vm = _VOL_RE.match(fields[1])
                if vm:
                    vol[turn] = int(vm.group(1))
    return vol, part


def read_dialogue_volumes(path: Path) -> dict[str, int]:
    """User table: `<dialogue> <volume>` lines (volume as 6, VM6 or VM6.1)."""
    from pydeid.io import FormatError
    out = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split()
        m = _VOL_RE.match(f[1]) if len(f) == 2 else None
        if not m and len(f) == 2 and f[1].isdigit():
            out[f[0]] = int(f[1])
            continue
        if not m:
            raise FormatError(path, lineno, f"expected '<dialogue> <volume>', got {line!r}")
        out[f[0]] = int(m.group(1))
    return out


@dataclass
class SpeakerInfo:
    gender: dict[tuple[str | None, str], str] = field(default_factory=dict)   # (part or None, code) -> m/f
    native: dict[tuple[str | None, str], str] = field(default_factory=dict)   # (part or None, code) -> en/de
    notes: list[str] = field(default_factory=list)

    def lookup(self, table: dict, code: str, part: str | None) -> str | None:
        if (part, code) in table:
            return table[(part, code)]
        if code in AMBIGUOUS_ACROSS_PARTS:
            return None  # never borrow the other part's speaker
        for (p, c), v in table.items():
            if c == code:
                return v
        return None


_SEX = {"m": "m", "male": "m", "maennlich": "m", "männlich": "m", "f": "f", "w": "f", "female": "f",
        "weiblich": "f"}
_DE_WORDS = ("german", "deutsch", "bairisch", "bavarian", "saechsisch", "schwaebisch", "hessisch", "berlin",
             "fraenkisch", "nord", "sued", "de")
_EN_WORDS = ("american", "english", "us", "usa", "en", "amerikanisch", "englisch", "british", "uk", "gb")


def _native_of(value: str) -> str | None:
    v = value.lower().replace('"', "")
    words = re.findall(r"[a-zäöü]+", v)
    if any(w in _EN_WORDS for w in words):
        return "en"
    if any(w in _DE_WORDS for w in words):
        return "de"
    return None


def read_spr(path: Path) -> dict[str, str]:
    """VM2 speaker protocol: `key value` lines (only `sex` and `dialect` are attested [P])."""
    out = {}
    for line in path.read_bytes().decode("latin-1").splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) == 2:
            out[parts[0].rstrip(":").lower()] = parts[1].strip()
    return out


def collect_speaker_info(files: list[Path], native_table: Path | None = None) -> SpeakerInfo:
    """Gender and native language from spr files (e_<code>.spr), VM1 AufDat tables and a user table."""
    info = SpeakerInfo()
    for f in files:
        m = re.match(r"^(?:[a-z]_)?([a-z0-9]{3})\.spr$", f.name.lower())
        if m:
            code = m.group(1).upper()
            part = part_of_volume(volume_from_path(f))
            kv = read_spr(f)
            sex = _SEX.get(kv.get("sex", kv.get("gender", kv.get("geschlecht", ""))).lower())
            if sex:
                info.gender[(part, code)] = sex
            for key in ("native", "native_language", "mother_tongue", "language", "l1", "muttersprache",
                        "dialect"):
                if key in kv:
                    nat = _native_of(kv[key])
                    if nat:
                        info.native[(part, code)] = nat
                        break
        elif f.name.lower().startswith("aufdat"):
            _read_aufdat(f, info)
    if native_table is not None:
        from pydeid.io import FormatError
        for lineno, line in enumerate(native_table.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split()
            if len(f) != 2 or f[1] not in ("en", "de", "other"):
                raise FormatError(native_table, lineno, f"expected '<speaker code or fixed id> en|de|other', "
                                  f"got {line!r}")
            code, part = f[0][:3], {"VM1": "VM1", "VM2": "VM2"}.get(f[0][3:])
            info.native[(part, code)] = f[1]
    return info


def _read_aufdat(path: Path, info: SpeakerInfo) -> None:
    """VM1 AufDat: TAB-separated, fields 15/16 and 24/25 (1-based) = speaker/sex of channels A and B [C: S15]."""
    n = 0
    for line in path.read_bytes().decode("latin-1").splitlines():
        f = line.split("\t")
        if len(f) < 25:
            continue
        for spk_i, sex_i in ((14, 15), (23, 24)):
            code, sex = f[spk_i].strip().upper(), _SEX.get(f[sex_i].strip().lower())
            if re.fullmatch(r"[A-Z]{3}", code) and sex:
                info.gender[("VM1", code)] = sex
                n += 1
    info.notes.append(f"{path}: {n} speaker/sex entries read (AufDat column layout [C] but not tested on real data)")
