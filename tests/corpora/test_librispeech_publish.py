"""A real-voice neutral corpus with every default (issue 39): steps/make_neutral.sh on two utterances of each
speaker of the LibriSpeech sample (../shared/data/librispeech_mini: ids such as 1988-147956-0000, speaker, chapter,
utterance), McAdams voices. The published dir holds no original speaker, chapter or utterance id in any file or
file name and no gender file; its flac/wav headers carry no tag; the key was drawn and stored 0600."""

from __future__ import annotations

import os
import subprocess

import pytest
import soundfile as sf

from pydeid.corpora.librispeech import prepare_subset
from pydeid.io import DataDir, validate_data_dir
from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir


def test_make_neutral_defaults_publish_no_librispeech_id(repo_root, librispeech_mini_dir, tmp_path):
    for name in ("steps", "utils", "conf"):
        (tmp_path / name).symlink_to(repo_root / name)
    full = tmp_path / "data" / "full"
    prepare_subset(librispeech_mini_dir, "dev-clean-2", full)
    d = DataDir.read(full)
    keep = [u for s, us in d.spk2utt.items() for u in us[:1]]
    src = tmp_path / "data" / "src"
    d.subset(keep).write(src)
    # nothing tagged (the ids are what is checked here): every sentence all O, an empty CTM
    sub = DataDir.read(src)
    (src / "tags.conll").write_text("".join(f"# id = {u}\n" + "".join(f"{w}\tO\n" for w in sub.text[u].split()) + "\n"
                                            for u in sub.utts))
    (src / "words.ctm").write_text("")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run(["steps/make_neutral.sh", "--voice", "mcadams:-", "--source-data", "data/src",
                        "data/src_mcadams", "data/src/tags.conll", "data/src/words.ctm", "exp/mask/src",
                        "data/src_neutral"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    pub = tmp_path / "data" / "src_neutral"
    validate_data_dir(pub, check_audio=True)
    ids = ids_of_data_dir(full)
    assert any(v.startswith("part of") for v in ids.values())          # chapters are checked too
    assert find_id_leaks(pub, ids) == []
    assert not [p.name for p in pub.iterdir() if "gender" in p.name]
    n = DataDir.read(pub)
    assert len(n.utts) == len(keep) == 3 and len(n.speakers) == 3
    for spec in n.wav_scp.values():
        with sf.SoundFile(spec) as f:
            assert not any(f.copy_metadata().values())
    assert (tmp_path / "exp/secrets/publisher.key").stat().st_mode & 0o777 == 0o600
    assert "gender not published" in r.stdout and "cannot be replayed without it" in r.stdout
