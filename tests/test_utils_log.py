"""utils/log.sh, sourced by every recipe: `log` prints the UTC time, the calling script and line, the message."""

import re
import subprocess


def test_log_names_the_calling_script_and_line(repo_root, tmp_path):
    (tmp_path / "utils").symlink_to(repo_root / "utils")
    (tmp_path / "run.sh").write_text("#!/usr/bin/env bash\n. utils/log.sh\n\nlog stage 1: hello\n")
    r = subprocess.run(["bash", "run.sh"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(run\.sh:4\) stage 1: hello\n", r.stdout)
    for recipe in repo_root.glob("egs/*/s5/run.sh"):   # defined once: every recipe sources it
        text = recipe.read_text()
        assert ". utils/log.sh" in text and "log() {" not in text, recipe
