"""Turns that carry seed 004 A.1 sensitive categories (health, beliefs, age, password, address, IP ...), spoken
forms only, with gold tags of the category types. Off by default: `build_corpus(..., category_turns=N)` replaces
the last N turns of each dialogue (same speakers, same number of turns) by such turns; the default corpus does not
change."""

from __future__ import annotations

import random

from .dialogue import Turn

# (words before, (type, fillers), words after); fillers are token lists
TEMPLATES = [
    ("I suffer from", ("HEALTH", ["depression", "asthma", "migraines", "diabetes", "epilepsy"]), "these days"),
    ("my wife has", ("HEALTH", ["cancer", "high blood pressure", "arthritis", "dementia"]), ""),
    ("I am", ("AGE", ["forty five years old", "thirty two years old", "sixty years old", "twenty eight"]),
     "and divorced"),
    ("I work as a", ("PROFESSION", ["lawyer", "nurse", "teacher", "plumber", "taxi driver"]), ""),
    ("my password is", ("CREDENTIAL", ["tulip", "sunflower", "marmalade", "kitten eleven"]), ""),
    ("the PIN is", ("CREDENTIAL", ["four four one nine", "one two three four", "zero eight zero eight"]), ""),
    ("I live at", ("ADDRESS", ["twelve Baker Street", "forty two Elm Road", "nine Church Lane",
                               "seventeen Victoria Street"]), ""),
    ("my IP address is", ("IP", ["one nine two dot one six eight dot zero dot one",
                                 "ten dot zero dot zero dot one", "one seven two dot one six dot four dot two"]), ""),
    ("I am", ("BELIEF", ["Catholic", "Muslim", "Jewish", "Buddhist", "an atheist"]), "by the way"),
    ("I paid", ("TRANSACTION", ["fifty euros", "two hundred dollars", "thirty pounds"]), "for it"),
    ("I'm", ("MARITAL", ["divorced", "married", "widowed"]), "so it does not matter"),
    ("my mother is", ("ETHNICITY", ["Korean", "Nigerian", "Polish", "Basque"]), "actually"),
    ("I am", ("SEXUAL", ["gay", "bisexual", "lesbian"]), "and my family knows"),
]


def category_turn(rng: random.Random) -> Turn:
    before, (typ, fillers), after = TEMPLATES[rng.randrange(len(TEMPLATES))]
    value = rng.choice(fillers).split()
    segs: list[tuple[list[str], str | None]] = []
    if before:
        segs.append((before.split(), None))
    lead = [w for w in value if w in ("a", "an")]
    if lead and value[0] in ("a", "an"):      # the article is not part of the entity
        segs.append((value[:1], None))
        value = value[1:]
    segs.append((value, typ))
    if after:
        segs.append((after.split(), None))
    if typ == "AGE" and after == "and divorced":
        segs[-1] = (["and"], None)
        segs.append((["divorced"], "MARITAL"))
    return Turn(segs)
