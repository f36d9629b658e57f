"""Build the embedded corpus: speakers, dialogues, synthesis, Kaldi data dirs, enrollment/trial lists.

Layout under out_dir:
  wav/<split>/<spk>/<utt>.wav     16 kHz mono 16-bit
  mini_train mini_dev mini_test   data dirs (wav.scp text utt2spk spk2utt utt2gender spk2gender utt2dur
                                  tags.conll written.conll words.ctm)
  mini_test_enroll mini_test_trial  the test speakers' utterances split for speaker verification
                                  (mini_test_trial/trials: <enroll-speaker> <trial-utt> target|nontarget)
  mini_voices.txt                 the espeak voice and parameters behind each speaker id
  .mini_stamp.json                parameters of the finished build (rerun with the same ones: no-op)

Everything is written into a temp dir inside out_dir and moved into place at the end; the stamp is written
last, so an interrupted build leaves no corpus that looks complete.
"""

from __future__ import annotations

import json
import logging
import multiprocessing as mp
import os
import random
import shutil
import time
from collections import Counter
from pathlib import Path

from . import dialogue as D
from .lexicon import build_pools
from .synth import UttJob, UttResult, Voice, synthesize_dialogue
from .voices import assign_speakers

log = logging.getLogger(__name__)

CORPUS_VERSION = 6  # bump whenever the generated corpus changes
SPLITS = ("train", "dev", "test")
DATA_DIRS = ("mini_train", "mini_dev", "mini_test", "mini_test_enroll", "mini_test_trial")
VOICES_FILE = "mini_voices.txt"
STAMP = ".mini_stamp.json"

SIZES = {
    # tests: seconds to build; still every entity type in train and test, 2+2 test speakers of each gender
    "tiny": dict(n_train_speakers=4, n_dev_speakers=2, n_test_speakers=4, utts_per_speaker=8, n_enroll=2,
                 train_utts_per_speaker=0),
    # the demo recipe (make demo, which also trains ASR twice, NER and x-vector attackers and converts voices on
    # 2 cores): 60 speakers, 576 turns, about 36 minutes of audio. Many training voices with few turns each:
    # for the same training compute the ASR model generalises to unseen voices far better with 48 voices x 8
    # turns than with 16 x 16 (bench/asr_results_mini.md), and the attackers see more speakers.
    "default": dict(n_train_speakers=48, n_dev_speakers=4, n_test_speakers=8, utts_per_speaker=16, n_enroll=3,
                    train_utts_per_speaker=8),
}


def corpus_params(seed: int = 0, size: str = "tiny", **overrides) -> dict:
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; choose from {sorted(SIZES)}")
    p = dict(SIZES[size])
    category_turns = int(overrides.pop("category_turns", 0) or 0)   # seed 004 A.1 turns (categories.py); off
    if category_turns < 0:
        raise ValueError("category_turns must be >= 0")
    if category_turns:                      # only then in the stamp: the default corpus is unchanged
        p["category_turns"] = category_turns
    for k, v in overrides.items():
        if k not in p:
            raise TypeError(f"unknown corpus parameter {k!r}; known: {sorted(p)}")
        if v is not None:
            p[k] = int(v)
    if p["n_test_speakers"] < 2 or p["n_train_speakers"] < 2 or p["n_dev_speakers"] < 1:
        raise ValueError("need >= 2 train, >= 1 dev and >= 2 test speakers")
    if p["train_utts_per_speaker"] < 0:
        raise ValueError("train_utts_per_speaker must be >= 0 (0: utts_per_speaker)")
    if not 1 <= p["n_enroll"] < p["utts_per_speaker"]:
        raise ValueError(f"n_enroll ({p['n_enroll']}) must be >= 1 and leave trial utterances "
                         f"(< utts_per_speaker, {p['utts_per_speaker']})")
    return {"version": CORPUS_VERSION, "espeak": _espeak_version(), "seed": int(seed), "size": size, **p}


def _espeak_version() -> str:
    """The espeakng-loader wheel (another espeak-ng build may speak differently: rebuild)."""
    import ctypes
    from importlib.metadata import PackageNotFoundError, version
    try:
        wheel = "espeakng-loader " + version("espeakng-loader")
    except PackageNotFoundError:
        wheel = "espeakng-loader unknown"
    try:
        import espeakng_loader
        lib = ctypes.cdll.LoadLibrary(espeakng_loader.get_library_path())
        lib.espeak_Info.restype = ctypes.c_char_p
        return f"{wheel} (espeak-ng {lib.espeak_Info(None).decode()})"
    except (ImportError, OSError, AttributeError):
        return wheel


# ---------------------------------------------------------------------------------------------- text
def _plan_split(split: str, voices: list[Voice], n_utts: int, pools, seed: int, attempt: int,
                category_turns: int = 0):
    """Dialogues of one split: [(dialogue id, [(spk, Turn)])]. Every speaker gets n_utts turns."""
    rng = random.Random(f"plan-{seed}-{split}-{attempt}")
    remaining = {v.spk: n_utts for v in voices}
    gender = {v.spk: v.gender for v in voices}
    order = [v.spk for v in voices]
    rng.shuffle(order)
    dialogues = []
    d = 0
    while any(remaining.values()):
        cand = sorted(order, key=lambda s: -remaining[s])
        a = cand[0]
        others = [s for s in cand[1:] if remaining[s] > 0]
        b = others[0] if others else rng.choice([s for s in order if s != a])
        ra, rb = remaining[a], max(remaining[b], 0)
        drng = random.Random(f"dialogue-{seed}-{split}-{attempt}-{d}")
        max_turns = 2 * min(ra, rb) if rb > 0 else 1
        plan = D.dialogue_templates(drng, max(1, max_turns))
        ctx = D.new_context(drng, pools, gender[a], gender[b])
        turns = []
        for role, tpl in plan:
            spk = a if role == "A" else b
            if remaining[spk] <= 0:
                break
            turns.append((spk, D.generate_turn(tpl, role, ctx)))
            remaining[spk] -= 1
        if category_turns:
            from .categories import category_turn
            crng = random.Random(f"categories-{seed}-{split}-{attempt}-{d}")
            for k in range(max(1, len(turns) - category_turns), len(turns)):
                turns[k] = (turns[k][0], category_turn(crng))
        dialogues.append((f"{split[:2]}{d:03d}", turns))
        d += 1
    return dialogues


def _entity_types(dialogues) -> set[str]:
    found = set()
    for _, turns in dialogues:
        for _, t in turns:
            found.update(tag[2:] for tag in t.spoken()[1] if tag != "O")
    return found


def _offsets(text: str, tokens: list[str]) -> list[int]:
    pos, out = 0, []
    for w in tokens:
        i = text.index(w, pos)
        out.append(i)
        pos = i + len(w)
    return out


# ---------------------------------------------------------------------------------------------- synthesis
def _worker(args):
    voices, jobs, seed = args
    return synthesize_dialogue(voices, jobs, seed)


def _run_jobs(tasks, nj: int) -> list[list[UttResult]]:
    """One fresh process per dialogue (see synth.py: espeak state), nj at a time, results in task order."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload(["numpy", "scipy.signal", "soundfile", "pydeid.io", "pydeid.corpora.mini.synth"])
    with ctx.Pool(processes=max(1, nj), maxtasksperchild=1) as pool:
        return pool.map(_worker, tasks, chunksize=1)


# ---------------------------------------------------------------------------------------------- writing
def _write_dir(path: Path, utts: list[str], info: dict) -> None:
    from pydeid.io import CtmEntry, DataDir, Sentence, write_conll, write_ctm
    from pydeid.io.kaldi_map import kaldi_sort_key
    utts = sorted(utts, key=kaldi_sort_key)
    d = DataDir(
        wav_scp={u: info[u]["wav"] for u in utts},
        text={u: " ".join(info[u]["tokens"]) for u in utts},
        utt2spk={u: info[u]["spk"] for u in utts},
        utt2gender={u: info[u]["gender"] for u in utts},
        spk2gender={info[u]["spk"]: info[u]["gender"] for u in utts},
        utt2dur={u: info[u]["dur"] for u in utts},
    )
    d.write(path)
    write_conll(path / "tags.conll", [Sentence(info[u]["tokens"], info[u]["tags"], id=u) for u in utts])
    write_conll(path / "written.conll", [Sentence(info[u]["w_tokens"], info[u]["w_tags"], id=u) for u in utts])
    write_ctm(path / "words.ctm", [CtmEntry(u, "1", s, round(e - s, 3), w)
                                   for u in utts for w, (s, e) in zip(info[u]["tokens"], info[u]["times"])])


def _write_trials(path: Path, enroll_spks: list[str], trial_utts: list[str], utt2spk: dict) -> None:
    from pydeid.io import atomic_write_text
    from pydeid.io.kaldi_map import kaldi_sort_key
    lines = [f"{s} {u} {'target' if utt2spk[u] == s else 'nontarget'}"
             for s in sorted(enroll_spks, key=kaldi_sort_key) for u in sorted(trial_utts, key=kaldi_sort_key)]
    atomic_write_text(path / "trials", "\n".join(lines) + "\n")


def read_stamp(out_dir: Path) -> dict | None:
    try:
        return json.loads((Path(out_dir) / STAMP).read_text())
    except (OSError, ValueError):
        return None


def build_corpus(out_dir, seed: int = 0, size: str = "tiny", nj: int | None = None, **overrides) -> Path:
    """Build (or reuse) the mini corpus in out_dir; returns out_dir.

    overrides: n_train_speakers, n_dev_speakers, n_test_speakers, utts_per_speaker, n_enroll,
    train_utts_per_speaker (turns of each training speaker; 0: utts_per_speaker).
    nj: parallel synthesis processes (default: CPU count, at most 4); the output does not depend on it.
    """
    params = corpus_params(seed, size, **overrides)
    out_dir = Path(out_dir).resolve()
    if any(c.isspace() for c in str(out_dir)):
        raise ValueError(f"{out_dir}: wav.scp holds absolute paths, which must not contain whitespace")
    out_dir.mkdir(parents=True, exist_ok=True)
    old = read_stamp(out_dir)
    if old == params and all((out_dir / n).is_dir() for n in DATA_DIRS + ("wav",)):
        log.info("mini corpus in %s is complete with these parameters; nothing to do", out_dir)
        return out_dir
    if old is None:
        clash = [n for n in DATA_DIRS + ("wav",) if (out_dir / n).exists()]
        if clash:
            raise FileExistsError(f"{out_dir} already holds {clash} but no {STAMP} (not a finished mini corpus); "
                                  f"remove them or choose another directory")
    t0 = time.time()
    nj = nj or min(4, os.cpu_count() or 1)
    tmp = out_dir / f".mini-tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        _build_into(tmp, out_dir, params, nj)
        _check(tmp)
        # move into place; the stamp goes last
        (out_dir / STAMP).unlink(missing_ok=True)
        for name in DATA_DIRS + ("wav", VOICES_FILE):
            if (out_dir / name).is_dir():
                shutil.rmtree(out_dir / name)
            os.replace(tmp / name, out_dir / name)
        from pydeid.io import atomic_write_text
        atomic_write_text(out_dir / STAMP, json.dumps(params, indent=1, sort_keys=True) + "\n")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log.info("mini corpus built in %s (%.1f s)", out_dir, time.time() - t0)
    return out_dir


def _build_into(tmp: Path, final: Path, params: dict, nj: int) -> None:
    seed = params["seed"]
    pools = build_pools(seed)
    spk_by_split = assign_speakers({s: params[f"n_{s}_speakers"] for s in SPLITS}, seed)
    voices = {v.spk: v for vs in spk_by_split.values() for v in vs}
    info: dict[str, dict] = {}
    tasks = []
    split_utts: dict[str, list[str]] = {}
    for split in SPLITS:
        for attempt in range(50):
            n_utts = (params["train_utts_per_speaker"] if split == "train" else 0) or params["utts_per_speaker"]
            dialogues = _plan_split(split, spk_by_split[split], n_utts, pools, seed, attempt,
                                    params.get("category_turns", 0))
            if split == "dev" or _entity_types(dialogues) >= set(D.ENTITY_TYPES):
                break
        else:
            raise RuntimeError(f"could not cover every entity type in {split}; use more utterances per speaker")
        split_utts[split] = []
        for did, turns in dialogues:
            jobs = []
            for i, (spk, turn) in enumerate(turns):
                utt = f"{spk}-{did}-{i:02d}"
                toks, tags = turn.spoken()
                w_toks, w_tags = turn.written()
                text = turn.espeak_text()
                rel = Path("wav") / split / spk / f"{utt}.wav"
                info[utt] = dict(spk=spk, gender=voices[spk].gender, tokens=toks, tags=tags, w_tokens=w_toks,
                                 w_tags=w_tags, wav=str(final / rel))
                jobs.append((spk, UttJob(utt, text, tuple(toks), tuple(_offsets(text, toks)), str(tmp / rel))))
                split_utts[split].append(utt)
            tasks.append(({s: voices[s] for s in {s for s, _ in jobs}}, jobs, seed))
    for results in _run_jobs(tasks, nj):
        for r in results:
            info[r.utt]["dur"] = r.duration
            info[r.utt]["times"] = r.words
    for split in SPLITS:
        _write_dir(tmp / f"mini_{split}", split_utts[split], info)
    # enrollment / trial split of the test speakers
    rng = random.Random(f"enroll-{seed}")
    enroll, trial = [], []
    by_spk: dict[str, list[str]] = {}
    for u in sorted(split_utts["test"]):
        by_spk.setdefault(info[u]["spk"], []).append(u)
    for spk, utts in sorted(by_spk.items()):
        chosen = set(rng.sample(utts, min(params["n_enroll"], len(utts) - 1)))
        enroll += [u for u in utts if u in chosen]
        trial += [u for u in utts if u not in chosen]
    _write_dir(tmp / "mini_test_enroll", enroll, info)
    _write_dir(tmp / "mini_test_trial", trial, info)
    _write_trials(tmp / "mini_test_trial", sorted(by_spk), trial, {u: info[u]["spk"] for u in trial})
    from pydeid.io import atomic_write_text
    lines = ["# speaker split gender espeak-voice rate(wpm) pitch(0-100) range(0-100) wordgap(10ms) gain(dB)"]
    for split in SPLITS:
        for v in spk_by_split[split]:
            lines.append(f"{v.spk} {split} {v.gender} {v.name} {v.rate} {v.pitch} {v.range} {v.wordgap} {v.gain_db}")
    atomic_write_text(tmp / VOICES_FILE, "\n".join(lines) + "\n")


def _check(root: Path) -> None:
    """Self-check before the corpus goes into place: valid data dirs, tags and CTM words equal to the text."""
    from pydeid.io import ctm_by_utt, read_conll, read_ctm, read_kaldi_map, validate_data_dir
    for name in DATA_DIRS:
        d = root / name
        validate_data_dir(d)  # audio paths point to the final location: opened by the tests, not here
        text = {u: t.split() for u, t in read_kaldi_map(d / "text").items()}
        tags = {s.id: s.tokens for s in read_conll(d / "tags.conll")}
        ctm = {u: [e.token for e in es] for u, es in ctm_by_utt(read_ctm(d / "words.ctm")).items()}
        if tags != text or ctm != text:
            raise RuntimeError(f"{name}: tags.conll or words.ctm disagree with text (a bug in the generator)")


def corpus_stats(out_dir) -> dict:
    """Utterances, hours, speakers (by gender) and entity spans per type, per data dir."""
    from pydeid.io import DataDir, bio_to_spans, read_conll
    stats = {}
    for name in DATA_DIRS:
        d = DataDir.read(Path(out_dir) / name, validate=False)
        ents = Counter()
        for s in read_conll(Path(out_dir) / name / "tags.conll"):
            ents.update(t for _, _, t in bio_to_spans(s.tags))
        g = Counter(d.spk2gender.values()) if d.spk2gender else Counter()
        stats[name] = dict(utts=len(d.utt2spk), hours=round(sum(d.utt2dur.values()) / 3600, 4),
                           speakers=len(d.spk2utt), male=g.get("m", 0), female=g.get("f", 0),
                           words=sum(len(t.split()) for t in d.text.values()),
                           entities={t: ents.get(t, 0) for t in D.ENTITY_TYPES})
    return stats


__all__ = ["build_corpus", "corpus_params", "corpus_stats", "read_stamp", "SIZES", "DATA_DIRS"]
