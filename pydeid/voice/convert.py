"""Data-dir level voice conversion: plan (draw targets/parameters: a secret), convert (per utterance, resumable,
atomic), assemble (the output data dir). The CLI `pydeid transform-voice` and steps/transform_voice.sh call these.

Randomness never depends on job split or order: every draw comes from a generator seeded by (seed, key) with key
the utterance id (strategy 3 and per-utterance parameters), the speaker id (strategy 2) or a constant (strategy 1).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import sys
from functools import partial
from pathlib import Path


from pydeid.io import DataDir, FormatError, read_secret_json, write_audio, write_secret_json

from .common import rng_for
from .target_draws import assign_target, assign_targets  # noqa: F401  (re-exported: the strategies' draws)
from . import registry
from .vtln import build_vtln_params
from .world import WorldConfig

log = logging.getLogger(__name__)

# Files of a data dir bound to the original audio: never carried into the converted corpus.
AUDIO_BOUND = {"wav.scp", "segments", "reco2dur", "reco2file_and_channel", "feats.scp", "cmvn.scp", "utt2num_frames",
               "frame_shift", "spk2utt"}
PLAN_NAME = "voice_plan.json"
POOL_NAME = "vtln_targets.npz"
FRAME_POOL_NAME = "frame_pool.npz"   # frame selection's matching set, next to POOL_NAME


# ---- target pool and strategies ---------------------------------------------------------------------------------
def choose_pool(speakers, max_targets: int, seed: int) -> list[str]:
    """At most max_targets speakers drawn uniformly at random (seeded), returned sorted."""
    spks = sorted(speakers)
    n = min(max_targets, len(spks))
    idx = rng_for(seed, "pool").choice(len(spks), n, replace=False)
    return sorted(spks[i] for i in idx)


TARGET_GENDERS = ("same", "any")


def speaker_genders(data: DataDir) -> dict[str, str]:
    """speaker -> gender from spk2gender, else from utt2gender (a speaker's first utterance); may be empty."""
    if data.spk2gender:
        return dict(data.spk2gender)
    if data.utt2gender:
        out: dict[str, str] = {}
        for utt in data.utts:
            if utt in data.utt2gender:
                out.setdefault(data.utt2spk[utt], data.utt2gender[utt])
        return out
    return {}


def build_vtln_pool(target_data: str | os.PathLike, max_targets: int, seed: int, k: int, world: WorldConfig,
                    max_utts: int = 20, progress: bool = False, phones=None):
    """phones: (PhoneAlignment of target_data, min_frames): phone-class models (pydeid.voice.vtln.phone_classes)."""
    from .vtln import VtlnTargets, speaker_model
    from .world import analyze
    d = DataDir.read(target_data)
    pool = choose_pool(d.speakers, max_targets, seed)
    spk2utt = d.spk2utt
    if phones is not None:
        phones[0].check_covers([u for spk in pool for u in spk2utt[spk][:max_utts]])
    models = {}
    for spk in _progress(pool, progress, "target speakers"):
        utts = spk2utt[spk][:max_utts]
        feats = (analyze(d.load_audio(u), 16000, world) for u in utts)
        if phones is not None:
            from .vtln.phone_classes import phone_speaker_model
            ali, min_frames = phones
            pairs = ((f, ali.frame_classes(u, len(f.f0), world.frame_period)) for u, f in zip(utts, feats))
            try:
                models[spk] = phone_speaker_model(pairs, min_frames)
            except ValueError as e:
                raise FormatError(Path(target_data) / "utt2spk", None, f"target speaker '{spk}': {e}") from None
        else:
            models[spk] = speaker_model(feats, k=k, seed=int(rng_for(seed, "kmeans", spk).integers(2 ** 31)))
    if phones is not None:
        from .vtln.phone_classes import K
        return VtlnTargets(models, K, world, classes="phones")
    return VtlnTargets(models, k, world)


def f0_track(wav, world: WorldConfig):
    """F0 only (the plan's estimator and options, pydeid.voice.world.f0_track): cheaper than a full analysis."""
    from .world import f0_track as track
    return track(wav, 16000, world)[0]


def speaker_log_f0(d: DataDir, utts: list[str], world: WorldConfig, what: str,
                   keep: dict | None = None) -> list[float]:
    """[mean, std] of log F0 over `utts`; `keep` (a dict) receives each utterance's F0 track, so that a
    conversion of the same utterances need not estimate it again."""
    from .common import log_f0_stats
    tracks = {u: f0_track(d.load_audio(u), world) for u in utts}
    if keep is not None:
        keep.update(tracks)
    try:
        return list(log_f0_stats(list(tracks.values())))
    except ValueError as e:
        raise FormatError(d.path / "utt2spk" if d.path else None, None, f"{what}: {e}") from None


def build_pitch_pool(target_data, max_targets: int, seed: int, world: WorldConfig, max_utts: int = 20) -> dict:
    """VoiceMask pitch_mode target: {pool speaker: [mean, std] of log F0} (pool drawn as for VTLN)."""
    d = DataDir.read(target_data)
    spk2utt = d.spk2utt
    return {spk: speaker_log_f0(d, spk2utt[spk][:max_utts], world, f"target speaker '{spk}'")
            for spk in choose_pool(d.speakers, max_targets, seed)}


def pool_key(target_data, max_targets: int, seed: int, k: int, world: WorldConfig, phones=None) -> dict:
    """What a VTLN target pool depends on: the target data (its path and audio list), seed, -T, k, WORLD; with
    phone classes (phones: (phone CTM path, min_frames)) also the CTM's content and the back-off threshold."""
    d = Path(target_data).resolve()
    scp = (d / "wav.scp").read_bytes()
    key = {"target_data": str(d), "wav_scp_sha1": hashlib.sha1(scp).hexdigest(), "max_targets": int(max_targets),
           "seed": int(seed), "k": int(k), "world": [world.f0_method, float(world.frame_period),
                                                       world.fft_size or 0]}
    if world.extras():   # options beyond the legacy three (absent at their defaults: old shared pools still match)
        key["world_extras"] = world.extras()
    if phones is not None:
        key.update(classes="phones", phone_ctm_sha1=hashlib.sha1(Path(phones[0]).read_bytes()).hexdigest(),
                   phone_min_frames=int(phones[1]), unvoiced_classes=1)   # models with unvoiced class spectra
    return key


def frame_pool_key(td, speakers: list[str], params, world: WorldConfig, phone_ctm=None) -> dict:
    """What frame selection's matching set depends on: the target data's audio (pydeid.io.fingerprint), the pool
    speakers, the frame features and WORLD settings, and (match segments) the target alignment's content."""
    from pydeid.io.fingerprint import audio_fingerprint, file_sha
    p = params
    key = {"method": "frame_select", "target_data": str(Path(td.path).resolve()), "audio": audio_fingerprint(td),
           "speakers": list(speakers), "max_utts": p.max_utts, "n_mcep": p.n_mcep, "n_content": p.n_content,
           "delta_weight": float(p.delta_weight), "content": p.content, "whisper_model": p.whisper_model,
           "whisper_weight": float(p.whisper_weight), "ap_bands": p.ap_bands, "match": p.match,
           "world": [world.f0_method, float(world.frame_period), world.fft_size or 0], "world_extras": world.extras()}
    if phone_ctm is not None:
        key["phone_ctm"] = file_sha(phone_ctm)
    return key


def shared_pool_matches(pool_file, key: dict) -> bool:
    meta = Path(f"{pool_file}.json")
    return Path(pool_file).exists() and meta.exists() and json.loads(meta.read_text()) == key


def copy_pool(src, dst) -> None:
    from pydeid.io.datadir import copy_file_atomic
    copy_file_atomic(Path(src), Path(dst))


def share_pool(pool_path, pool_file, key: dict) -> None:
    """Publish a freshly built pool for later runs: the pool first, its key last (a pool without a matching
    key is never reused)."""
    from pydeid.io import atomic_write_text
    Path(pool_file).parent.mkdir(parents=True, exist_ok=True)
    copy_pool(pool_path, pool_file)
    atomic_write_text(f"{pool_file}.json", json.dumps(key, indent=1) + "\n")


def _progress(it, enabled: bool, desc: str):
    if not enabled:
        return it
    from tqdm import tqdm
    return tqdm(it, desc=desc)


def show_progress() -> bool:
    return sys.stderr.isatty()


# ---- plan ---------------------------------------------------------------------------------------------------------
def make_plan(data: DataDir, method: str, strategy: int, seed: int, method_params: dict, pool: list[str] | None,
              previous: dict | None = None, pool_genders: dict[str, str] | None = None,
              target_gender: str = "any") -> dict:
    """Per-utterance draws (targets, warping/pitch/McAdams parameters). `previous`: a reused plan (--targets-file).

    vtln, target_gender "same": each source speaker's targets come from the pool speakers of his gender
    (`pool_genders`); a speaker of unknown gender, or a pool without genders, draws from the whole pool and is
    counted in plan["target_gender_fallback"]."""
    m = registry.get(method)   # ValueError for an unknown name
    if target_gender not in TARGET_GENDERS:
        raise ValueError(f"unknown target gender rule '{target_gender}' (allowed: {', '.join(TARGET_GENDERS)})")
    src_genders = speaker_genders(data) if m.gendered and target_gender == "same" else {}
    fallback: set[str] = set()
    prev_utt = (previous or {}).get("utt", {})
    prev_spk = (previous or {}).get("spk2target", {})
    plan = {"method": method, "strategy": strategy, "seed": seed, "params": method_params, "utt": {},
            "spk2target": {}}
    params = m.build(**method_params)
    if m.speaker_targets or (m.pitch_pool(params) and pool):
        plan["target_gender"] = target_gender
    for utt in data.utts:
        spk = data.utt2spk[utt]
        if utt in prev_utt:
            plan["utt"][utt] = prev_utt[utt]
            if "target" in prev_utt[utt] and strategy in (1, 2):
                plan["spk2target"].setdefault(spk, prev_utt[utt]["target"])
            continue
        rng = rng_for(seed, method, "utt", utt)
        if not m.speaker_targets:
            entry = m.draw(params, rng)
            if m.frame_pool is not None:   # the target voice(s) by the method's target_selection
                from . import target_selection
                if not pool:
                    raise FormatError(None, None, f"{method} needs a target pool (--target-data)")
                g = src_genders.get(spk) if pool_genders else None
                if target_gender == "same" and (g is None or not any(pool_genders.get(t) == g for t in pool)):
                    fallback.add(spk)
                    g = None
                entry["targets"] = target_selection.select(params.target_selection, pool, seed, spk, utt, g,
                                                           pool_genders, params.pool_voices)
            if m.pitch_pool(params):   # the log-F0 statistics of a target speaker (voicemask pitch_mode target)
                if not pool:
                    raise FormatError(None, None, f"{method} pitch_mode target needs a target pool (--target-data)")
                g = src_genders.get(spk) if pool_genders else None
                if target_gender == "same" and g is None:
                    fallback.add(spk)
                entry["target"] = assign_target(3 if strategy not in (1, 2) else strategy, pool, seed, spk, utt,
                                                g, pool_genders)
        else:   # a target speaker (or several) per strategy, then the method's own draws
            g = src_genders.get(spk)
            if target_gender == "same" and (g is None or not pool_genders
                                            or not any(pool_genders.get(t) == g for t in pool or [])):
                fallback.add(spk)
                g = None
            if strategy in (1, 2) and spk in prev_spk:
                entry = {"target": prev_spk[spk]}
            elif strategy == 1 and previous and previous.get("spk2target"):
                # the fixed target of the reused plan (of this speaker's gender when the rule is "same")
                prev_targets = list(previous["spk2target"].values())
                same = [t for t in prev_targets if g is not None and (pool_genders or {}).get(t) == g]
                entry = {"target": (same or prev_targets)[0]}
            else:
                entry = {"target": assign_target(strategy, pool, seed, spk, utt, g, pool_genders)}
            if strategy in (1, 2):
                plan["spk2target"].setdefault(spk, entry["target"])
            if params.n_average > 1:
                entry["targets"] = assign_targets(params.n_average, strategy, pool, seed, spk, utt, g, pool_genders,
                                                  first=entry["target"])
            entry.update(m.draw(params, rng))
        plan["utt"][utt] = entry
    if fallback:
        plan["target_gender_fallback"] = len(fallback)
        log.warning("target gender 'same': %d speakers of unknown gender (or none in the pool) draw from the whole "
                    "pool", len(fallback))
    if pool is not None:
        missing = sorted({t for e in plan["utt"].values() for t in e.get("targets", [e.get("target")])
                          if t is not None} - set(pool))
        if missing:
            raise FormatError(None, None, f"reused mapping names target speakers absent from the pool: {missing[:5]}")
    return plan


# ---- convert ------------------------------------------------------------------------------------------------------
def wav_path(wav_dir: Path, utt: str) -> Path:
    if "/" in utt or utt.startswith("."):
        raise FormatError(None, None, f"utterance id '{utt}' cannot name a file")
    return wav_dir / f"{utt}.wav"


def convert_utterances(full: DataDir, utts: list[str], plan: dict, wav_dir: Path, world: WorldConfig,
                       pool_path: Path | None = None, resume: bool = False, max_fit_utts: int = 30,
                       progress: bool = False, cache_bytes: int = 512 * 2 ** 20, phones=None) -> dict:
    """Convert `utts` of `full` (the whole input data dir, so a speaker's fit never depends on the job split).

    vtln: convert_vtln_outputs() with this one output (the fit's WORLD analyses serve the conversions too).

    Returns counts {"converted", "skipped"}. Each output is written atomically, so a killed job leaves complete
    files only and --resume (resume=True) skips them.
    """
    method = plan["method"]
    m = registry.get(method)
    if m.speaker_targets:
        return convert_vtln_outputs(full, utts, [(plan, wav_dir, pool_path)], resume=resume,
                                    max_fit_utts=max_fit_utts, progress=progress, cache_bytes=cache_bytes,
                                    phones=phones)
    wav_dir.mkdir(parents=True, exist_ok=True)
    todo_by_spk: dict[str, list[str]] = {}
    skipped = 0
    for u in sorted(utts):
        if resume and wav_path(wav_dir, u).exists():
            skipped += 1
            continue
        todo_by_spk.setdefault(full.utt2spk[u], []).append(u)
    n_todo = sum(map(len, todo_by_spk.values()))
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=n_todo, desc=f"transform-voice ({method})", unit="utt")
    params = m.build(**plan["params"])
    if m.frame_pool is not None:
        try:
            tr = m.transformer(params, world, pool_path=Path(pool_path).parent / FRAME_POOL_NAME)
        except (OSError, ValueError) as e:
            raise FormatError(Path(pool_path).parent / FRAME_POOL_NAME, None, str(e)) from None
    else:
        tr = m.transformer(params, world)
    done = 0
    pitch_target = m.pitch_pool(params)
    spk2utt = full.spk2utt if pitch_target else {}
    for spk, spk_utts in todo_by_spk.items():
        tracks: dict = {}   # the F0 tracks of the speaker's statistics, reused by the conversions (one estimate)
        src_f0 = speaker_log_f0(full, spk2utt[spk][:max_fit_utts], world, f"source speaker '{spk}'", keep=tracks) \
            if pitch_target else None
        for u in spk_utts:
            draw = plan["utt"][u]
            if pitch_target:
                draw = dict(draw, source_log_f0=src_f0, target_log_f0=plan["target_log_f0"][draw["target"]])
                y = tr.transform(full.load_audio(u), 16000, draw=draw, f0=tracks.pop(u, None))
            else:
                extra = {}
                if m.frame_pool is not None and m.phone_classes(plan["params"]):   # match segments: the frames' phones
                    # (none given: the transformer refuses in one line naming --ali-dir)
                    extra["phones"] = None if phones is None else partial(phones.frame_phones, u, world.frame_period)
                try:
                    y = tr.transform(full.load_audio(u), 16000, draw=draw, **extra)
                except ValueError as e:   # e.g. a plan naming a target the pool lacks
                    raise FormatError(wav_path(wav_dir, u), None, f"{method}: {e}") from None
            write_audio(wav_path(wav_dir, u), y, 16000)
            done += 1
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    log.info("converted %d utterances, skipped %d already written", done, skipped)
    return {"converted": done, "skipped": skipped}


def _speaker_fit_features(full: DataDir, fit_utts: list[str], world: WorldConfig, budget: int) -> dict | None:
    """{utt: WorldFeatures} of a speaker's fit utterances, or None when they would exceed `budget` bytes."""
    from .world import analyze
    if budget <= 0:
        return None
    feats, used = {}, 0
    for u in fit_utts:
        f = analyze(full.load_audio(u), 16000, world)
        used += f.sp.nbytes + f.ap.nbytes + f.f0.nbytes
        if used > budget:
            return None
        feats[u] = f
    return feats


def _frame_classes(phones, utt: str, feats):
    """The phone class of every WORLD frame of `feats` (utterance `utt`), from the set's PhoneAlignment."""
    return phones.frame_classes(utt, len(feats.f0), feats.frame_period)


def convert_vtln_outputs(full: DataDir, utts: list[str], outputs: list[tuple[dict, Path, Path]],
                         resume: bool = False, max_fit_utts: int = 30, progress: bool = False,
                         cache_bytes: int = 512 * 2 ** 20, phones=None) -> dict:
    """VTLN conversion of `utts` into several outputs in one pass: [(plan, wav_dir, pool_path)], e.g. target
    strategies 1/2/3 or the draws of other seeds for the same input. Every utterance is analysed once for all
    outputs (the WORLD analysis is ~2/3 of a conversion) and each output's audio is bit-identical to a run
    of that output alone. Returns counts {"converted", "skipped"} over all outputs. phones: the
    phone_classes.PhoneAlignment of `full` (outputs with classes phones)."""
    from .vtln import VtlnTargets, VtlnTransformer
    from .world import analyze
    trs, world = [], None
    for plan, wav_dir, pool_path in outputs:
        if not registry.get(plan["method"]).speaker_targets:
            raise FormatError(pool_path, None, f"a plan for {plan['method']}: only vtln outputs share one pass")
        targets = VtlnTargets.load(pool_path)
        if world not in (None, targets.world):
            raise FormatError(pool_path, None, "outputs converted in one pass must share their WORLD settings")
        world = targets.world
        wav_dir.mkdir(parents=True, exist_ok=True)
        try:
            trs.append(VtlnTransformer(targets, params=build_vtln_params(**plan.get("params", {}))))
        except ValueError as e:
            raise FormatError(pool_path, None, str(e)) from None
        if trs[-1].params.classes == "phones" and phones is None:
            raise FormatError(pool_path.parent, None, "its plan has phone classes: give the phone alignment of the "
                                                      "input (--ali-dir)")
    if phones is not None:
        phones.check_covers(utts)
    todo: dict[str, dict[str, list[int]]] = {}
    skipped = 0
    for plan, _, pool_path in outputs:
        missing = [u for u in utts if u not in plan["utt"]]
        if missing:
            raise FormatError(pool_path.parent, None, f"its plan has no draw for {len(missing)} utterance(s) of this "
                              f"input (e.g. {missing[0]}): plan every output on the same data dir")
    for u in sorted(utts):
        need = [j for j, (_, wav_dir, _) in enumerate(outputs) if not (resume and wav_path(wav_dir, u).exists())]
        skipped += len(outputs) - len(need)
        if need:
            todo.setdefault(full.utt2spk[u], {})[u] = need
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=sum(len(v) for d in todo.values() for v in d.values()), desc="transform-voice (vtln)",
                   unit="utt")
    done = 0
    spk2utt = full.spk2utt
    for spk, need_by_utt in todo.items():
        fit_utts = spk2utt[spk][:max_fit_utts]
        fit = _speaker_fit_features(full, fit_utts, world, cache_bytes)
        for j in sorted({j for js in need_by_utt.values() for j in js}):
            seed = int(rng_for(outputs[j][0]["seed"], "kmeans", spk).integers(2 ** 31))
            feats = fit.values() if fit is not None else \
                (analyze(full.load_audio(u), 16000, world) for u in fit_utts)
            labels = None
            if trs[j].params.classes == "phones":   # per fit utterance: its frames' phone classes
                labels = [partial(_frame_classes, phones, u) for u in fit_utts]
            try:
                trs[j].fit_features(iter(feats), seed=seed, labels=labels)
            except ValueError as e:
                raise FormatError(full.path / "utt2spk" if full.path else None, None,
                                  f"cannot model source speaker '{spk}' for vtln: {e}") from None
        for u, js in need_by_utt.items():
            wav = full.load_audio(u)
            feats = fit[u] if fit is not None and u in fit else analyze(wav, 16000, world)
            for j in js:
                plan, wav_dir, _ = outputs[j]
                e = plan["utt"][u]
                lab = _frame_classes(phones, u, feats) if trs[j].params.classes == "phones" else None
                y = trs[j].transform_features(feats, e.get("targets", e["target"]), wav, e.get("warp_shift", 0.0),
                                              e.get("pitch_shift", 0.0), labels=lab,
                                              ss_seed=e.get("ss_seed"))
                write_audio(wav_path(wav_dir, u), y, 16000)
                done += 1
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
    log.info("converted %d utterance outputs (%d outputs in one pass), skipped %d already written", done,
             len(outputs), skipped)
    return {"converted": done, "skipped": skipped}


# ---- assemble -----------------------------------------------------------------------------------------------------
def assemble(in_dir: Path, out_dir: Path, wav_dir: Path) -> DataDir:
    """Write the converted data dir: new wav.scp (absolute paths), other files carried over unchanged.

    Refuses to finish if an utterance has no converted audio or if any output file still names original audio.
    """
    full = DataDir.read(in_dir)
    wav_dir = wav_dir.resolve()
    for tmp in wav_dir.glob(".*.tmp"):       # temp files of writers killed mid-write
        tmp.unlink()
    missing = [u for u in full.utts if not wav_path(wav_dir, u).is_file()]
    if missing:
        raise FormatError(wav_dir, None, f"{len(missing)} utterances have no converted audio (e.g. {missing[0]}); "
                                         f"rerun the conversion with --resume")
    out_dir.mkdir(parents=True, exist_ok=True)
    out = DataDir(wav_scp={u: str(wav_path(wav_dir, u)) for u in full.utts}, text=full.text,
                  utt2spk=full.utt2spk, utt2gender=full.utt2gender, spk2gender=full.spk2gender,
                  utt2dur=full.utt2dur)
    out.write(out_dir)
    for name in AUDIO_BOUND - {"wav.scp", "spk2utt"}:
        (out_dir / name).unlink(missing_ok=True)
    # then every other file byte for byte (text, utt2spk, tags.conll, words.ctm, trials, ...)
    for f in sorted(Path(in_dir).iterdir()):
        if f.is_file() and f.name not in AUDIO_BOUND and not f.name.startswith("."):
            shutil.copyfile(f, out_dir / f.name)
    check_no_original_paths(full, out_dir)
    return out


def original_audio_paths(d: DataDir) -> set[str]:
    """Every file path named by a wav.scp value (plain paths, ark files, and path-like words of pipe commands)."""
    paths = set()
    for v in d.wav_scp.values():
        v = v.strip()
        if v.endswith("|"):
            paths.update(w for w in v[:-1].split() if "/" in w)
        else:
            paths.add(v.rsplit(":", 1)[0] if ".ark:" in v else v)
    return {p for p in paths if p}


def check_no_original_paths(src: DataDir, out_dir: Path) -> None:
    paths = original_audio_paths(src)
    resolved = {str(Path(p).resolve()) for p in paths if not p.startswith("-")}
    for f in sorted(out_dir.iterdir()):
        if not f.is_file():
            continue
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for p in paths | resolved:
            if len(p) > 3 and p in text:
                raise FormatError(f, None, f"converted corpus still names original audio '{p}'")


# ---- secrets -----------------------------------------------------------------------------------------------------
def save_plan(plan: dict, path: Path, out_dir: Path, wav_dir: Path) -> Path:
    return write_secret_json(path, plan, forbidden_dirs=[out_dir, wav_dir])


def load_plan(path: Path) -> dict:
    try:
        return read_secret_json(path)
    except (OSError, ValueError) as e:
        raise FormatError(path, None, f"cannot read the voice plan/targets file: {e}") from None
