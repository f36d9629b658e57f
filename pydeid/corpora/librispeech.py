"""LibriSpeech data preparation: a LibriSpeech root -> Kaldi data dirs (the Kaldi egs/librispeech layout).

Input layout (openslr.org/12): <root>/<subset>/<spk>/<chapter>/<spk>-<chapter>-<utt>.flac with one
<spk>-<chapter>.trans.txt per chapter ("<utt-id> UPPER CASE WORDS") and <root>/SPEAKERS.TXT
(";" comment lines, then "ID | SEX | SUBSET | MINUTES | NAME"; the NAME field may itself contain "|").

Output per subset: wav.scp as Kaldi's own LibriSpeech recipe writes it, `<utt> flac -c -d -s <abs path> |` (Kaldi's
wave reader cannot open a bare .flac; pydeid.io.audio recognises this form and reads the file itself, no flac binary
needed),
text (upper case as distributed), utt2spk (utterance ids already start with the speaker id), spk2utt,
utt2gender, spk2gender, utt2dur. Enrollment/trial lists of evaluation sets come from `pydeid make-trials`
(pydeid.attack.trials), called by local/librispeech/data_prep.sh.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pydeid.io import DataDir, FormatError, write_datadir_atomic
from pydeid.io.audio import flac_pipe

SUBSETS = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
           "train-other-500")
OPENSLR_URL = "https://www.openslr.org/resources/12"
_UTT_RE = re.compile(r"^(\d+)-(\d+)-(\d+)$")


def find_subset_dir(root: str | os.PathLike, subset: str) -> Path:
    """<root>/<subset>, also accepting the parent of a 'LibriSpeech' folder (as the tarballs unpack)."""
    root = Path(root)
    for cand in (root / subset, root / "LibriSpeech" / subset):
        if cand.is_dir():
            return cand
    raise FormatError(root / subset, None, f"LibriSpeech subset '{subset}' not found under {root} "
                      f"(nor under {root / 'LibriSpeech'})")


def read_speakers_txt(path: str | os.PathLike) -> dict[str, str]:
    """SPEAKERS.TXT -> {speaker id: 'm'|'f'}."""
    path = Path(path)
    out: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as e:
        raise FormatError(path, None, f"cannot read speaker table: {e.strerror}") from None
    for lineno, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        fields = [f.strip() for f in line.split("|", 4)]
        if len(fields) < 2 or not fields[0].isdigit():
            raise FormatError(path, lineno, f"expected 'ID | SEX | SUBSET | MINUTES | NAME', got {line!r}")
        sex = fields[1].lower()
        if sex not in ("m", "f"):
            raise FormatError(path, lineno, f"sex must be M or F, got {fields[1]!r}")
        if fields[0] in out and out[fields[0]] != sex:
            raise FormatError(path, lineno, f"speaker {fields[0]} listed twice with different sex")
        out[fields[0]] = sex
    return out


def find_speakers_txt(subset_dir: Path) -> Path:
    for cand in (subset_dir.parent / "SPEAKERS.TXT", subset_dir.parent.parent / "SPEAKERS.TXT"):
        if cand.is_file():
            return cand
    raise FormatError(subset_dir.parent / "SPEAKERS.TXT", None, "SPEAKERS.TXT not found next to the subset")


def read_subset(subset_dir: str | os.PathLike, speakers_txt: str | os.PathLike | None = None,
                with_durations: bool = True) -> DataDir:
    """Scan one subset folder into a DataDir (not written). Mismatches name the file and line."""
    import soundfile as sf

    subset_dir = Path(subset_dir).resolve()
    spk_gender = read_speakers_txt(speakers_txt or find_speakers_txt(subset_dir))
    d = DataDir(utt2gender={}, spk2gender={}, utt2dur={} if with_durations else None)
    trans_files = sorted(subset_dir.glob("*/*/*.trans.txt"))
    if not trans_files:
        raise FormatError(subset_dir, None, "no <spk>/<chapter>/*.trans.txt files: not a LibriSpeech subset")
    for trans in trans_files:
        spk, chapter = trans.parent.parent.name, trans.parent.name
        if trans.name != f"{spk}-{chapter}.trans.txt":
            raise FormatError(trans, None, f"expected the name {spk}-{chapter}.trans.txt in {trans.parent}")
        if spk not in spk_gender:
            raise FormatError(trans, None, f"speaker {spk} is not listed in SPEAKERS.TXT")
        listed = set()
        for lineno, line in enumerate(trans.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            parts = line.split(None, 1)
            utt = parts[0]
            m = _UTT_RE.match(utt)
            if not m or m.group(1) != spk or m.group(2) != chapter:
                raise FormatError(trans, lineno, f"utterance id {utt!r} is not {spk}-{chapter}-NNNN")
            if len(parts) < 2 or not parts[1].strip():
                raise FormatError(trans, lineno, f"no transcript for {utt}")
            if utt in d.text:
                raise FormatError(trans, lineno, f"duplicate utterance {utt}")
            flac = trans.parent / f"{utt}.flac"
            if not flac.is_file():
                raise FormatError(trans, lineno, f"audio {flac.name} is missing")
            d.wav_scp[utt] = flac_pipe(flac)
            d.text[utt] = " ".join(parts[1].split())
            d.utt2spk[utt] = spk
            d.utt2gender[utt] = spk_gender[spk]
            if with_durations:
                try:
                    d.utt2dur[utt] = sf.info(str(flac)).duration
                except Exception as e:  # soundfile raises its own error types
                    raise FormatError(flac, None, f"unreadable audio: {e}") from None
            listed.add(utt)
        for flac in sorted(trans.parent.glob("*.flac")):
            if flac.stem not in listed:
                raise FormatError(trans, None, f"{flac.name} has no transcript line")
        d.spk2gender[spk] = spk_gender[spk]
    return d


def prepare_subset(corpus_root: str | os.PathLike, subset: str, out_dir: str | os.PathLike,
                   with_durations: bool = True) -> DataDir:
    """Prepare data/<subset> from a LibriSpeech root; returns the written DataDir."""
    d = read_subset(find_subset_dir(corpus_root, subset), with_durations=with_durations)
    write_datadir_atomic(d, out_dir)
    return d


def download_url(subset: str) -> str:
    if subset not in SUBSETS:
        raise ValueError(f"unknown LibriSpeech subset {subset!r}; one of {', '.join(SUBSETS)}")
    return f"{OPENSLR_URL}/{subset}.tar.gz"
