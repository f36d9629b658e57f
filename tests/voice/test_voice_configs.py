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
        method = next((m for m in ("vtln", "voicemask", "mcadams", "frame_select")
                       if p.stem == m or p.stem.startswith(m + "_")), None)
        assert method is not None, p
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


FLAT = """# a screening variant written flat (as before the groups)
# second line of the header
k: 8                 # classes per speaker
target_gender: any

# the class means replaced whole
class_shift: 1.0
pitch_jitter_semitones: 2.0
ss_dims: 2
world:
  f0_method: dio     # WORLD stays as it was
  frame_period: 5.0
"""


def test_every_vtln_config_is_grouped_and_reads_back_flat(repo_root, tmp_path):
    """Every VTLN config of conf/voice is in the grouped form: its flat options are the VtlnParams fields (plus k,
    target_gender, world); the same options written flat at the top level are refused, naming the group."""
    import yaml

    from pydeid.io import FormatError
    from pydeid.voice import registry
    from pydeid.voice.configs import group_of, load_config
    m = registry.get("vtln")
    owner = group_of(m)
    files = sorted((repo_root / "conf/voice").rglob("vtln*.yaml"))
    assert len(files) >= 45
    for p in files:
        raw = yaml.safe_load(p.read_text()) or {}
        assert set(raw) <= {*m.groups, "world"}, p          # nothing flat at the top
        flat = load_config(p, "vtln")
        assert set(flat) - {"world"} <= set(owner) and flat.get("world") == raw.get("world"), p
        opts = {k: v for k, v in flat.items() if k != "world"}
        if opts:
            bad = tmp_path / p.name
            bad.write_text(yaml.safe_dump(opts))
            with pytest.raises(FormatError, match=rf"{bad.name}:\d+: '\w+' belongs (in|under) the group '\w+:'"):
                load_config(bad, "vtln")


def test_grouped_config_errors_name_file_line_and_group(tmp_path):
    from pydeid.io import FormatError
    from pydeid.voice.configs import load_config
    cases = [
        ("classes:\n  k: 8\n  warp_scale: 0.5\n", r":3: 'classes.warp_scale': warp_scale belongs in the group 'warping:'"),
        ("classes:\n  kk: 8\n", r":2: unknown key 'classes.kk'; allowed: class_shift"),
        ("classes:\n  k: 8\nfoo: 1\n", r":3: unknown key 'foo'; allowed: classes, f0, pauses, speaker_subspace, "
                                       r"warping, world"),
        ("warping:\n  target_gender: sme\n", r":2: target_gender: unknown name 'sme'"),
        ("classes: phones\n", r":1: 'classes' belongs under the group 'classes:'"),
        ("pauses: 1.0\n", r":1: 'pauses' must be a mapping"),
        ("world:\n  f0_methd: dio\n", r"unknown key 'world.f0_methd'"),
    ]
    for i, (text, want) in enumerate(cases):
        p = tmp_path / f"c{i}.yaml"
        p.write_text(text)
        with pytest.raises(FormatError, match=want):
            load_config(p, "vtln")
    ok = tmp_path / "ok.yaml"
    ok.write_text("classes:\n  classes: phones\n  k: 8\npauses:\n  pause_shift: 1.0\nf0:\nworld:\n  frame_period: 5.0\n")
    assert load_config(ok, "vtln") == {"classes": "phones", "k": 8, "pause_shift": 1.0, "world": {"frame_period": 5.0}}
    flat_method = tmp_path / "mc.yaml"       # a method without groups reads its flat file as before
    flat_method.write_text("alpha: 0.7\n")
    assert load_config(flat_method, "mcadams") == {"alpha": 0.7}


def test_regroup_helper_rewrites_a_flat_file(repo_root, tmp_path):
    """python -m pydeid.voice.configs regroup: the options move under their groups with their comments, the header
    and world stay, the options read back the same; a second run leaves the file unchanged; a symlinked config
    (an old name) keeps its link; a flat file with a typo is not rewritten (one line, exit 1)."""
    import sys

    import yaml

    from pydeid.voice.configs import load_config
    f = tmp_path / "vtln_x.yaml"
    f.write_text(FLAT)
    link = tmp_path / "vtln_old.yaml"
    link.symlink_to(f.name)
    run = lambda *a: subprocess.run([sys.executable, "-m", "pydeid.voice.configs", "regroup", *map(str, a)],  # noqa
                                    cwd=repo_root, capture_output=True, text=True)
    r = run(link)
    assert r.returncode == 0 and r.stdout.strip() == f"{link}: regrouped", r.stderr
    assert link.is_symlink()
    new = f.read_text()
    assert new.startswith("# a screening variant written flat (as before the groups)\n# second line of the header\n")
    assert "classes:\n  k: 8                 # classes per speaker\n" in new
    assert "\n  # the class means replaced whole\n  class_shift: 1.0\n" in new
    assert "warping:\n  target_gender: any\n" in new and "f0:\n  pitch_jitter_semitones: 2.0\n" in new
    assert "speaker_subspace:\n  ss_dims: 2\n" in new
    assert new.endswith("world:\n  f0_method: dio     # WORLD stays as it was\n  frame_period: 5.0\n")
    assert load_config(f, "vtln") == yaml.safe_load(FLAT)
    r = run(f)
    assert r.returncode == 0 and r.stdout.strip() == f"{f}: unchanged" and f.read_text() == new
    bad = tmp_path / "vtln_bad.yaml"
    bad.write_text("k: 8\nwarp_jiter: 0.1\n")
    r = run(bad)
    assert r.returncode == 1 and bad.read_text() == "k: 8\nwarp_jiter: 0.1\n"
    assert len(r.stderr.strip().splitlines()) == 1 and "warp_jiter" in r.stderr and "Traceback" not in r.stderr
    mc = tmp_path / "mcadams_x.yaml"       # a method without groups: nothing to do
    mc.write_text("alpha: 0.7\n")
    assert run(mc).stdout.strip() == f"{mc}: unchanged"


def test_every_vtln_option_has_one_group():
    """A new VtlnParams field must be given a group in pydeid/voice/vtln/core.py GROUPS (else it would be read only
    at the top level, outside the grouped form)."""
    from dataclasses import fields

    from pydeid.voice import registry
    from pydeid.voice.vtln import VtlnParams
    m = registry.get("vtln")
    keys = [k for g in m.groups.values() for k in g]
    assert len(keys) == len(set(keys))
    assert set(keys) == {f.name for f in fields(VtlnParams)} | set(m.config_keys)
    assert set(m.groups) == {"warping", "classes", "pauses", "f0", "speaker_subspace"}
