"""Keep third-party imports from reaching the network at run time.

g2p_en, imported by ESPnet's tokenizer module in every ASR training and decoding process, calls nltk.download()
at import time when two NLTK resources are missing (a tagger and CMUdict from raw.githubusercontent.com).
pydeid never uses them: pydeid.align.g2p reads g2p_en's model weights without importing the package. So
path.sh points NLTK_DATA at .venv/nltk_data and `make venv` puts empty archives there under those two names:
the import finds them and downloads nothing. Whoever needs the real resources installs them into that folder
with nltk.download(), which replaces the placeholders.

    python -m pydeid.offline <nltk-data-dir>
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

# the resources g2p_en looks up at import (g2p_en/g2p.py)
G2P_EN_RESOURCES = ("taggers/averaged_perceptron_tagger_eng.zip", "corpora/cmudict.zip")


def stub_nltk_resources(nltk_data: str | Path) -> list[Path]:
    """Empty zip archives for the resources g2p_en would download; existing files are left alone."""
    made = []
    for name in G2P_EN_RESOURCES:
        path = Path(nltk_data) / name
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        zipfile.ZipFile(tmp, "w").close()
        tmp.replace(path)
        made.append(path)
    return made


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: python -m pydeid.offline <nltk-data-dir>\n{__doc__}")
    for p in stub_nltk_resources(sys.argv[1]):
        print(f"placeholder (no download at import): {p}")
