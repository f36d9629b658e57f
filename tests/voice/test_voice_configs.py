"""conf/voice: the defaults, the shifted variants and the recommended config at the top, the screening variants in
tuning/; an old top-level name resolves to tuning/ in Python (transform-voice --config) and in the shell
(utils/voice_config.sh, utils/vtln_config_has_phones.sh)."""

import subprocess

import pytest

from pydeid.voice.configs import resolve_config


def test_top_level_is_short_and_every_config_loads(repo_root):
    from pydeid.cli.transform_voice import _load_config
    top = sorted(p.name for p in (repo_root / "conf/voice").iterdir() if p.is_file())
    assert len(top) <= 15, top
    assert {"vtln.yaml", "voicemask.yaml", "mcadams.yaml", "vtln_phone_classes.yaml"} <= set(top)
    tuning = sorted((repo_root / "conf/voice/tuning").glob("*.yaml"))
    assert len(tuning) >= 40
    for p in [*(repo_root / "conf/voice").glob("*.yaml"), *tuning]:
        method = p.name.split("_")[0].removesuffix(".yaml")
        assert method in ("vtln", "voicemask", "mcadams"), p
        _load_config(p, method)   # raises on an unknown key or value


def test_old_names_resolve(repo_root, tmp_path):
    voice = repo_root / "conf/voice"
    assert resolve_config(voice / "vtln.yaml") == voice / "vtln.yaml"
    assert resolve_config(voice / "vtln_cm.yaml") == voice / "tuning/vtln_cm.yaml"
    # the recommended config under its old name is the same file as under its new one
    old = resolve_config(voice / "vtln_ufvphanycmnw.yaml")
    assert old.read_text() == (voice / "vtln_phone_classes.yaml").read_text()
    assert resolve_config(voice / "vtln_nosuch.yaml") == voice / "vtln_nosuch.yaml"
    sh = lambda *a: subprocess.run(a, cwd=repo_root, capture_output=True, text=True)   # noqa: E731
    r = sh("utils/voice_config.sh", "conf/voice/vtln_avgcm.yaml")
    assert r.returncode == 0 and r.stdout.strip() == "conf/voice/tuning/vtln_avgcm.yaml"
    r = sh("utils/voice_config.sh", "conf/voice/vtln_nosuch.yaml")
    assert r.returncode == 1 and r.stdout == "" and "no config conf/voice/vtln_nosuch.yaml" in r.stderr
    assert sh("utils/vtln_config_has_phones.sh", "conf/voice/vtln_ufvphanycmnw.yaml").returncode == 0
    assert sh("utils/vtln_config_has_phones.sh", "conf/voice/vtln_cm.yaml").returncode == 1


@pytest.mark.parametrize("name", ["vtln_cm", "mcadams_range"])
def test_old_name_through_transform_voice_config_loader(repo_root, name):
    from pydeid.cli.transform_voice import _load_config
    conf = _load_config(repo_root / f"conf/voice/{name}.yaml", name.split("_")[0])
    assert conf == _load_config(repo_root / f"conf/voice/tuning/{name}.yaml", name.split("_")[0])
