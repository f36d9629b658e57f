"""The attacker scenarios (pydeid.attack.scenarios, names fixed project-wide): each attacker's data derives from
ORIGINAL audio, with the draws the scenario says."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pydeid.attack.scenarios import ORDER, SCENARIOS, UnknownScenario, attacker_plan, resolve

ROOT = Path(__file__).resolve().parents[2]
VCS = [("voicemask", "-"), ("vtln", "2"), ("mcadams", "-")]


def plan(scenarios, seed=0, attacker_seed=1):
    return attacker_plan(scenarios, VCS, seed, attacker_seed, "data/train_xv", "data/test_enroll",
                         "data/test_trial", "exp/xv_orig")


def test_semi_informed_enrolment_is_own_conversion_of_original_audio():
    convs, attacks = plan(["semi-informed"], seed=0, attacker_seed=7)
    by_out = {c.out: c for c in convs}
    for a in attacks:
        assert a.scenario == "semi-informed" and not a.model
        enroll, train = by_out[a.enroll], by_out[a.train]
        # converted by the attacker from the ORIGINAL enrolment / training dirs, never from the published set
        assert enroll.src == "data/test_enroll" and train.src == "data/train_xv"
        assert not a.enroll.startswith(a.trial) and "test_trial" not in enroll.src
        # with his own draws (not the publisher's seed 0), same method, strategy and parameters
        assert enroll.seed == train.seed == 7
        assert (enroll.method, enroll.strategy, enroll.shifted) == (a.method, a.strategy, False)
        assert a.trial == f"data/test_trial_{a.method}{'' if a.strategy == '-' else a.strategy}"


def test_each_scenario_holds_the_data_of_its_definition():
    convs, attacks = plan(ORDER)
    by_out = {c.out: c for c in convs}
    seen = {}
    for a in attacks:
        seen.setdefault(a.scenario, []).append(a)
        if a.scenario in ("original", "ignorant"):
            assert a.model == "exp/xv_orig" and a.enroll == "data/test_enroll" and a.train == ""
        elif a.scenario == "lazy-informed":   # trained on original speech, enrols on its own conversion
            assert a.model == "exp/xv_orig" and a.train == ""
            assert by_out[a.enroll].src == "data/test_enroll" and by_out[a.enroll].seed == 1
        elif a.scenario == "parameter-shifted":
            for d in (a.train, a.enroll):
                assert by_out[d].shifted and by_out[d].seed == 1
        elif a.scenario == "informed-same-draws":   # knows the secret draws: the publisher's seed
            assert by_out[a.train].seed == by_out[a.enroll].seed == 0 and not by_out[a.enroll].shifted
            assert by_out[a.enroll].src == "data/test_enroll"
    assert set(seen) == set(ORDER)
    assert len(seen["original"]) == 1 and all(len(seen[s]) == len(VCS) for s in ORDER if s != "original")
    # every converted set of an attacker is made from original audio
    assert {c.src for c in convs} == {"data/train_xv", "data/test_enroll"}


def test_names_are_checked():
    with pytest.raises(UnknownScenario, match="unknown scenario 'semi'"):
        plan(["semi"])
    assert resolve("informed").name == "semi-informed"   # the former name, still accepted
    assert "informed" not in ORDER
    with pytest.raises(ValueError, match="must differ"):
        plan(["semi-informed"], seed=3, attacker_seed=3)


def test_cli_plan_and_attack_sh_share_the_registry(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pydeid", "attack-plan", "--scenarios", "ignorant nonsense",
                        "--voice-configs", "vtln:1", "--seed", "0", "--attacker-seed", "1", "--train", "a",
                        "--enroll", "b", "--trial", "c", "--model", "m"], capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "unknown scenario 'nonsense'" in r.stderr
    text = (ROOT / "steps" / "attack.sh").read_text()
    case = re.search(r"\n  ([a-z|-]+)\) ;;", text).group(1).split("|")
    assert case == ORDER == list(SCENARIOS)
    r = subprocess.run(["bash", str(ROOT / "steps" / "attack.sh"), "--scenario", "clever", "a", "b", "c", "d"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1 and "unknown scenario 'clever'" in r.stderr
