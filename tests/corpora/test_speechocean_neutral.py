"""egs/speechocean762/s5 stage 4b at tiny size with its defaults: the default detectors tag the test set, the neutral
corpus is built in both modes from the publisher's conversion (frame selection by phone segments, the default
--neutral-voice), both leak checks pass, no original entity word of any utterance is left in either text, the
published dirs hold no original id, no id of a target voice, no gender file and nothing of the conversion's secrets
(plan, matching set, alignments), and the table gives each mode's WER with a speaker-bootstrap interval."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from pydeid.io import read_conll, read_kaldi_map
from pydeid.mask.originals import content_word, pieces

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


@pytest.mark.slow
def test_tiny_neutral_corpus_both_modes(repo_root, tmp_path, recipe_copy):
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    base = ["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--nj", "1", "--voice-configs", "vtln:3"]
    for stages in (("0", "2"), ("4", "4")):   # stage 3 (every method, every attacker set) is not needed here
        p = subprocess.run(base + ["--stage", stages[0], "--stop-stage", stages[1]], cwd=rec, capture_output=True,
                           text=True, timeout=2400)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    tags = read_conll(rec / "exp" / "tags" / "test" / "tags.conll")
    assert any("spacy" in " ".join(c[0] for c in s.extra) or "gazetteer" in " ".join(c[0] for c in s.extra)
               for s in tags), "the default detectors did not run"
    sensitive = {w for s in tags for a, b, _ in s.spans() for t in s.tokens[a:b] for w in pieces(t) if content_word(w)}
    data = rec / "data"
    src = read_kaldi_map(data / "test_neutral_src" / "utt2spk")
    exp = rec / "exp" / "neutral"
    from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir
    conv = data / "test_neutral_src_frame_selectseg"   # the default --neutral-voice frame_select:seg
    plan = json.loads((rec / "exp/voice/test_neutral_src_frame_selectseg/secrets/voice_plan.json").read_text())
    assert plan["params"]["match"] == "segments" and (conv / "wav.scp").is_file()
    targets = {t for e in plan["utt"].values() for t in e["targets"]}
    assert targets and targets <= set(read_kaldi_map(data / "train_xv" / "spk2utt"))   # train voices, not test
    for mode, work in (("silence", exp / "silence" / "masked"), ("spoken", exp / "spoken" / "filled")):
        d = data / f"test_neutral_{mode}"
        # the published dir: pseudonymous ids only, no gender file, the same number of utterances as its working dir
        assert find_id_leaks(d, ids_of_data_dir(data / "test_neutral_src")) == [], mode
        assert find_id_leaks(d, ids_of_data_dir(data / "train_xv")) == [], mode   # nor a target voice's ids
        assert not [p for p in d.rglob("*") if p.suffix in (".npz", ".json") or p.name in ("ctm", "voice_plan.json")]
        assert not [p.name for p in d.iterdir() if "gender" in p.name or p.suffix == ".conll"], mode
        assert len(read_kaldi_map(d / "utt2spk")) == len(read_kaldi_map(work / "utt2spk"))
        text = read_kaldi_map(work / "text", require_value=False)
        assert set(text) <= set(src)
        for u, t in text.items():
            orig = next(s for s in tags if s.id == u)
            plain = {w for t2, g in zip(orig.tokens, orig.tags) if g == "O" for w in pieces(t2)}
            said = {w for t2 in t.split() for w in pieces(t2)} - plain
            assert not said & sensitive, (mode, u, said & sensitive)
        assert "test_neutral_src" not in (d / "wav.scp").read_text() and str(root) not in (d / "wav.scp").read_text()
    assert "leaks: audio 0, text 0, unverifiable 0, original audio refs 0" in (exp / "silence/verify/verify.txt").read_text()
    assert "leaks: audio 0, uncovered entities 0, unverifiable 0, inserts saying an original 0, original audio refs 0" \
        in (exp / "spoken/verify/verify.txt").read_text()
    res = (exp / "results.md").read_text()
    for mode in ("silence", "spoken pseudonyms"):
        row = next(ln for ln in res.splitlines() if ln.startswith(f"| neutral, {mode}"))
        m = re.search(r"\| (\d+\.\d) \[(\d+\.\d), (\d+\.\d)\] \| (\d+) \|", row)
        assert m and float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)) and int(m.group(4)) > 0, row
    assert "Neutral corpus in both modes" in (rec / "RESULTS.md").read_text()
    assert "4b" in (rec / "exp" / "stage_times.tsv").read_text()
