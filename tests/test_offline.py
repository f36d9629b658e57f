"""No network at run time: importing ESPnet's tokenizers (every ASR process does) must not call nltk.download."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from pydeid.offline import G2P_EN_RESOURCES, stub_nltk_resources

# nltk.download replaced by a tripwire, then the import ESPnet's ASR task makes
PROBE = """
import os
import nltk
nltk.data.path[:] = [os.environ["NLTK_DATA"]]   # only the folder under test (nltk also looks in <venv>/nltk_data)
def tripwire(*a, **k):
    raise SystemExit(f"nltk.download{a} called at import: network at run time")
nltk.download = tripwire
import espnet2.text.phoneme_tokenizer  # imports g2p_en
print("imported offline")
"""


def _import_espnet_tokenizer(nltk_data):
    env = dict(os.environ, NLTK_DATA=str(nltk_data))
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)


def test_espnet_import_downloads_without_placeholders_and_not_with_them(tmp_path):
    bare = _import_espnet_tokenizer(tmp_path / "empty")
    assert bare.returncode != 0 and "network at run time" in bare.stderr     # the defect the stubs prevent
    made = stub_nltk_resources(tmp_path / "nltk_data")
    assert sorted(p.relative_to(tmp_path / "nltk_data").as_posix() for p in made) == sorted(G2P_EN_RESOURCES)
    assert all(zipfile.ZipFile(p).namelist() == [] for p in made)
    ok = _import_espnet_tokenizer(tmp_path / "nltk_data")
    assert ok.returncode == 0 and "imported offline" in ok.stdout, ok.stderr[-2000:]
    assert stub_nltk_resources(tmp_path / "nltk_data") == []                 # rerun: nothing rewritten


def test_path_sh_environment_has_the_placeholders():
    """make test / make demo run with NLTK_DATA from path.sh, where `make venv` put the placeholders."""
    nltk_data = os.environ.get("NLTK_DATA")
    assert nltk_data, "NLTK_DATA unset: run the tests through `make test` (path.sh)"
    assert all(os.path.isfile(os.path.join(nltk_data, r)) for r in G2P_EN_RESOURCES), nltk_data
