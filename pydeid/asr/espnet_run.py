"""Run espnet2.bin entry points in this process, logging the equivalent command line.

Every `python -m espnet2.bin.X` start costs ~15 s of imports on the target machines; running the entry points'
main(cmd) in one process pays it once per step. The logged command line reproduces the call outside pydeid.
"""

from __future__ import annotations

import importlib
import logging
import shlex
import sys

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
