"""The Python examples of README.md run as written, and the docstring examples of the public API (pydeid.api) pass
as doctests: both are part of the default test run."""

import doctest
import re
import subprocess
import sys

import soundfile as sf


def _python_blocks(readme):
    return re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), flags=re.S)


def test_api_doctests():
    import pydeid.api
    result = doctest.testmod(pydeid.api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 6 and result.failed == 0


def test_import_pydeid_is_light():
    code = ("import sys, pydeid; heavy = [m for m in ('torch', 'espnet2', 'spacy', 'pyworld', 'flair') "
            "if m in sys.modules]; print(heavy); assert pydeid.TextTransformer")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stderr


def test_readme_python_examples_run(repo_root, mini_corpus, tmp_path):
    blocks = _python_blocks(repo_root / "README.md")
    assert len(blocks) == 2 and all(len(b.strip().splitlines()) <= 12 for b in blocks)
    text, voice = blocks
    r = subprocess.run([sys.executable, "-c", text], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "PER ['John', 'Smith']" and any(line.startswith("NUM ") for line in lines)
    out = lines[-1].split()
    assert "John" not in out and "Smith" not in out and "tomorrow" not in out and out[0] == "Call"
    # the voice example converts one wav of the mini corpus
    utt_wav = sorted((mini_corpus / "wav").rglob("*.wav"))[0]
    x, sr = sf.read(utt_wav, dtype="float32")
    sf.write(tmp_path / "in.wav", x, sr)
    r = subprocess.run([sys.executable, "-c", voice], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for name in ("out_voicemask.wav", "out_vtln.wav"):
        y, sr_y = sf.read(tmp_path / name, dtype="float32")
        assert sr_y == sr and len(y) == len(x) and abs(y - x).max() > 0.01
    assert "vtln" in r.stdout
