"""The phone inventory of the phone classes (see phone_classes): ARPAbet phones, their families, the class list and
the back-off tree. Constants only, shared by phone_classes and unvoiced_classes."""

from __future__ import annotations

import numpy as np

GROUPS: dict[str, tuple[str, ...]] = {
    "front": ("IY", "IH", "EH", "EY", "AE"),
    "central": ("AH", "ER"),
    "back": ("AA", "AO", "OW", "UH", "UW"),
    "diphthong": ("AW", "AY", "OY"),
    "nasal": ("M", "N", "NG"),
    "liquid_glide": ("L", "R", "W", "Y"),
    "voiced_obstruent": ("B", "D", "G", "V", "DH", "Z", "ZH", "JH"),
    "voiceless_obstruent": ("P", "T", "K", "F", "TH", "S", "SH", "CH", "HH"),
}
OBSTRUENT_GROUPS = ("voiced_obstruent", "voiceless_obstruent")
PHONE_CLASSES = tuple(sorted(p for g, ps in GROUPS.items() if g not in OBSTRUENT_GROUPS for p in ps))
POOLED = "pooled"
CLASSES = PHONE_CLASSES + tuple(GROUPS) + (POOLED,)
INDEX = {c: i for i, c in enumerate(CLASSES)}
K = len(CLASSES)
P_POOLED = INDEX[POOLED]
GROUP_OF = {p: g for g, ps in GROUPS.items() for p in ps}
# the finest class of each phone: its own class for vowels and sonorants, its group's for obstruents
PHONE_TO_CLASS = {p: INDEX[p] if p in INDEX else INDEX[g] for p, g in GROUP_OF.items()}
# the class a class backs off to (-1: none)
PARENT = np.array([INDEX[GROUP_OF[c]] if c in GROUP_OF else (P_POOLED if c != POOLED else -1) for c in CLASSES])
PHONES = tuple(sorted(GROUP_OF))
PHONE_INDEX = {p: i for i, p in enumerate(PHONES)}
