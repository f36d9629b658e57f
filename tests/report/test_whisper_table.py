"""pydeid.report.whisper_table on hand-made decode dirs: paired differences are taken over the utterances both
conditions hold, and a condition that shares no utterance id with the original (a published copy under keyed
pseudonyms) is refused instead of leaving its paired difference silently empty."""

from __future__ import annotations

import json

import pytest

from pydeid.io import FormatError
from pydeid.report.whisper_table import whisper_table


def _decode_dir(root, name, utts):
    d = root / name
    (d / "scoring").mkdir(parents=True)
    per = {u: {"spk": u.split("-")[0], "words": 10, "sub": e, "del": 0, "ins": 0} for u, e in utts.items()}
    (d / "scoring" / "per_utt.json").write_text(json.dumps(per))
    (d / "decode_whisper.json").write_text(json.dumps({"audio_seconds": 3.0 * len(utts), "decode_cpu_seconds": 1.0,
                                                       "model": "tiny.en", "guard_changed_utterances": 0,
                                                       "rtf": 0.1}))
    return str(d)


UTTS = {f"s{i}-u{j}": (i + j) % 3 for i in range(4) for j in range(3)}


def test_paired_difference_over_shared_utterances(tmp_path):
    o = _decode_dir(tmp_path, "o", UTTS)
    n = _decode_dir(tmp_path, "n", {u: e + 1 for u, e in UTTS.items()})
    t = whisper_table([("original", o, None), ("neutral", n, None)], n_boot=50)
    diff = t["rows"][1]["whisper_diff"]
    assert diff["utterances"] == 12 and diff["diff"] == pytest.approx(10.0)


def test_a_condition_under_other_ids_is_refused(tmp_path):
    o = _decode_dir(tmp_path, "o", UTTS)
    pub = _decode_dir(tmp_path, "published", {f"k{abs(hash(u)) % 997}-x": e for u, e in UTTS.items()})
    with pytest.raises(FormatError, match="shares no utterance id with 'original'"):
        whisper_table([("original", o, None), ("neutral", pub, None)], n_boot=50)
