"""Publishing a data dir: original speaker, utterance and recording ids replaced by keyed pseudonyms, audio files
renamed after them, gender and age tables dropped (unless asked for), the id map kept as a secret.

Pseudonyms are HMAC-SHA256 of the original id under the publisher's key (pydeid.io.publisher_key, purpose
'id-pseudonyms'): the same speaker gets the same pseudonym in every data dir published with the same key (train and
test keep their structure), and nobody without the key can compute or test one. Kaldi's rules hold: a speaker is
's' + 10 hex digits, an utterance its speaker's pseudonym + '-u' + 12 hex digits (the speaker id is its prefix, and
since every speaker pseudonym has the same length utt2spk sorts by speaker and by utterance alike under LC_ALL=C),
a recording 'r' + 12 hex digits.

The published dir holds wav.scp (plain audio files <out>/wav/<id>.<ext>, hard-linked or copied from the input,
rewritten without header metadata when the input had some), text, utt2spk, spk2utt, and when present segments,
utt2dur, reco2dur, reco2file_and_channel (file = the recording pseudonym), with --keep-gender utt2gender and
spk2gender. Every other file of the input (tags, CTMs, ages, ...) stays out. The whole dir is built in a temp
sibling and renamed in. Afterwards every file of it is searched for every original id (pydeid.io.id_leaks).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .audio import spec_kind
from .datadir import DataDir, Segment, write_datadir_atomic
from .errors import FormatError
from .id_leaks import find_id_leaks, ids_of_data_dir
from .kaldi_map import read_kaldi_map
from .publisher_key import PublisherKey
from .secrets import check_secret_path, read_secret_json, secret_path_for, write_secret_json

GENDER_FILES = ("utt2gender", "spk2gender")


def speaker_pseudonym(key: PublisherKey, spk: str) -> str:
    return "s" + key.mac("id-pseudonyms", "speaker", spk).hex()[:10]


def utterance_pseudonym(key: PublisherKey, utt: str, spk_pseudonym: str) -> str:
    return f"{spk_pseudonym}-u{key.mac('id-pseudonyms', 'utterance', utt).hex()[:12]}"


def recording_pseudonym(key: PublisherKey, reco: str) -> str:
    return "r" + key.mac("id-pseudonyms", "recording", reco).hex()[:12]


def id_map(d: DataDir, key: PublisherKey) -> dict[str, dict[str, str]]:
    """{'speakers': {orig: pseudo}, 'utterances': ..., 'recordings': ...} of a data dir."""
    spk = {s: speaker_pseudonym(key, s) for s in sorted(set(d.utt2spk.values()))}
    utt = {u: utterance_pseudonym(key, u, spk[s]) for u, s in d.utt2spk.items()}
    recos = sorted({s.reco for s in d.segments.values()}) if d.segments is not None else []
    reco = {r: recording_pseudonym(key, r) for r in recos}
    for kind, m in (("speaker", spk), ("utterance", utt), ("recording", reco)):
        if len(set(m.values())) != len(m):   # 40 to 48 bits: never seen, but a collision would merge two
            raise FormatError(d.path, None, f"two {kind} ids got the same pseudonym; publish with another key")
    return {"speakers": spk, "utterances": utt, "recordings": reco}


def _place_audio(src: str, dst: Path) -> None:
    """dst gets src's samples: a hard link (same bytes, no copy) when src carries no header metadata, else a copy
    rewritten without it."""
    import soundfile as sf
    try:
        with sf.SoundFile(src) as f:
            meta = {k: v for k, v in f.copy_metadata().items() if v}
    except Exception:
        meta = {}
    if meta:
        data, sr = sf.read(src, dtype="int16" if dst.suffix == ".wav" else "float32", always_2d=False)
        sf.write(str(dst), data, sr)
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _audio_path(spec: str, where: Path) -> Path:
    if spec_kind(spec) != "file":
        raise FormatError(where / "wav.scp", None, f"'{spec}': only plain audio files can be published (a command "
                                                   f"or an ark entry would name its original source)")
    return Path(spec)


def publish_data_dir(src: str | os.PathLike, out: str | os.PathLike, key: PublisherKey,
                     secret_dir: str | os.PathLike, keep_gender: bool = False, orig_data=()) -> dict:
    """Write the published copy of data dir `src` at `out` (see the module doc); the id map goes to
    <secret_dir>/idmap.<out name>.<hash>.json (0600, refused inside src, out or an orig_data dir). orig_data: more
    data dirs whose ids must not appear either (the untransformed source). Returns the report."""
    src, out = Path(src), Path(out)
    if out.resolve() == src.resolve():
        raise FormatError(out, None, "the published dir must differ from its input")
    forbidden = [src, out, *map(Path, orig_data)]
    map_path = check_secret_path(secret_path_for(secret_dir, "idmap", out), forbidden)
    d = DataDir.read(src)
    m = id_map(d, key)
    spk, utt, reco = m["speakers"], m["utterances"], m["recordings"]
    keys = reco if d.segments is not None else utt
    write_secret_json(map_path, {**m, "published": str(out.resolve())}, forbidden)
    if _published_already(out, d, m, keep_gender):
        return _finish(src, out, d, m, key, map_path, keep_gender, orig_data, resumed=True)
    tmp_parent = out.parent
    tmp_parent.mkdir(parents=True, exist_ok=True)
    audio_tmp = Path(_mkdtemp(tmp_parent, out.name))
    try:
        wav_scp = {}
        for k, spec in d.wav_scp.items():
            path = _audio_path(spec, src)
            name = keys[k] + path.suffix.lower()
            _place_audio(str(path), audio_tmp / name)
            wav_scp[keys[k]] = str(out.resolve() / "wav" / name)
        pd = DataDir(wav_scp=wav_scp, text={utt[u]: t for u, t in d.text.items()},
                     utt2spk={utt[u]: spk[s] for u, s in d.utt2spk.items()})
        if d.segments is not None:
            pd.segments = {utt[u]: Segment(reco[s.reco], s.start, s.end) for u, s in d.segments.items()}
        if d.utt2dur is not None:
            pd.utt2dur = {utt[u]: v for u, v in d.utt2dur.items()}
        if keep_gender:
            pd.utt2gender = None if d.utt2gender is None else {utt[u]: g for u, g in d.utt2gender.items()}
            pd.spk2gender = None if d.spk2gender is None else {spk[s]: g for s, g in d.spk2gender.items()}
        extra = {}
        if (src / "reco2dur").exists():
            extra["reco2dur"] = {keys[k]: v for k, v in read_kaldi_map(src / "reco2dur").items()}
        if (src / "reco2file_and_channel").exists():
            extra["reco2file_and_channel"] = {keys[k]: f"{keys[k]} {v.split()[-1]}"
                                              for k, v in read_kaldi_map(src / "reco2file_and_channel").items()}
        write_datadir_atomic(pd, out, extra=extra, extra_dirs={"wav": audio_tmp})
    finally:
        shutil.rmtree(audio_tmp, ignore_errors=True)
    return _finish(src, out, d, m, key, map_path, keep_gender, orig_data, resumed=False)


def _published_already(out: Path, d: DataDir, m: dict, keep_gender: bool) -> bool:
    """A rerun with the same key and input: the published dir is complete (tables and every audio file); it is
    left as it is (resume)."""
    if not (out / "utt2spk").is_file() or not (out / "wav.scp").is_file() or not (out / "text").is_file():
        return False
    utt, spk = m["utterances"], m["speakers"]
    if read_kaldi_map(out / "utt2spk") != {utt[u]: spk[s] for u, s in d.utt2spk.items()}:
        return False
    if read_kaldi_map(out / "text", require_value=False) != {utt[u]: t for u, t in d.text.items()}:
        return False
    if any((out / g).exists() != (keep_gender and (d.path / g).exists()) for g in GENDER_FILES):
        return False
    # the same audio: the published file is the input's (hard link) or equal to it (a re-masked input is republished)
    import filecmp
    keys = m["recordings"] if d.segments is not None else utt
    pub = read_kaldi_map(out / "wav.scp")
    for k, spec in d.wav_scp.items():
        p = pub.get(keys[k])
        if p is None or not Path(p).is_file():
            return False
        if not (os.path.samefile(spec, p) or filecmp.cmp(spec, p, shallow=False)):
            return False
    return True


def _finish(src: Path, out: Path, d: DataDir, m: dict, key: PublisherKey, map_path: Path, keep_gender: bool,
            orig_data, resumed: bool) -> dict:
    published = {"utt2spk", "text", "wav.scp", "spk2utt", "segments", "utt2dur", "reco2dur",
                 "reco2file_and_channel"} | (set(GENDER_FILES) if keep_gender else set())
    dropped = sorted(p.name for p in src.iterdir() if p.name not in published and p.name not in ("wav",)
                     and not p.name.startswith("."))
    ids = ids_of_data_dir(src)
    for o in orig_data:
        ids.update({k: v for k, v in ids_of_data_dir(o).items() if k not in ids})
    leaks = find_id_leaks(out, ids)
    if leaks:
        raise FormatError(leaks[0].path, leaks[0].line, f"{str(leaks[0]).split(': ', 1)[1]} in the published dir "
                                                        f"({len(leaks)} place(s) found)")
    gender = ("published (--keep-gender true): " + ", ".join(f for f in GENDER_FILES if (out / f).exists())
              if keep_gender else "not published (" + (", ".join(f for f in GENDER_FILES if (src / f).exists())
                                                       or "none in the input") + " dropped)")
    return {"published": str(out), "utterances": len(m["utterances"]), "speakers": len(m["speakers"]),
            "recordings": len(m["recordings"]), "resumed": resumed,
            "ids": "keyed pseudonyms (HMAC-SHA256 under the publisher's key)", "id_map": str(map_path),
            "gender": gender, "dropped_files": [f for f in dropped if f not in GENDER_FILES],
            "key": key.describe(), "original_ids_checked": len(ids)}


def _mkdtemp(parent: Path, name: str) -> str:
    import tempfile
    from .atomic import _default_mode
    d = tempfile.mkdtemp(prefix=f".{name}.wav.", suffix=".tmp", dir=parent)
    os.chmod(d, _default_mode() | 0o111)   # the published wav/ readable like any data dir (mkdtemp gives 0700)
    return d


def read_id_map(secret_dir: str | os.PathLike, published: str | os.PathLike) -> dict[str, dict[str, str]]:
    """The id map of a published dir (for the scoring stages that compare it with the originals)."""
    p = secret_path_for(secret_dir, "idmap", published)
    if not p.exists():
        raise FormatError(p, None, f"no id map for {published} (published with another --secret-dir?)")
    return read_secret_json(p)
