"""Run espnet2.bin entry points in this process, logging the equivalent command line.

Every `python -m espnet2.bin.X` start costs ~15 s of imports on the target machines; running the entry points'
main(cmd) in one process pays it once per step. The logged command line reproduces the call outside pydeid.
"""

from __future__ import annotations

import importlib
import logging
import re
import shlex
import sys
import time

log = logging.getLogger(__name__)


def run_espnet(module: str, argv: list[str]) -> None:
    """Call espnet2.bin.<module>.main(argv); `module` is e.g. "asr_train"."""
    argv = [str(a) for a in argv]
    log.info("running: python -m espnet2.bin.%s %s", module, shlex.join(argv))
    mod = importlib.import_module(f"espnet2.bin.{module}")
    try:
        mod.main(cmd=argv)
    except SystemExit as e:  # argparse errors inside ESPnet exit; surface them as exceptions
        if e.code not in (0, None):
            raise RuntimeError(f"espnet2.bin.{module} exited with {e.code}") from None
    sys.stdout.flush()


class EpochLog(logging.Handler):
    """Catch ESPnet's 'Nepoch results:' log records (asr_train, lm_train) to time epochs and keep their
    summaries; attach to the root logger around run_espnet()."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.t0 = time.time()
        self.epochs: list[dict] = []

    def emit(self, record):
        msg = record.getMessage()
        m = re.match(r"(\d+)epoch results: (.*)", msg)
        if m:
            now = time.time()
            prev = self.epochs[-1]["t"] if self.epochs else self.t0
            self.epochs.append({"epoch": int(m.group(1)), "t": now, "seconds": round(now - prev, 2),
                                "results": m.group(2)})


def valid_metric(results: str, name: str) -> float | None:
    """A number of the [valid] part of ESPnet's epoch summary (acc is `nan` for CTC-only models: None)."""
    m = re.search(rf"\[valid\].*?\b{name}=([0-9.]+)(?![0-9.a-z])", results)
    return float(m.group(1)) if m else None
