"""The objects of seed 004 §2.2 in a few lines, for a Python user (as Presidio's analyzer + anonymizer):

- TextTransformer: identifies the sensitive words of a sentence (the detectors of pydeid.text.detectors) and
  transforms them (the strategies of pydeid.text.strategies);
- voice transformers: `voice_transformer(method)` for the methods that need no target data (VoiceMask, McAdams),
  `build_vtln` (the VT builder: target speakers' voices -> a pool) and `VtlnTransformer` (fit to a source speaker,
  transform to a target); `voice_methods()` lists the registered methods.

Everything is imported on first use: `import pydeid` loads no torch, spaCy or WORLD.

Bad input is refused with one clear error (pydeid.io.audio_checks; a ValueError or TypeError subclass), as the CLI
refuses it: a sample rate that is not a positive integer, NaN or infinite samples, no samples, text that is not a
str, an empty target pool. Multichannel audio is mixed down to mono (the mean of the channels, as the CLI does for a
stereo file) and integer PCM is scaled to float (int16 / 32768, int32 / 2**31, (uint8 - 128) / 128).

>>> import pydeid
>>> tt = pydeid.TextTransformer(detectors=["grammar"], seed=0)
>>> tt.identify("My pin is four two four two and we meet on Monday the third of June")
[(3, 7, 'NUM'), (11, 16, 'DATE')]
>>> tt.transform("My pin is four two four two and we meet on Monday the third of June")
'My pin is five three zero zero and we meet on Sunday the first of July'
"""

from __future__ import annotations

# the one default of transform-text, steps/transform_text.sh and the README (strategies.DEFAULT_STRATEGY): values
# from outside the corpus that keep each entity's type and shape
DEFAULT_STRATEGIES = "default=surrogate"


class TextTransformer:
    """Identify and transform the sensitive words of one sentence (tokens separated by spaces).

    detectors: names of pydeid.text.detectors.DETECTORS (None: the default set, with spaCy's NER);
    strategies: "TYPE=strategy,...,default=strategy" (pydeid.text.strategies.STRATEGIES) or a dict; the default
    "default=surrogate" is the command line's: values from outside the corpus of each entity's type and shape;
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
        """The sensitive spans of `text` as (first token, end token exclusive, type) over text.split().
        TypeError when `text` is not a str."""
        _check_text(text)
        return [(s.start, s.end, s.type) for s in self._detection.detect_many([text.split()])[0]]

    def transform(self, text: str) -> str:
        """`text` with every identified span replaced by its type's strategy. TypeError when `text` is not a str."""
        _check_text(text)
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


class TextInputError(TypeError):
    """Text that is not a str (None, bytes, a list of tokens)."""


def _check_text(text) -> None:
    if not isinstance(text, str):
        raise TextInputError(f"text must be a str (tokens separated by spaces), got {type(text).__name__}")


def voice_methods() -> list[str]:
    """The registered voice conversion methods (pydeid.voice.registry).

    >>> voice_methods()[:3]
    ['voicemask', 'vtln', 'mcadams']
    """
    from pydeid.voice import registry
    return registry.names()


def _checked_audio(wav, sr) -> tuple:
    """(mono float32 waveform, sample rate) or one clear error: the check every transformer of the API applies."""
    from pydeid.io.audio_checks import as_mono_float, check_sample_rate
    sr = check_sample_rate(sr)
    return as_mono_float(wav), sr


class _PerUtterance:
    """A method's transformer that draws its parameters per utterance from its own seeded generator."""

    def __init__(self, method, params, world, seed: int):
        import numpy as np
        self.method, self.params = method, params
        self._tr = method.transformer(params, world)
        self._rng = np.random.default_rng(seed)

    def fit(self, utterances=None, sr: int = 16000):
        from pydeid.io.audio_checks import check_sample_rate
        check_sample_rate(sr)
        return self   # these methods need nothing from the source speaker

    def transform(self, wav, sr: int = 16000):
        """`wav` (mono float, or the documented mix-down / integer scaling of pydeid.io.audio_checks) at `sr`
        -> the converted mono float32 waveform, same length."""
        x, sr = _checked_audio(wav, sr)
        return self._tr.transform(x, sr, draw=self.method.draw(self.params, self._rng))


def voice_transformer(method: str = "voicemask", seed: int = 0, **params):
    """A voice transformer of a method that needs no target speakers: `.fit(utterances)` (a no-op) and
    `.transform(wav, sr) -> wav` (same length, a new draw of the method's parameters per call). `params`: the
    method's config keys (conf/voice/<method>.yaml), e.g. alpha=0.8 for McAdams. `wav`: mono float samples; a
    stereo array is mixed down to mono (mean of the channels), int16/int32/uint8 PCM is scaled to float; NaN or
    infinite samples, an empty array and a sample rate that is not a positive integer are refused (ValueError).

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
    """The VT builder of seed 004 A.6 for VTLN: {speaker: [waveform, ...]} -> the target pool (VtlnTargets).
    Refused at once (ValueError/TypeError): no speaker, a speaker without utterances, a bad waveform or sample
    rate (waveforms as voice_transformer: stereo mixed down, integer PCM scaled)."""
    from pydeid.io.audio_checks import AudioInputError, AudioTypeError, as_mono_float, check_sample_rate
    from pydeid.voice.vtln import build_vtln as build
    sr = check_sample_rate(sr)
    if not isinstance(target_utterances, dict):
        raise AudioTypeError(f"target_utterances must be a dict {{speaker: [waveform, ...]}}, got "
                             f"{type(target_utterances).__name__}")
    if not target_utterances:
        raise AudioInputError("build_vtln needs at least one target speaker ({speaker: [waveform, ...]}), got {}")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise AudioInputError(f"k (classes per speaker) must be a positive integer, got {k!r}")
    checked = {}
    for spk, wavs in target_utterances.items():
        if isinstance(wavs, (str, bytes)) or not hasattr(wavs, "__iter__") or hasattr(wavs, "dtype"):
            raise AudioTypeError(f"target speaker {spk!r}: expected a list of waveforms, got {type(wavs).__name__}")
        wavs = [as_mono_float(w, f"target speaker {spk!r}, utterance {i}") for i, w in enumerate(wavs)]
        if not wavs:
            raise AudioInputError(f"target speaker {spk!r} has no utterances")
        checked[spk] = wavs
    return build(checked, sr=sr, k=k, seed=seed)


def _checked_vtln_transformer():
    """pydeid.VtlnTransformer: pydeid.voice's, with its inputs checked like the rest of the API."""
    from pydeid.io.audio_checks import AudioInputError, AudioTypeError, as_mono_float, check_sample_rate
    from pydeid.voice.vtln import VtlnTargets
    from pydeid.voice.vtln import VtlnTransformer as Base

    class VtlnTransformer(Base):
        __doc__ = ("VTLN-based conversion (seed 004 A.6): VtlnTransformer(build_vtln(...)).fit(source utterances, "
                   "sr).transform(wav, target, sr). Waveforms as pydeid.voice_transformer (stereo mixed down, "
                   "integer PCM scaled, NaN/inf/empty refused); an unknown target is a ValueError.")

        def __init__(self, targets, *args, **kwargs):
            if not isinstance(targets, VtlnTargets):
                raise AudioTypeError(f"VtlnTransformer needs the target pool of build_vtln(...), got "
                                     f"{type(targets).__name__}")
            super().__init__(targets, *args, **kwargs)

        def fit(self, utterances, sr: int = 16000, seed: int = 0):
            sr = check_sample_rate(sr)
            if hasattr(utterances, "dtype") or isinstance(utterances, (str, bytes)) or utterances is None:
                raise AudioTypeError("fit() takes a list of the source speaker's waveforms")
            wavs = [as_mono_float(w, f"source utterance {i}") for i, w in enumerate(utterances)]
            if not wavs:
                raise AudioInputError("fit() needs at least one utterance of the source speaker")
            return super().fit(wavs, sr=sr, seed=seed)

        def transform(self, wav, target, sr: int = 16000, *args, **kwargs):
            x, sr = _checked_audio(wav, sr)
            ids = [target] if isinstance(target, str) else list(target) if isinstance(target, (list, tuple)) else None
            if ids is None or not ids or any(t not in self.targets.models for t in ids):
                known = ", ".join(sorted(self.targets.models)[:10])
                raise AudioInputError(f"unknown target {target!r}; the pool holds: {known}")
            return super().transform(x, target, sr, *args, **kwargs)

    return VtlnTransformer


def _checked_per_utterance_transformer(name: str):
    """pydeid.VoiceMaskTransformer / McAdamsTransformer: pydeid.voice's, with the waveform and sample rate checked
    like pydeid.voice_transformer's (the classes themselves trust their caller: the CLI reads audio already checked)."""
    import pydeid.voice
    base = getattr(pydeid.voice, name)

    def transform(self, wav, sr: int = 16000, draw: dict | None = None, **kwargs):
        x, sr = _checked_audio(wav, sr)
        return base.transform(self, x, sr, draw, **kwargs)

    return type(name, (base,), {"__doc__": base.__doc__ + " Waveforms as pydeid.voice_transformer (stereo mixed "
                                "down, integer PCM scaled, NaN/inf/empty refused).",
                                "__module__": __name__, "transform": transform})


def __getattr__(name):
    # the transformers and builders of pydeid.voice, loaded on first use
    if name == "VtlnTransformer":
        global VtlnTransformer
        VtlnTransformer = _checked_vtln_transformer()
        return VtlnTransformer
    if name in ("VoiceMaskTransformer", "McAdamsTransformer"):
        cls = _checked_per_utterance_transformer(name)
        globals()[name] = cls
        return cls
    if name in ("build_voicemask", "build_mcadams"):
        import pydeid.voice
        return getattr(pydeid.voice, name)
    raise AttributeError(f"module 'pydeid.api' has no attribute {name!r}")


__all__ = ["TextTransformer", "voice_methods", "voice_transformer", "build_vtln", "VtlnTransformer",
           "VoiceMaskTransformer", "McAdamsTransformer", "build_voicemask", "build_mcadams"]
