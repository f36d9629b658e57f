"""The decode dirs of split jobs joined into one: shared by the pocketsphinx word decoder and the phone-loop decoder
(`pydeid decode-pocketsphinx --merge`, `pydeid decode-phones --merge`; the job split is utils/split_decode.sh)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydeid.io import FormatError, atomic_write_text, kaldi_sort_key


def merge_decode_parts(parts: list[str | os.PathLike], out_dir: str | os.PathLike, info_name: str,
                       what: str = "decoding") -> dict:
    """<part>/text of every part into <out_dir>/text in Kaldi (C) order, and <out_dir>/<info_name>: the first
    part's settings with utterances, audio and CPU seconds summed, RTF over all parts and the number of jobs."""
    out = Path(out_dir)
    lines, infos = [], []
    for p in map(Path, parts):
        for f in ("text", info_name):
            if not (p / f).is_file():
                raise FormatError(p / f, None, f"missing: that {what} job did not finish")
        lines += [ln for ln in (p / "text").read_text(encoding="utf-8").splitlines() if ln.strip()]
        infos.append(json.loads((p / info_name).read_text()))
    lines.sort(key=lambda ln: kaldi_sort_key(ln.split()[0]))
    atomic_write_text(out / "text", "".join(ln + "\n" for ln in lines))
    audio = sum(i["audio_seconds"] for i in infos)
    cpu = sum(i["decode_cpu_seconds"] for i in infos)
    info = dict(infos[0])
    info.update({"data": str(Path(infos[0]["data"]).parent.parent) if len(infos) > 1 else infos[0]["data"],
                 "utterances": sum(i["utterances"] for i in infos), "audio_seconds": round(audio, 3),
                 "decode_cpu_seconds": round(cpu, 3), "rtf": round(cpu / audio, 4) if audio else None,
                 "jobs": len(infos)})
    atomic_write_text(out / info_name, json.dumps(info, indent=1) + "\n")
    return info
