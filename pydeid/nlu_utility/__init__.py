"""Natural-language-understanding utility of de-identified text: intent classification and slot (NER) tagging
trained on transformed text and tested on original text, the privacy-utility curve, SanText rows (egs/snips/s5; the
`pydeid text-utility` verbs). The NER-utility protocol of the dialogue recipes is pydeid.text.utility.
intent: the classifier and its data; rows: what is done to the training text; experiment: the train-on-transformed /
test-on-original cells; report: tables and plot."""
