"""pydeid.speech: speech synthesis shared by the corpus builder (pydeid.corpora.mini) and the spoken pseudonyms
(pydeid.mask.spoken): espeak-ng through the espeakng-loader wheel (espeak)."""
