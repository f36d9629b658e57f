"""Utility of de-identified text beyond NER: intent classification, the privacy-utility curve, SanText rows
(egs/snips/s5). intent: the classifier and its data; rows: what is done to the training text; experiment: the
train-on-transformed / test-on-original cells; report: tables and plot."""
