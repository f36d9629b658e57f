"""The attacker scenarios: one registry of names, meanings and the data each attacker holds.

Names are fixed project-wide (CLI `steps/attack.sh --scenario`, `pydeid score-trials --scenario`, tables, README):

  original             no conversion anywhere (baseline, seed 004 table 2)
  ignorant             seed 004 scenario 1: trains and enrols on ORIGINAL speech; trials = the published set
  lazy-informed        VoicePrivacy Challenge: trains on original speech; enrols on his own conversion of the
                       ORIGINAL enrolment audio (same method and parameters, his own draws)
  semi-informed        VoicePrivacy Challenge 2024 (the scenario it ranks systems by; seed 004 scenario 2): converts
                       his ORIGINAL training utterances (VPC 2024: ALL of them; a recipe may give fewer, and the
                       tables then say how many) and his original enrolment audio with the same method and
                       parameters and his own draws (a seed other than the publisher's), trains on the former
  parameter-shifted    seed 004 scenario 3: like semi-informed, with other parameter values (see SHIFTED), own draws
  informed-same-draws  extra row: like semi-informed but with the publisher's seed, i.e. it knows the secret draws
                       (an upper bound; never presented as a VPC scenario)

"informed", the name of semi-informed before the VoicePrivacy names were adopted, is still accepted and mapped to
semi-informed (LEGACY).

The attacker's converted enrolment always comes from ORIGINAL enrolment audio, never from the published set:
`attacker_plan` derives every attacker's data from the original training and enrolment dirs, and the recipes
take their conversions and attacks from it (`pydeid attack-plan`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    name: str
    seed_ref: str        # where the definition comes from
    train: str           # "original" | "converted"
    enroll: str          # "original" | "converted"
    draws: str | None    # None (no conversion by the attacker) | "own" (attacker seed) | "publisher" (secret seed)
    params: str | None   # None | "same" | "shifted"
    text: str


SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    Scenario("original", "seed 004 table 2", "original", "original", None, None,
             "no voice transformation: attacker trained, enrolled and tested on original speech"),
    Scenario("ignorant", "seed 004 scenario 1, table 3", "original", "original", None, None,
             "ignorant attacker (seed 004 scenario 1): trained and enrolled on original speech, tested on the "
             "published converted trials"),
    Scenario("lazy-informed", "VoicePrivacy Challenge", "original", "converted", "own", "same",
             "lazy-informed attacker (VoicePrivacy Challenge): trained on original speech, enrolled on his own "
             "conversion of the original enrolment audio (same method and parameters, his own random draws)"),
    Scenario("semi-informed", "VoicePrivacy Challenge 2024; seed 004 scenario 2, table 4", "converted", "converted",
             "own", "same",
             "semi-informed attacker (VoicePrivacy Challenge 2024): converts his original training utterances "
             "(VoicePrivacy 2024: all of them) and his original enrolment audio with the same method and "
             "parameters and his own random draws (another seed than the publisher's), trains on the converted "
             "training set"),
    Scenario("parameter-shifted", "seed 004 scenario 3", "converted", "converted", "own", "shifted",
             "parameter-shifted attacker (seed 004 scenario 3): knows the method, not the parameters: converts his "
             "original training and enrolment audio with shifted parameter values and his own draws"),
    Scenario("informed-same-draws", "extra row (not a seed scenario)", "converted", "converted", "publisher",
             "same",
             "semi-informed attacker that knows the publisher's secret draws (same seed): an upper bound on the "
             "semi-informed attack, not a VoicePrivacy scenario"),
)}
ORDER = list(SCENARIOS)
# former names, still accepted on the command line and in old metrics.json: `informed` is semi-informed
LEGACY = {"informed": "semi-informed"}

# what "other parameter values" means per method in the parameter-shifted scenario (the mini recipe's choice;
# documented in README and RESULTS.md): the publisher's values are conf/voice/<method>.yaml, the VTLN targets the
# publisher's pool (mini_dev speakers)
SHIFTED = {
    "voicemask": "conf/voice/voicemask_shifted.yaml: |alpha| in [0.06, 0.08] instead of [0.08, 0.10], distortion "
                 "band [0.26, 0.34] instead of [0.32, 0.40], pitch shift 1-3 instead of 2-4 semitones",
    "vtln": "the attacker's own target pool: 4 mini_train speakers (2 f, 2 m) instead of the publisher's "
            "mini_dev speakers, same -T, k and strategy",
    "mcadams": "conf/voice/mcadams_shifted.yaml: alpha 0.7 instead of 0.8",
}


class UnknownScenario(ValueError):
    pass


def resolve(name: str) -> Scenario:
    """The scenario of a name a user typed (legacy names mapped); unknown names are an error."""
    key = LEGACY.get(name, name)
    if key not in SCENARIOS:
        raise UnknownScenario(f"unknown scenario '{name}' (known: {', '.join(ORDER)})")
    return SCENARIOS[key]


@dataclass(frozen=True)
class Conversion:
    method: str
    strategy: str
    seed: int
    shifted: bool
    src: str             # an ORIGINAL data dir of the attacker (training or enrolment)
    out: str


@dataclass(frozen=True)
class Attack:
    scenario: str
    name: str
    method: str
    strategy: str
    train: str           # data dir the attacker trains on ("" with model)
    model: str           # shared original-speech model ("" when the attacker trains his own)
    enroll: str
    trial: str


def vname(method: str, strategy: str) -> str:
    return method if strategy in ("-", "") else f"{method}{strategy}"


def attacker_plan(scenarios: list[str], voice_configs: list[tuple[str, str]], seed: int, attacker_seed: int,
                  train: str, enroll: str, trial: str, original_model: str) -> tuple[list[Conversion], list[Attack]]:
    """Conversions (from the ORIGINAL train/enroll dirs) and attacks of the given scenarios for each
    method:strategy. `trial` is the published converted trial dir's prefix: `<trial>_<v>`."""
    if attacker_seed == seed:
        raise ValueError(f"the attacker's seed must differ from the publisher's ({seed})")
    convs: dict[str, Conversion] = {}
    attacks: list[Attack] = []

    def converted(src: str, method: str, strategy: str, s: Scenario) -> str:
        v = vname(method, strategy)
        sd = seed if s.draws == "publisher" else attacker_seed
        shifted = s.params == "shifted"
        out = f"{src}_{v}{'_shift' if shifted else ''}_s{sd}"
        convs.setdefault(out, Conversion(method, strategy, sd, shifted, src, out))
        return out

    for name in scenarios:
        s = resolve(name)
        if s.name == "original":
            attacks.append(Attack("original", "original", "none", "-", "", original_model, enroll, trial))
            continue
        for method, strategy in voice_configs:
            v = vname(method, strategy)
            en = enroll if s.enroll == "original" else converted(enroll, method, strategy, s)
            if s.train == "original":
                tr, model = "", original_model
            else:
                tr, model = converted(train, method, strategy, s), ""
            attacks.append(Attack(s.name, f"{s.name}_{v}", method, strategy, tr, model, en, f"{trial}_{v}"))
    return list(convs.values()), attacks
