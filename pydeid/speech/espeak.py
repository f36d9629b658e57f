"""espeak-ng through the espeakng-loader wheel (ctypes): synchronous synthesis with word events.

The library keeps global state (one voice, one parameter set, one callback), so there is one Synth per process,
initialised lazily; every call sets voice and parameters afresh, so the output of an utterance never depends on
what was synthesized before it (tested).
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass

import numpy as np

AUDIO_OUTPUT_SYNCHRONOUS = 2
POS_CHARACTER = 1
espeakCHARS_UTF8 = 1
EVENT_WORD = 1
EVENT_END = 5
EVENT_MSG_TERMINATED = 6
EVENT_LIST_TERMINATED = 0
EVENT_PHONEME = 7
INITIALIZE_PHONEME_EVENTS = 0x0001
PARAM_RATE, PARAM_VOLUME, PARAM_PITCH, PARAM_RANGE, PARAM_WORDGAP = 1, 2, 3, 4, 7


class _EventId(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", _EventId)]


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


@dataclass(frozen=True)
class WordEvent:
    text_position: int   # 0-based character offset of the word in the synthesized text
    length: int          # characters
    sample: int          # sample index (at the native rate) where espeak starts the word


@dataclass(frozen=True)
class PhonemeEvent:
    name: str            # espeak phoneme mnemonic; names starting with "_" are pauses
    sample: int


@dataclass(frozen=True)
class Synthesis:
    samples: np.ndarray  # int16 at `rate`
    rate: int
    words: list[WordEvent]
    phonemes: list[list[PhonemeEvent]]  # the phonemes espeak spoke after each word event (same order)
    end_sample: int                     # where espeak's last sentence ends


class EspeakError(RuntimeError):
    pass


class Synth:
    """The process-wide espeak-ng engine."""

    _instance: "Synth | None" = None
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> "Synth":
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def __init__(self):
        import espeakng_loader
        self.lib = ctypes.cdll.LoadLibrary(espeakng_loader.get_library_path())
        self.libc = ctypes.CDLL(None)
        data = espeakng_loader.get_data_path().encode()
        self.lib.espeak_Initialize.restype = ctypes.c_int
        rate = self.lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, ctypes.c_char_p(data), INITIALIZE_PHONEME_EVENTS)
        if rate <= 0:
            raise EspeakError(f"espeak_Initialize failed ({rate}); data path {data!r}")
        self.rate = int(rate)
        self._chunks: list[np.ndarray] = []
        self._events: list[tuple[int, int, int, int, bytes]] = []
        self._n = 0
        self._cb = _CALLBACK(self._callback)  # keep a reference: the library holds a raw pointer
        self.lib.espeak_SetSynthCallback(self._cb)
        self.lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        self.lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.lib.espeak_TextToPhonemes.restype = ctypes.c_char_p
        self.lib.espeak_TextToPhonemes.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int]
        self.lib.espeak_Synth.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int,
                                          ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]

    def _callback(self, wav, n, events):
        if n > 0:
            self._chunks.append(np.ctypeslib.as_array(wav, shape=(n,)).copy())
        i = 0
        while events[i].type != EVENT_LIST_TERMINATED:
            e = events[i]
            name = bytes(e.id.string).split(b"\0")[0] if e.type == EVENT_PHONEME else b""
            self._events.append((e.type, e.text_position, e.length, e.audio_position, name))
            i += 1
        return 0

    def synthesize(self, text: str, voice: str, rate: int, pitch: int, range_: int, wordgap: int = 0,
                   volume: int = 100, rand_seed: int = 1) -> Synthesis:
        """Speak `text` (UTF-8) with espeak voice name `voice` ("en-us+m3") and absolute parameters.

        rand_seed seeds the noise sources (espeak's own generator and libc rand(), used by voices with breath
        noise), which otherwise depend on whatever ran in the process before.
        """
        with self._lock:
            self.libc.srand(ctypes.c_uint(rand_seed & 0xFFFFFFFF))
            if hasattr(self.lib, "espeak_ng_SetRandSeed"):
                self.lib.espeak_ng_SetRandSeed(ctypes.c_long(rand_seed & 0x7FFFFFFF))
            if self.lib.espeak_SetVoiceByName(voice.encode()) != 0:
                raise EspeakError(f"espeak voice {voice!r} not found")
            for p, v in ((PARAM_RATE, rate), (PARAM_PITCH, pitch), (PARAM_RANGE, range_),
                         (PARAM_WORDGAP, wordgap), (PARAM_VOLUME, volume)):
                self.lib.espeak_SetParameter(p, int(v), 0)
            self._chunks, self._events = [], []
            buf = ctypes.create_string_buffer(text.encode("utf-8"))
            err = self.lib.espeak_Synth(buf, len(buf), 0, POS_CHARACTER, 0, espeakCHARS_UTF8, None, None)
            if err != 0:
                raise EspeakError(f"espeak_Synth failed ({err}) on {text!r}")
            self.lib.espeak_Synchronize()
            samples = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.int16)
            ms2s = lambda ms: int(round(ms * self.rate / 1000))  # noqa: E731
            words: list[WordEvent] = []
            phonemes: list[list[PhonemeEvent]] = []
            end = len(samples)
            for typ, tp, ln, ms, name in self._events:
                if typ == EVENT_WORD:
                    words.append(WordEvent(tp - 1, ln, ms2s(ms)))
                    phonemes.append([])
                elif typ == EVENT_PHONEME and phonemes:
                    phonemes[-1].append(PhonemeEvent(name.decode("ascii", "replace"), ms2s(ms)))
                elif typ in (EVENT_END, EVENT_MSG_TERMINATED):
                    end = min(len(samples), ms2s(ms)) if ms > 0 else end
            return Synthesis(samples.astype(np.int16), self.rate, words, phonemes, end)

    def phoneme_count(self, word: str) -> int:
        """Number of phonemes espeak gives `word` on its own (used to split words espeak merges)."""
        with self._lock:
            p = ctypes.c_char_p(word.encode("utf-8"))
            out = self.lib.espeak_TextToPhonemes(ctypes.byref(p), espeakCHARS_UTF8, ord("_") << 8) or b""
        return max(1, len([x for x in out.decode("ascii", "replace").replace("'", "").replace(",", "").split("_")
                           if x.strip()]))
