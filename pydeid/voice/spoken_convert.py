"""Convert a spoken-pseudonym fill with the conversion of the original utterances (issue 20).

The spoken fill (`pydeid mask-spoken`) runs on the ORIGINAL voices, before any conversion: its inserts are then
converted with the utterance they sit in, by the very transformer that converts the unfilled utterance. So the
VTLN target's spectral classes and F0 range apply to the inserts as to the words around them, and the published
audio is indistinguishable in kind from the silence neutral corpus's converted voices.

"The very transformer": the conversion plan (per-utterance targets, a secret) and the target pool of an existing
conversion of the original data dir (`steps/transform_voice.sh` exp dir, e.g. exp/voice/mini_train_vtln3) are
reused, and the VTLN source-speaker model is fitted, as there, on the speaker's ORIGINAL utterances (the first 30
of spk2utt, same k-means seed): an insert never changes how the speaker is modelled. An utterance without an
insert therefore comes out bit-identical to the plain conversion (checked by the tests), and `check_conversion`
re-converts utterances of the filled data dir and compares them with the published audio sample by sample.

VoiceMask and McAdams draw per utterance and do not fit a source model; they convert the filled audio with the
same plan (VoiceMask's pitch_mode target reads the source speaker's F0 from the filled audio).
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

from pydeid.io import DataDir, FormatError, write_audio

from . import convert as C
from . import registry
from .common import rng_for
from .world import WorldConfig

log = logging.getLogger(__name__)

MAX_FIT_UTTS = 30   # as convert.convert_vtln_outputs


class _FilledDataDir:
    """A DataDir view: spk2utt/utt2spk of the original, audio of the filled data dir for converted utterances."""

    def __init__(self, filled: DataDir):
        self._d = filled
        self.utt2spk = filled.utt2spk
        self.spk2utt = filled.spk2utt
        self.path = filled.path

    def load_audio(self, utt):
        return self._d.load_audio(utt)


def load_conversion(conv_exp) -> tuple[dict, Path]:
    conv_exp = Path(conv_exp)
    plan_path = conv_exp / "secrets" / C.PLAN_NAME
    if not plan_path.exists():
        raise FormatError(plan_path, None, "no voice plan: give the exp dir of steps/transform_voice.sh that "
                                           "converted the original data dir")
    return C.load_plan(plan_path), conv_exp / C.POOL_NAME


class FilledConverter:
    """Converts utterances of a filled data dir with the transformer of the original conversion."""

    def __init__(self, orig: DataDir, filled: DataDir, plan: dict, pool_path: Path):
        if set(filled.utts) - set(orig.utts):
            extra = sorted(set(filled.utts) - set(orig.utts))
            raise FormatError(filled.path, None, f"utterance '{extra[0]}' is not in the original data dir {orig.path}")
        for u in filled.utts:
            if filled.utt2spk[u] != orig.utt2spk[u]:
                raise FormatError(filled.path / "utt2spk" if filled.path else None, None,
                                  f"utterance '{u}': speaker {filled.utt2spk[u]}, {orig.utt2spk[u]} in the original")
            if u not in plan["utt"]:
                raise FormatError(pool_path.parent, None, f"the conversion plan has no draw for utterance '{u}'")
        self.orig, self.filled, self.plan, self.pool_path = orig, filled, plan, pool_path
        self.method = plan["method"]
        self._speaker_targets = registry.get(self.method).speaker_targets   # vtln: a fitted transformer per speaker
        self.world = WorldConfig(**plan.get("world", {}))
        self._tr = None
        self._spk = None
        if self._speaker_targets:
            from .vtln import VtlnTargets, VtlnTransformer, build_vtln_params
            targets = VtlnTargets.load(pool_path)
            self.world = targets.world
            # the plan's options (class-mean replacement...) as the original conversion applied them
            self._tr = VtlnTransformer(targets, params=build_vtln_params(**plan.get("params", {})))
            if self._tr.params.classes == "phones":   # the fill's frames have no phone alignment here
                raise FormatError(pool_path.parent, None, "its plan has phone classes (classes: phones): converting "
                                                          "a fill with them is not supported")

    def _fit(self, spk: str) -> None:
        """The source model of `spk` from its ORIGINAL utterances, with the k-means seed of the plan."""
        if self._spk == spk:
            return
        from .world import analyze
        fit_utts = self.orig.spk2utt[spk][:MAX_FIT_UTTS]
        seed = int(rng_for(self.plan["seed"], "kmeans", spk).integers(2 ** 31))
        try:
            self._tr.fit_features((analyze(self.orig.load_audio(u), 16000, self.world) for u in fit_utts), seed=seed)
        except ValueError as e:
            raise FormatError(self.orig.path / "utt2spk" if self.orig.path else None, None,
                              f"cannot model source speaker '{spk}' for vtln: {e}") from None
        self._spk = spk

    def convert_to(self, utts: list[str], wav_dir: Path, resume: bool = False) -> int:
        wav_dir.mkdir(parents=True, exist_ok=True)
        todo = [u for u in sorted(utts, key=lambda u: (self.filled.utt2spk[u], u))
                if not (resume and C.wav_path(wav_dir, u).exists())]
        if not self._speaker_targets:
            C.convert_utterances(_FilledDataDir(self.filled), todo, self.plan, wav_dir, self.world)
            return len(todo)
        n = 0
        for u in todo:
            if resume and C.wav_path(wav_dir, u).exists():   # written meanwhile by another job on the same dir
                continue
            self._fit(self.filled.utt2spk[u])
            e = self.plan["utt"][u]   # its draws as convert_vtln_outputs applies them: averaged targets, offsets
            y = self._tr.transform(self.filled.load_audio(u), e.get("targets", e["target"]), 16000,
                                   e.get("warp_shift", 0.0), e.get("pitch_shift", 0.0), ss_seed=e.get("ss_seed"))
            write_audio(C.wav_path(wav_dir, u), y, 16000)
            n += 1
        return n


def convert_filled(orig_data, filled_data, conv_exp, out_data, resume: bool = True) -> dict:
    """filled_data (mask-spoken output on the original voices) -> out_data (its conversion by conv_exp's plan)."""
    orig, filled = DataDir.read(orig_data), DataDir.read(filled_data)
    out = Path(out_data).resolve()
    if out in (Path(orig_data).resolve(), Path(filled_data).resolve()):
        raise FormatError(out, None, "output data dir must differ from the inputs")
    plan, pool = load_conversion(conv_exp)
    conv = FilledConverter(orig, filled, plan, pool)
    wav_dir = out / "wav"
    n = conv.convert_to(filled.utts, wav_dir, resume=resume)
    C.assemble(Path(filled_data), out, wav_dir)
    C.check_no_original_paths(orig, out)
    log.info("%s: %d utterances converted (%d kept from an earlier run) with the plan of %s", out, n,
             len(filled.utts) - n, conv_exp)
    return {"utterances": len(filled.utts), "converted": n, "method": plan["method"]}


def check_conversion(orig_data, filled_data, conv_exp, published_data, n_utts: int = 0, seed: int = 0) -> dict:
    """Re-convert utterances of the filled data dir (all, or n_utts drawn with seed) and compare them with the
    published audio sample by sample. Returns {"checked", "mismatched": [utt...], "missing": [utt...]}."""
    orig, filled, pub = DataDir.read(orig_data), DataDir.read(filled_data), DataDir.read(published_data)
    plan, pool = load_conversion(conv_exp)
    conv = FilledConverter(orig, filled, plan, pool)
    utts = list(filled.utts)
    if n_utts and n_utts < len(utts):
        idx = np.random.default_rng(seed).choice(len(utts), n_utts, replace=False)
        utts = [utts[i] for i in sorted(idx)]
    missing = [u for u in utts if u not in pub.wav_scp]
    utts = [u for u in utts if u in pub.wav_scp]
    bad = []
    with tempfile.TemporaryDirectory(prefix="pydeid-spoken-check-") as tmp:
        conv.convert_to(utts, Path(tmp))
        for u in utts:
            a, _ = sf.read(C.wav_path(Path(tmp), u), dtype="int16")
            b, _ = sf.read(pub.wav_scp[u].strip(), dtype="int16")
            if a.shape != b.shape or not np.array_equal(a, b):
                bad.append(u)
    return {"checked": len(utts), "mismatched": bad, "missing": missing}
