"""pydeid.text: entity detection (flair BiLSTM-CRF, grammars, capitalisation, optional spaCy), replacement
strategies with seed 000's probabilistic algorithm and DP accounting, SanText/SanText+, pseudonym maps, metrics.

Modules: spans, lexicon, grammars, detectors, flair_ner, pools, strategies, dp, transform, dialogue, santext,
metrics, datadir (Kaldi text + tags.conll glue), utility (train-on-transformed / test-on-original). Heavy dependencies (flair, torch, gensim, faker) load lazily.
"""
