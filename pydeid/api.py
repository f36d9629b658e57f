"""The objects of seed 004 §2.2 in a few lines, for a Python user (as Presidio's analyzer + anonymizer):

- TextTransformer: identifies the sensitive words of a sentence (the detectors of pydeid.text.detectors) and
  transforms them (the strategies of pydeid.text.strategies);
- voice transformers: `voice_transformer(method)` for the methods that need no target data (VoiceMask, McAdams),
  `build_vtln` (the VT builder: target speakers' voices -> a pool) and `VtlnTransformer` (fit to a source speaker,
  transform to a target); `voice_methods()` lists the registered methods.

Everything is imported on first use: `import pydeid` loads no torch, spaCy or WORLD.

>>> import pydeid
>>> tt = pydeid.TextTransformer(detectors=["grammar"], seed=0)
>>> tt.identify("my pin is four two four two and we meet on Monday the third of June")
[(3, 7, 'NUM'), (11, 16, 'DATE')]
>>> tt.transform("my pin is four two four two and we meet on Monday the third of June")
'my pin is five zero zero five and we meet on Tuesday the seventeenth'
"""

from __future__ import annotations

DEFAULT_STRATEGIES = "NUM=random_digits,default=faker"   # needs no corpus: Faker values of each type, digits redrawn


class TextTransformer:
    """Identify and transform the sensitive words of one sentence (tokens separated by spaces).

    detectors: names of pydeid.text.detectors.DETECTORS (None: the default set, with spaCy's NER);
    strategies: "TYPE=strategy,...,default=strategy" (pydeid.text.strategies.STRATEGIES) or a dict;
    p: the replacement probability of seed 000; seed: the same seed and sentence give the same output.
    For whole corpora (pools drawn from the corpus, pseudonyms consistent per dialogue, epsilon reports) use
    `pydeid transform-text` / steps/transform_text.sh.

    >>> tt = TextTransformer(detectors=["grammar"], strategies={"default": "typed_placeholder"})
    >>> tt.transform("call me at five five five one two three four tomorrow")
    'call me at NUM DATE'
    """

    def __init__(self, detectors=None, strategies=DEFAULT_STRATEGIES, p: float = 1.0, seed: int = 0,
                 spacy_model: str | None = None):
        from pydeid.text.detectors import Detection, DetectionConfig
        from pydeid.text.strategies import STRATEGIES, parse_strategy_spec
        if isinstance(strategies, str):
            strategies = parse_strategy_spec(strategies)
        for typ, name in strategies.items():
            if name not in STRATEGIES:
                raise ValueError(f"unknown strategy {name!r} for {typ}; choose from {', '.join(STRATEGIES)}")
        self.strategies = dict(strategies)
        self.p, self.seed = p, seed
        cfg = DetectionConfig(detectors=list(detectors) if detectors else None)
        if spacy_model:
            cfg.spacy_model = spacy_model
        self._detection = Detection(cfg)

    def identify(self, text: str) -> list[tuple[int, int, str]]:
        """The sensitive spans of `text` as (first token, end token exclusive, type) over text.split()."""
        return [(s.start, s.end, s.type) for s in self._detection.detect_many([text.split()])[0]]

    def transform(self, text: str) -> str:
        """`text` with every identified span replaced by its type's strategy."""
        from pydeid.io.conll import Sentence
        from pydeid.text.pools import Pools
        from pydeid.text.transform import TextTransformer as Transformer
        from pydeid.text.transform import TransformConfig
        tokens = text.split()
        spans = self.identify(text)
        tags = ["O"] * len(tokens)
        for a, b, typ in spans:
            tags[a:b] = [f"B-{typ}"] + [f"I-{typ}"] * (b - a - 1)
        sentence = Sentence(tokens, tags)
        cfg = TransformConfig(strategies=self.strategies, p=self.p, seed=self.seed, avoid_original=True,
                              pseudonym_source="faker")
        return " ".join(Transformer(cfg, Pools([sentence])).transform([sentence]).sentences[0].tokens)


def voice_methods() -> list[str]:
    """The registered voice conversion methods (pydeid.voice.registry).

    >>> voice_methods()[:3]
    ['voicemask', 'vtln', 'mcadams']
    """
    from pydeid.voice import registry
    return registry.names()


class _PerUtterance:
    """A method's transformer that draws its parameters per utterance from its own seeded generator."""

    def __init__(self, method, params, world, seed: int):
        import numpy as np
        self.method, self.params = method, params
        self._tr = method.transformer(params, world)
        self._rng = np.random.default_rng(seed)

    def fit(self, utterances=None, sr: int = 16000):
        return self   # these methods need nothing from the source speaker

    def transform(self, wav, sr: int = 16000):
        return self._tr.transform(wav, sr, draw=self.method.draw(self.params, self._rng))


def voice_transformer(method: str = "voicemask", seed: int = 0, **params):
    """A voice transformer of a method that needs no target speakers: `.fit(utterances)` (a no-op) and
    `.transform(wav, sr) -> wav` (same length, a new draw of the method's parameters per call). `params`: the
    method's config keys (conf/voice/<method>.yaml), e.g. alpha=0.8 for McAdams.

    >>> import numpy as np
    >>> wav = (0.1 * np.sin(2 * np.pi * 150 * np.arange(16000) / 16000)).astype(np.float32)
    >>> y = voice_transformer("mcadams", alpha=0.8).transform(wav, 16000)
    >>> y.shape == wav.shape and bool(np.isfinite(y).all()) and not np.allclose(y, wav)
    True
    >>> voice_transformer("vtln")
    Traceback (most recent call last):
    ...
    ValueError: vtln converts towards target speakers: build_vtln({speaker: [wav, ...]}) then VtlnTransformer(targets)
    """
    from pydeid.voice import registry
    from pydeid.voice.world import WorldConfig
    m = registry.get(method)
    if m.speaker_targets or m.transformer is None:
        raise ValueError(f"{method} converts towards target speakers: build_vtln({{speaker: [wav, ...]}}) then "
                         f"VtlnTransformer(targets)")
    p = m.build(**params)
    if m.pitch_pool(p):
        raise ValueError(f"{method} with pitch_mode target needs a pool of target speakers: use pydeid "
                         f"transform-voice --target-data")
    world = WorldConfig(frame_period=m.frame_period) if m.frame_period is not None else WorldConfig()
    return _PerUtterance(m, p, world, seed)


def build_vtln(target_utterances, sr: int = 16000, k: int = 8, seed: int = 0):
    """The VT builder of seed 004 A.6 for VTLN: {speaker: [waveform, ...]} -> the target pool (VtlnTargets)."""
    from pydeid.voice.vtln import build_vtln as build
    return build(target_utterances, sr=sr, k=k, seed=seed)


def __getattr__(name):
    # the transformers and builders of pydeid.voice, loaded on first use
    if name in ("VtlnTransformer", "VoiceMaskTransformer", "McAdamsTransformer", "build_voicemask", "build_mcadams"):
        import pydeid.voice
        return getattr(pydeid.voice, name)
    raise AttributeError(f"module 'pydeid.api' has no attribute {name!r}")


__all__ = ["TextTransformer", "voice_methods", "voice_transformer", "build_vtln", "VtlnTransformer",
           "VoiceMaskTransformer", "McAdamsTransformer", "build_voicemask", "build_mcadams"]
