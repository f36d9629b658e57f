"""ASR decoding with espnet2.bin.asr_inference (in-process), plus hypothesis word timings (CTM).

<decode-dir> receives:
  text            hypotheses (normalised like the training text: see <exp-dir>/textnorm.json), every input
                  utterance listed (an empty hypothesis is `<utt>` alone)
  hyp.ctm         hypothesis word timings from CTC forced alignment of the hypothesis (pydeid.align.ctc), when
                  the alignment module is available
  textnorm.json   copy of the model's normalisation (steps/score.sh applies it to the references)
  decode_info.json  model, options, audio seconds, wall seconds, real-time factor
  espnet/         ESPnet's own output (1best_recog/{text,token,score}), logs
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from pathlib import Path

import soundfile as sf

from pydeid.io import atomic_write_text, read_kaldi_map, write_kaldi_map

from .checkpoints import resolve_model_file
from .espnet_run import run_espnet
from .prep import prepare_asr_data
from .textnorm import TextNorm

log = logging.getLogger(__name__)


DEFAULTS = {"beam_size": 4, "ctc_weight": 0.3, "lm_weight": 1.0}


def decoding_defaults(exp: Path) -> dict:
    """beam_size / ctc_weight / lm_weight: <exp-dir>/decode.yaml (the tier's, written at training) over DEFAULTS.
    lm_weight applies only when an LM is given (--lm-exp)."""
    import yaml
    out = dict(DEFAULTS)
    if (exp / "decode.yaml").exists():
        out.update({k: v for k, v in (yaml.safe_load((exp / "decode.yaml").read_text()) or {}).items()
                    if k in DEFAULTS})
    return out


def decoding_settings(exp: Path, beam_size=None, ctc_weight=None, lm_exp=None, lm_weight=None) -> dict:
    """The options a decoding runs with (decode_info.json records them): given values over the tier's defaults;
    lm is None without --lm-exp, else {"lm_exp": resolved path, "lm_weight": ...}."""
    dflt = decoding_defaults(exp)
    lm = None
    if lm_exp:
        lm = {"lm_exp": str(Path(lm_exp).resolve()),
              "lm_weight": float(dflt["lm_weight"] if lm_weight is None else lm_weight)}
    return {"beam_size": int(dflt["beam_size"] if beam_size is None else beam_size),
            "ctc_weight": float(dflt["ctc_weight"] if ctc_weight is None else ctc_weight), "lm": lm}


def decode_asr(exp_dir, data, out_dir, beam_size: int | None = None, ctc_weight: float | None = None,
               ngpu: int = 0, model_file: str | None = None, penalty: float = 0.0,
               maxlenratio: float = 0.0, ctm: bool = True, lm_exp=None, lm_weight: float | None = None) -> Path:
    exp = Path(exp_dir).resolve()
    opts = decoding_settings(exp, beam_size, ctc_weight, lm_exp, lm_weight)
    beam_size, ctc_weight, lm_info = opts["beam_size"], opts["ctc_weight"], opts["lm"]
    lm_args = ["--lm_weight", 0]
    if lm_info:
        from .lm import check_lm_matches
        lm_exp = Path(lm_info["lm_exp"])
        lm_args = ["--lm_weight", lm_info["lm_weight"], "--lm_train_config", lm_exp / "config.yaml",
                   "--lm_file", check_lm_matches(exp, lm_exp)]
    out = Path(out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    norm = TextNorm.load(exp / "textnorm.json")
    model = resolve_model_file(exp, model_file)
    from . import adversarial  # noqa: F401  registers the speaker-adversarial model class

    asr_data = prepare_asr_data(data, out / "data", norm, need_text=False)
    wav_scp = read_kaldi_map(asr_data / "wav.scp")
    audio_sec = sum(sf.info(p).duration for p in wav_scp.values())

    esp = out / "espnet"
    if esp.exists():
        shutil.rmtree(esp)
    t0 = time.time()
    run_espnet("asr_inference", [
        "--ngpu", ngpu, "--batch_size", 1, "--beam_size", beam_size, "--ctc_weight", ctc_weight,
        *lm_args, "--penalty", penalty, "--maxlenratio", maxlenratio, "--nbest", 1,
        "--asr_train_config", exp / "config.yaml", "--asr_model_file", model,
        "--data_path_and_name_and_type", f"{asr_data}/wav.scp,speech,sound",
        "--key_file", asr_data / "wav.scp", "--output_dir", esp])
    wall = time.time() - t0
    raw = {}
    hyp_file = esp / "1best_recog" / "text"
    if hyp_file.exists():
        raw = read_kaldi_map(hyp_file, require_value=False, check_sorted=False)
    hyps = {u: " ".join(raw.get(u, "").split()) for u in wav_scp}
    write_kaldi_map(out / "text", hyps)
    norm.save(out / "textnorm.json")

    ctm_status = "not requested"
    if ctm:
        ctm_status = write_hyp_ctm(exp, model, asr_data, hyps, out / "hyp.ctm")
    info = {"exp_dir": str(exp), "model": str(model), "data": str(Path(data).resolve()), "beam_size": beam_size,
            "ctc_weight": ctc_weight, "penalty": penalty, "lm": lm_info, "num_utts": len(hyps),
            "audio_seconds": round(audio_sec, 2),
            "decode_seconds": round(wall, 2), "rtf": round(wall / audio_sec, 3) if audio_sec else None,
            "ctm": ctm_status}
    atomic_write_text(out / "decode_info.json", json.dumps(info, indent=1) + "\n")
    return out


def decode_is_current(exp_dir, data, out_dir, beam_size: int | None = None, ctc_weight: float | None = None,
                      model_file: str | None = None, penalty: float = 0.0, ctm: bool = True, lm_exp=None,
                      lm_weight: float | None = None) -> tuple[bool, str]:
    """Whether <out_dir> already holds this decoding: same model file, data dir, beam, CTC weight, penalty and LM
    (decode_info.json), every utterance, word timings if asked, and nothing changed since (model, LM checkpoint
    and wav.scp older than decode_info.json). Returns (answer, reason) so callers can say why they decode again."""
    out, exp = Path(out_dir), Path(exp_dir).resolve()
    info_file = out / "decode_info.json"
    if not info_file.exists() or not (out / "text").exists():
        return False, "no finished decoding"
    info = json.loads(info_file.read_text())
    model = resolve_model_file(exp, model_file)
    want = {"model": str(model), "data": str(Path(data).resolve()), "penalty": float(penalty),
            **decoding_settings(exp, beam_size, ctc_weight, lm_exp, lm_weight)}
    inputs = [Path(model), Path(data) / "wav.scp"]
    if want["lm"]:
        inputs.append(Path(want["lm"]["lm_exp"]) / "valid.loss.best.pth")
    for k, v in want.items():
        if info.get(k, 0.0 if k == "penalty" else None) != v:
            return False, f"{k} differs ({info.get(k)!r} there, {v!r} now)"
    n = len(read_kaldi_map(Path(data) / "wav.scp" if not (Path(data) / "segments").exists()
                           else Path(data) / "segments"))
    if info.get("num_utts") != n:
        return False, f"{info.get('num_utts')} utterances decoded, the data has {n}"
    if ctm and info.get("ctm") != "ok":
        return False, "no word timings"
    stamp = info_file.stat().st_mtime
    newer = [str(f) for f in inputs if f.exists() and f.stat().st_mtime > stamp]
    if newer:
        return False, f"{newer[0]} changed since"
    return True, "same model, data and options"


def write_hyp_ctm(exp: Path, model: Path, asr_data: Path, hyps: dict[str, str], ctm_path: Path) -> str:
    """Word timings of the hypotheses by CTC forced alignment with the same model (pydeid.align.ctc).
    Utterances whose hypothesis cannot be aligned (too short audio for the tokens) get no CTM line."""
    from pydeid.align.ctc import CtcAlignmentError, align_words, load_speech2text
    from pydeid.io import CtmEntry, read_audio, write_ctm
    s2t = load_speech2text(exp, model)
    wav_scp = read_kaldi_map(asr_data / "wav.scp")
    entries, failed = [], []
    for utt, hyp in hyps.items():
        words = hyp.split()
        if not words:
            continue
        wav, _ = read_audio(wav_scp[utt], sr=16000)
        try:
            timed = align_words(s2t, wav, words)
        except CtcAlignmentError as e:
            failed.append(utt)
            log.warning("%s: hypothesis not aligned: %s", utt, e)
            continue
        entries += [CtmEntry(utt, "1", s, round(e - s, 3), w) for w, s, e in timed]
    write_ctm(ctm_path, entries)
    return f"ok ({len(failed)} hypotheses not aligned)" if failed else "ok"


def merge_decode_dirs(out_dir, parts) -> Path:
    """Merge the decode dirs of parallel jobs (text, hyp.ctm, decode_info.json, textnorm.json) into out_dir."""
    from pydeid.io import read_ctm, write_ctm
    out = Path(out_dir)
    hyps, ctm, infos = {}, [], []
    for p in map(Path, parts):
        if not (p / "decode_info.json").exists():
            raise FileNotFoundError(f"{p}: incomplete decoding job (no decode_info.json)")
        hyps.update(read_kaldi_map(p / "text", require_value=False, check_sorted=False))
        if (p / "hyp.ctm").exists():
            ctm += read_ctm(p / "hyp.ctm")
        infos.append(json.loads((p / "decode_info.json").read_text()))
    write_kaldi_map(out / "text", hyps)
    if ctm:
        write_ctm(out / "hyp.ctm", sorted(ctm, key=lambda e: (e.utt, e.start)))
    shutil.copyfile(Path(parts[0]) / "textnorm.json", out / "textnorm.json")
    info = dict(infos[0])
    info["data"] = str(Path(infos[0]["data"]).parent.parent)
    for k in ("num_utts", "audio_seconds", "decode_seconds"):
        info[k] = round(sum(i[k] for i in infos), 2)
    info["rtf"] = round(info["decode_seconds"] / info["audio_seconds"], 3) if info["audio_seconds"] else None
    info["jobs"] = len(infos)
    atomic_write_text(out / "decode_info.json", json.dumps(info, indent=1) + "\n")
    return out



def hyp_data_dir(data, decode_dir, out) -> Path:
    """A data dir whose transcript is the ASR output (seed 004 section 5.2: text transformation and masking run
    on ASR transcriptions): <data>'s audio and speaker tables, text = hypotheses (normalised, e.g. lower case),
    words.ctm = hypothesis word timings. Utterances with an empty hypothesis keep an empty text line."""
    from pydeid.io import DataDir, read_ctm, write_ctm
    d = DataDir.read(data)
    decode_dir, out = Path(decode_dir), Path(out)
    hyps = read_kaldi_map(decode_dir / "text", require_value=False, check_sorted=False)
    missing = [u for u in d.utts if u not in hyps]
    if missing:
        raise ValueError(f"{decode_dir}/text: no hypothesis for {len(missing)} utterances of {data} "
                         f"(e.g. {missing[0]})")
    d.text = {u: " ".join(hyps[u].split()) for u in d.utts}
    d.write(out)
    if (decode_dir / "hyp.ctm").exists():
        write_ctm(out / "words.ctm", [e for e in read_ctm(decode_dir / "hyp.ctm") if e.utt in d.utt2spk])
    return out
