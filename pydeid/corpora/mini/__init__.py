"""The embedded corpus `mini`: synthetic VerbMobil-style appointment dialogues spoken by espeak-ng voices,
with gold BIO entity tags (PER ORG LOC DATE TIME NUM) and gold word timings. See build.py for the layout."""

from .build import DATA_DIRS, SIZES, build_corpus, corpus_params, corpus_stats, read_stamp

__all__ = ["build_corpus", "corpus_params", "corpus_stats", "read_stamp", "SIZES", "DATA_DIRS"]
