"""Synthetic speakers from espeak-ng voices: accent (language variant) x voice variant x pitch/range/rate.

Each speaker keeps one set of parameters for all its utterances. Robotic, whispering and joke variants are
left out, and so are caleb (whispered: voicing 0) and zac (a child's pitch). Genders follow the variant files
(`gender male|female` in espeak-ng-data/voices/!v).
"""

from __future__ import annotations

import random

from .synth import Voice

ACCENTS = ["en-us", "en", "en-gb-x-rp", "en-gb-scotland", "en-029", "en-gb-x-gbclan", "en-gb-x-gbcwmd",
           "en-us-nyc"]
MALE_VARIANTS = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "adam", "Alex", "Andy", "benjamin", "boris",
                 "david", "Denis", "ed", "edward", "Gene", "gustave", "Henrique", "Hugo", "ian", "iven",
                 "Jacky", "john", "Lee", "marcelo", "Marco", "Mario", "max", "Michael", "michel", "miguel", "Mike",
                 "norbert", "paul", "pedro", "quincy", "Reed", "rob", "robert", "sandro", "travis", "victor"]
FEMALE_VARIANTS = ["f1", "f2", "f3", "f4", "f5", "Alicia", "Andrea", "Annie", "anika", "aunty", "belinda", "linda",
                   "steph", "steph2", "steph3"]


def make_voices(n_by_gender: dict[str, int], seed: int) -> list[tuple[str, str, int, int, int, int, float]]:
    """Distinct (gender, espeak name, rate, pitch, range, wordgap, gain) tuples; variants are used up before
    any repeats (a repeated variant then differs in accent and parameters)."""
    rng = random.Random(f"voices-{seed}")
    out = []
    for g in ("f", "m"):
        variants = list(FEMALE_VARIANTS if g == "f" else MALE_VARIANTS)
        rng.shuffle(variants)
        n = n_by_gender.get(g, 0)
        # spread pitch over the range so that speakers of one gender differ (stratified draw)
        pitches = [int(20 + (i + rng.random()) * 60 / max(n, 1)) for i in range(n)]
        rng.shuffle(pitches)
        used = set()
        for i in range(n):
            var = variants[i % len(variants)]
            free = [a for a in ACCENTS if (a, var) not in used]
            acc = rng.choice(free or ACCENTS)  # past 8 accents per variant only the parameters differ
            used.add((acc, var))
            out.append((g, f"{acc}+{var}", rng.randint(145, 195), pitches[i], rng.randint(25, 85),
                        rng.choice([0, 0, 0, 1]), round(rng.uniform(-6.0, 0.0), 2)))
    return out


def assign_speakers(splits: dict[str, int], seed: int) -> dict[str, list[Voice]]:
    """Gender-balanced speakers per split, ids spk001.. in split order (train, dev, test)."""
    rng = random.Random(f"speakers-{seed}")
    per_split = {}
    totals = {"m": 0, "f": 0}
    for split, n in splits.items():
        first = rng.choice("mf")
        genders = [(first if i % 2 == 0 else ("f" if first == "m" else "m")) for i in range(n)]
        per_split[split] = genders
        for g in genders:
            totals[g] += 1
    pool = make_voices(totals, seed)
    by_g = {g: [p for p in pool if p[0] == g] for g in "mf"}
    for g in by_g:
        rng.shuffle(by_g[g])
    out: dict[str, list[Voice]] = {}
    idx = 1
    for split, genders in per_split.items():
        vs = []
        for g in sorted(genders):
            _, name, rate, pitch, rng_, gap, gain = by_g[g].pop()
            vs.append(Voice(f"spk{idx:03d}", g, name, rate, pitch, rng_, gap, gain))
            idx += 1
        out[split] = vs
    return out
