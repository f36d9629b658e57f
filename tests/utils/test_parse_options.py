"""utils/parse_options.sh: Kaldi semantics, sourced from a bash script."""

from __future__ import annotations

import subprocess

from datadir_helpers import UTILS, utils_env

SCRIPT = f"""#!/usr/bin/env bash
set -euo pipefail
nj=4
cmd=run.pl
use_gpu=false
foo_bar=x
help_message="Usage: $0 [options] <a> <b>"
. {UTILS}/parse_options.sh
echo "nj=$nj|cmd=$cmd|use_gpu=$use_gpu|foo_bar=$foo_bar|n=$#|args=$*"
"""


def call(tmp_path, *args):
    s = tmp_path / "s.sh"
    s.write_text(SCRIPT)
    s.chmod(0o755)
    return subprocess.run([str(s), *args], capture_output=True, text=True, env=utils_env(), timeout=30)


def test_options_set_variables_and_stop_at_first_argument(tmp_path):
    p = call(tmp_path, "--nj", "2", "--cmd", "slurm.pl --mem 4G", "--use-gpu", "true", "--foo-bar=a b", "x", "--nj", "9")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "nj=2|cmd=slurm.pl --mem 4G|use_gpu=true|foo_bar=a b|n=3|args=x --nj 9"


def test_unknown_option_and_boolean_check(tmp_path):
    p = call(tmp_path, "--bogus", "1", "x")
    assert p.returncode == 1 and "invalid option --bogus" in p.stderr
    p = call(tmp_path, "--use-gpu", "yes", "x")
    assert p.returncode == 1 and 'expected "true" or "false"' in p.stderr
    p = call(tmp_path, "--cmd", "", "x")
    assert p.returncode == 1 and "empty argument to --cmd" in p.stderr
    p = call(tmp_path, "--nj")
    assert p.returncode == 1


def test_help_and_config(tmp_path):
    p = call(tmp_path, "--help")
    assert p.returncode == 0 and "Usage:" in p.stderr
    conf = tmp_path / "opts.conf"
    conf.write_text("nj=7\nfoo_bar=from-config\n")
    p = call(tmp_path, "--nj", "3", "--config", str(conf), "a")
    assert p.stdout.strip() == "nj=3|cmd=run.pl|use_gpu=false|foo_bar=from-config|n=1|args=a"  # explicit wins
    p = call(tmp_path, f"--config={conf}", "a")
    assert p.stdout.strip().startswith("nj=7|")
    p = call(tmp_path, "--config", str(tmp_path / "missing.conf"), "a")
    assert p.returncode == 1 and "missing config file" in p.stderr
