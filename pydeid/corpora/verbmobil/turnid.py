"""VerbMobil (BAS edition) turn ids: DDDDSRMC_TTT_SSS[_LLL] (FORMAT.md section 3).

    g001ach1_000_AAJ   DDDD=g001 dialogue, S=a scenario, R=c recording condition, M=h microphone,
                       C=1 channel, TTT=000 turn index, SSS=AAJ speaker, optional _ENG/_GER/_JAP language.

Dialogue = the first 5 characters (DDDDS, the dialogue directory of the CLARIN layout). The letters' meanings
beyond the scenario are [P]/[U] in FORMAT.md, so they are kept but never relied upon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LANGS = ("ENG", "GER", "JAP")
_TURN_RE = re.compile(
    r"^(?P<dnum>[A-Za-z]\d{3})(?P<scen>[A-Za-z])(?P<cond>[A-Za-z0-9])(?P<mic>[A-Za-z0-9])(?P<chan>\d)"
    r"_(?P<idx>\d{3})_(?P<spk>[A-Z0-9]{3})(?:_(?P<lang>[A-Z]{3}))?$")


@dataclass(frozen=True)
class TurnId:
    base: str          # turn id without language suffix, e.g. z901axc0_000_QQA
    dialogue: str      # z901a (5 chars)
    dnum: str          # z901
    scenario: str      # a
    channel_name: str  # z901axc0 (8 chars)
    index: str         # 000
    speaker: str       # QQA (3-letter code as in the corpus, before speaker-id fixes)
    lang: str | None   # ENG/GER/JAP when the name carries a suffix

    @property
    def number(self) -> int:
        return int(self.dnum[1:])

    @property
    def letter(self) -> str:
        return self.dnum[0].lower()


def parse_turn_id(name: str) -> TurnId | None:
    """Parse a turn id (a file stem); None when it does not follow the scheme."""
    m = _TURN_RE.match(name)
    if not m:
        return None
    lang = m.group("lang")
    base = name[:-4] if lang else name
    return TurnId(base=base, dialogue=name[:5], dnum=m.group("dnum"), scenario=m.group("scen").lower(),
                  channel_name=name[:8], index=m.group("idx"), speaker=m.group("spk"), lang=lang)
