"""pydeid: de-identification of spoken-dialogue corpora (text, voice, masking) with ASR/attack evaluation."""

__version__ = "0.1.0"
