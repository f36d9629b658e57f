"""Corpus preparation: the embedded synthetic corpus (mini), LibriSpeech and VerbMobil (BAS)."""
