"""The publisher's key: the one secret every random draw of a publication derives from.

By default the key is 32 bytes from os.urandom, drawn at the first run and stored as <secret-dir>/publisher.key
(mode 0600, refused inside a corpus, pydeid.io.secrets); every later run with the same secret dir reads it again,
so a resumed or repeated run gives identical output while nobody without the file can replay the draws (voice plan,
surrogates, masking noise, id pseudonyms).

`--seed N` (reproducible experiments, the recipes' result tables) replaces the key by sha256("pydeid-seed:N"):
nothing is stored, and anyone who knows N can replay every draw; reports say so (describe()).

Per-purpose sub-seeds: HMAC-SHA256(key, purpose) read as an integer (seed_for), so the draws of one purpose say
nothing about another's. With --seed N the integer seeds of the draws that existed before the key (voice plan,
masking noise, spoken fill, surrogates) stay N itself, so the recipes' tables made with a fixed seed are unchanged.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import FormatError, UsageError
from .secrets import check_secret_path, write_secret_text

KEY_FILE = "publisher.key"
# the draws of a publication; a purpose not listed is a usage error (a typo would silently share a seed)
PURPOSES = ("voice-plan", "masking-noise", "spoken-fill", "surrogates", "id-pseudonyms")


@dataclass(frozen=True)
class PublisherKey:
    key: bytes
    seed: int | None = None        # --seed N: the key is public knowledge for whoever knows N
    path: Path | None = None       # the stored key (None with --seed)
    created: bool = False          # drawn by this run (first run)

    def mac(self, purpose: str, *parts: str) -> bytes:
        _check_purpose(purpose)
        msg = "\0".join((purpose,) + tuple(parts)).encode("utf-8")
        return hmac.new(self.key, msg, hashlib.sha256).digest()

    def seed_for(self, purpose: str) -> int:
        """An integer seed for `purpose` (< 2**31, what every seeded step accepts)."""
        _check_purpose(purpose)
        if self.seed is not None and purpose != "id-pseudonyms":
            return self.seed
        return int.from_bytes(self.mac(purpose)[:4], "big") & 0x7FFFFFFF

    def describe(self) -> str:
        """One line for logs and reports: who can replay the draws."""
        if self.seed is not None:
            return (f"draws from --seed {self.seed}: anyone who knows the seed can replay them (voice plan, masking "
                    f"noise, surrogates, id pseudonyms); use the default publisher's key to publish")
        return f"draws from the publisher's key {self.path} (random, 0600): they cannot be replayed without it"


def _check_purpose(purpose: str) -> None:
    if purpose not in PURPOSES:
        raise UsageError("--purpose", f"unknown purpose '{purpose}'; known: {', '.join(PURPOSES)}")


def key_from_seed(seed: int) -> PublisherKey:
    return PublisherKey(hashlib.sha256(f"pydeid-seed:{int(seed)}".encode()).digest(), seed=int(seed))


def parse_seed(value) -> int | None:
    """'' or None -> None (the publisher's key); an integer string -> int; anything else a UsageError."""
    if value is None or str(value).strip() == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise UsageError("--seed", f"expected an integer or nothing (the publisher's key), got '{value}'") from None


def load_or_create(secret_dir: str | os.PathLike, seed=None, forbidden_dirs=()) -> PublisherKey:
    """The key of a publication: from --seed when given, else <secret_dir>/publisher.key (drawn from os.urandom
    and stored 0600 at the first run). forbidden_dirs: the corpora the run reads or writes (the key never lies
    inside one)."""
    seed = parse_seed(seed)
    if seed is not None:
        return key_from_seed(seed)
    path = check_secret_path(Path(secret_dir) / KEY_FILE, forbidden_dirs)
    if path.exists():
        data = path.read_text(encoding="ascii", errors="replace").strip()
        try:
            key = bytes.fromhex(data)
        except ValueError:
            key = b""
        if len(key) != 32:
            raise FormatError(path, 1, "not a publisher's key (64 hex digits); remove it to draw a new key (the "
                                       "ids and draws of everything published with the old key then change)")
        if os.stat(path).st_mode & 0o077:
            raise FormatError(path, None, "the publisher's key is readable by others; chmod 600 it")
        return PublisherKey(key, path=path)
    # drawn into a temp file, then linked in: two runs starting together end with the same (first) key
    key = os.urandom(32)
    tmp = write_secret_text(path.with_name(f".{KEY_FILE}.{os.getpid()}.tmp"), key.hex() + "\n", forbidden_dirs)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return load_or_create(secret_dir, None, forbidden_dirs)
    finally:
        tmp.unlink(missing_ok=True)
    return PublisherKey(key, path=path, created=True)


def resolve_seed(seed, secret_dir, purpose: str, forbidden_dirs=()) -> int:
    """What a command's --seed becomes: the integer given, else `purpose`'s sub-seed of the publisher's key in
    secret_dir (drawn and stored at the first run)."""
    s = parse_seed(seed)
    if s is not None:
        return s
    if not secret_dir:   # nowhere to keep a key: the documented experiment seed, said in the log
        import logging
        logging.getLogger(__name__).warning("no secret dir to keep the publisher's key in: %s draws from seed 0, "
                                            "which anyone can replay (give --secret-dir or --seed)", purpose)
        return 0
    return load_or_create(secret_dir, None, forbidden_dirs).seed_for(purpose)


SEED_HELP = ("N: reproducible draws that anyone who knows N can replay (the commands' default 0, for experiments); "
             "empty: drawn from the publisher's key (publisher.key in the secret dir, random at the first run, reused "
             "after), what the steps/ scripts pass by default")
