"""Train/dev/test split of the English VerbMobil dialogues (seed 004 section 5.1.1 and A.3) and the subsets of
the A.3 WER tables.

Units are whole dialogues (5-char dialogue ids); speakers are the fixed ids (CACVM1 ...). Rules, in order:
 1. test seed: every dialogue of CDs 47, 52, 55, 56 and dialogues q010-q020 of CD 6;
    then every dialogue (any CD) sharing a speaker with test joins test, repeated until stable.
 2. dev seed: dialogues not in test from CDs 32, 51 and q001-q009, q021, q022 of CD 6; then every remaining
    dialogue sharing a speaker with dev joins dev, repeated until stable.
 3. dialogues with speakers HCF, QZO or QZB move from test to dev.
 4. remaining dialogues are train, except those with ADB (-> test) and VNC (-> dev); then a train dialogue
    sharing a speaker with test/dev follows it (test first), repeated until stable, so no dev/test speaker is
    seen in train ("whole dialogues follow their speakers").
A.3 states the rules in prose; the "repeated until stable" closure is our reading of "dialogues from other CDs
including the speakers from the test set are also put into the test set". Rule 3 may leave a speaker in both dev
and test (A.3 only promises dev/test vs train disjointness); the prep reports such speakers.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SplitRules:
    test_cds: tuple[int, ...] = (47, 52, 55, 56)
    test_cd6: tuple[int, ...] = tuple(range(10, 21))            # q010-q020
    dev_cds: tuple[int, ...] = (32, 51)
    dev_cd6: tuple[int, ...] = tuple(range(1, 10)) + (21, 22)   # q001-q009, q021, q022
    cd6_letter: str = "q"
    test_to_dev_speakers: tuple[str, ...] = ("HCF", "QZO", "QZB")
    to_test_speakers: tuple[str, ...] = ("ADB",)
    to_dev_speakers: tuple[str, ...] = ("VNC",)
    accented_speakers: tuple[str, ...] = ("ADB", "VNC")          # British / Asian-accented (A.3 second table)


@dataclass
class Dialogue:
    name: str                       # 5-char id, e.g. q007n
    volume: int | None
    speakers: set[str] = field(default_factory=set)   # fixed ids

    @property
    def letter(self) -> str:
        return self.name[0].lower()

    @property
    def number(self) -> int | None:
        try:
            return int(self.name[1:4])
        except ValueError:
            return None


def _cd6(d: Dialogue, rules: SplitRules, numbers: tuple[int, ...]) -> bool:
    return d.volume == 6 and d.letter == rules.cd6_letter and d.number in numbers


def _has(d: Dialogue, codes: tuple[str, ...]) -> bool:
    return any(s[:3] in codes for s in d.speakers)


def _close(members: set[str], candidates: set[str], dialogues: dict[str, Dialogue]) -> set[str]:
    """Grow `members` with candidate dialogues that share a speaker with it, until nothing changes."""
    members = set(members)
    spk = set().union(*(dialogues[d].speakers for d in members)) if members else set()
    changed = True
    while changed:
        changed = False
        for d in sorted(candidates - members):
            if dialogues[d].speakers & spk:
                members.add(d)
                spk |= dialogues[d].speakers
                changed = True
    return members


def assign_split(dialogues: dict[str, Dialogue], rules: SplitRules | None = None) -> dict[str, str]:
    """{dialogue: 'train'|'dev'|'test'} by the A.3 rules."""
    rules = rules or SplitRules()
    every = set(dialogues)
    test = {n for n, d in dialogues.items() if d.volume in rules.test_cds or _cd6(d, rules, rules.test_cd6)}
    test = _close(test, every, dialogues)
    dev = {n for n, d in dialogues.items()
           if n not in test and (d.volume in rules.dev_cds or _cd6(d, rules, rules.dev_cd6))}
    dev = _close(dev, every - test, dialogues)
    moved = {n for n in test if _has(dialogues[n], rules.test_to_dev_speakers)}
    test -= moved
    dev |= moved
    train = every - test - dev
    to_test = {n for n in train if _has(dialogues[n], rules.to_test_speakers)}
    to_dev = {n for n in train - to_test if _has(dialogues[n], rules.to_dev_speakers)}
    test |= to_test
    dev |= to_dev
    # train dialogues follow their speakers into test/dev (test first), until stable
    while True:
        train = every - test - dev
        test_spk = set().union(*(dialogues[d].speakers for d in test)) if test else set()
        dev_spk = set().union(*(dialogues[d].speakers for d in dev)) if dev else set()
        go_test = {n for n in train if dialogues[n].speakers & test_spk}
        go_dev = {n for n in train - go_test if dialogues[n].speakers & dev_spk}
        if not go_test and not go_dev:
            break
        test |= go_test
        dev |= go_dev
    out = {n: "train" for n in every}
    out.update({n: "dev" for n in dev})
    out.update({n: "test" for n in test})
    return out


DOMAINS = {"b": "DB", "c": "DC"}  # scenario letter -> domain; everything else is appointment scheduling (DA)


def domain_of(scenario: str) -> str:
    """A.3: 'DA' appointment scheduling, 'DB' info desk [P: scenario b = information desk]; 'DC' remote
    maintenance (scenario c, not in the A.3 tables)."""
    return DOMAINS.get(scenario.lower(), "DA")


def subset_labels(native: str | None, domain: str, speaker: str, rules: SplitRules | None = None) -> list[str]:
    """Subset labels of one utterance, named as the columns of the A.3 WER tables.

    EN / DE: American vs German speakers of English (native unknown -> NATIVE_UNK); DA / DB (/ DC): domain;
    DA_EN: both; EN- / DE+: ADB and VNC moved from EN into the DE group (A.3 second table); DA_EN-.
    """
    rules = rules or SplitRules()
    accented = speaker[:3] in rules.accented_speakers
    labels = ["ALL", domain]
    if native == "en":
        labels.append("EN")
    elif native == "de":
        labels.append("DE")
    else:
        labels.append("NATIVE_UNK")
    if native == "en" and domain == "DA":
        labels.append("DA_EN")
    if accented or native == "de":
        labels.append("DE+")
    elif native == "en":
        labels.append("EN-")
        if domain == "DA":
            labels.append("DA_EN-")
    return labels
