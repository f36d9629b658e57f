"""VerbMobil (BAS edition, English turns) -> Kaldi data dirs train/dev/test, plus a report of what was skipped.

Files are found by a recursive walk of the corpus roots and matched by turn id, whatever the layout (CD
volumes VM<n>.x/{data,par,trl,spr} or CLARIN <dialogue>/<turn>.{par,wav}; 5- or 6-char dialogue folders).
A turn needs a signal and a transcription: the ORT tier of its .par joined by word index (text_source
"auto"/"par"), else its body in a .trl file ("auto"/"trl"). Turns tagged German/Japanese (id suffix on the
.par or the signal, or a .trl language mark) or whose words are mostly German function words are excluded.

Outputs under out_dir:
  train/ dev/ test/    wav.scp text utt2spk spk2utt utt2dur [segments] [utt2gender spk2gender] utt2subset
                       spk2subset utt2dialogue
  local/verbmobil/     report.txt (counts, every skip reason, unconfirmed-format notes), turns.tsv (every turn
                       found: status and reason), dialogue2set, spk2set, non_linguistic_symbols.txt, wav/
                       (converted legacy signals)
Utterance ids are `<fixed speaker id>_<turn id>`, e.g. QQAVMX_z901axc0_000_QQA.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pydeid.io import DataDir, FormatError, Segment, atomic_write_text, kaldi_sort_key, write_kaldi_map

from pydeid.io import write_datadir_atomic
from .bpf import read_par
from .cleaner import MARKERS, clean_transliteration
from .signals import SignalError, index_signals, list_corpus_files, resolve
from .speakers import (base_code, collect_speaker_info, fix_speaker_id, part_of_volume, read_dialogue_volumes,
                       read_set_lists, volume_from_path)
from .split import Dialogue, SplitRules, assign_split, domain_of, subset_labels
from .trl import TrlTurn, read_trl
from .turnid import TurnId, parse_turn_id

log = logging.getLogger(__name__)
SETS = ("train", "dev", "test")
_GERMAN_WORDS = {"ich", "und", "der", "das", "nicht", "ist", "wir", "sie", "ja", "gut", "dann", "mit", "wie",
                 "auch", "noch", "aber", "uns", "zu", "den", "dem", "ein", "eine", "vielleicht", "haben", "habe",
                 "gerne", "später", "wäre", "geht", "doch", "schon", "mal", "bitte", "danke", "oder", "wenn",
                 "nein", "genau", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "uhr", "würde"}


@dataclass
class PrepOptions:
    markers: str = "keep"             # keep: <hes> <noise> <laugh> <unk> tokens in text; drop: words only
    letters: str = "lower"            # spelled letters $A -> "a" (lower) or "A." (dotted)
    case: str = "keep"                # keep | upper | lower (words only)
    text_source: str = "auto"         # auto (ORT, else .trl) | par | trl
    skip_malformed: bool = False      # a malformed .par/.trl stops the prep (file:line) unless True
    dedupe_channels: bool = True      # one signal per (dialogue, turn index, speaker) when several channels exist
    dialogue_volumes: Path | None = None
    native_table: Path | None = None
    rules: SplitRules = field(default_factory=SplitRules)


@dataclass
class Turn:
    tid: TurnId
    utt: str = ""
    speaker: str = ""
    status: str = "kept"
    reason: str = ""
    text: str = ""
    source: str = ""
    volume: int | None = None
    part: str | None = None
    spec: str = ""
    reco: str | None = None
    start: float | None = None
    end: float | None = None
    duration: float = 0.0
    flags: list[str] = field(default_factory=list)
    set: str = ""


@dataclass
class PrepResult:
    turns: dict[str, Turn]
    dialogue2set: dict[str, str]
    counts: Counter
    markup: Counter
    notes: list[str]
    sets: dict[str, DataDir]

    def kept(self, set_name: str | None = None) -> list[Turn]:
        return [t for t in self.turns.values() if t.status == "kept" and (set_name is None or t.set == set_name)]


def _skip(turn: Turn, status: str, reason: str) -> None:
    turn.status, turn.reason = status, reason


def _looks_german(words: list[str]) -> bool:
    low = [w.lower() for w in words]
    hits = sum(1 for w in low if w in _GERMAN_WORDS)
    return hits >= 2 and hits * 2 > len(low)


def prepare_verbmobil(roots: list[str | Path], out_dir: str | Path, opts: PrepOptions | None = None) -> PrepResult:
    opts = opts or PrepOptions()
    roots = [Path(r).resolve() for r in roots]
    for r in roots:
        if not r.is_dir():
            raise FormatError(r, None, "VerbMobil corpus root is not a directory")
    out_dir = Path(out_dir)
    local = out_dir / "local" / "verbmobil"
    conv_dir = local / "wav"
    notes: list[str] = []
    counts: Counter = Counter()
    markup: Counter = Counter()

    files = list_corpus_files(roots)
    pars: dict[str, Path] = {}
    par_lang: dict[str, str | None] = {}
    trl_turns: dict[str, TrlTurn] = {}
    for f in files:
        low = f.name.lower()
        if low.endswith(".par"):
            tid = parse_turn_id(f.stem)
            if tid is None:
                notes.append(f"{f}: .par name is not a turn id, ignored")
                counts["par-name-not-a-turn-id"] += 1
                continue
            if tid.base in pars:
                notes.append(f"{f}: second .par for turn {tid.base} (first: {pars[tid.base]}), ignored")
                counts["duplicate-par"] += 1
                continue
            pars[tid.base], par_lang[tid.base] = f, tid.lang
        elif re.search(r"\.trl\d*$", low):
            try:
                trl = read_trl(f)
            except FormatError as e:
                if not opts.skip_malformed:
                    raise
                notes.append(f"skipped malformed transliteration: {e}")
                counts["malformed-trl"] += 1
                continue
            counts["trl-header-lines-skipped"] += trl.skipped_header_lines
            for base, t in trl.turns.items():
                if base in trl_turns:
                    notes.append(f"{t.path}:{t.line}: turn {base} also in {trl_turns[base].path}, ignored")
                    counts["duplicate-trl-turn"] += 1
                    continue
                trl_turns[base] = t
    sig_index, sig_problems = index_signals(files)
    notes += sig_problems
    set_vol, set_part = read_set_lists([f for f in files if re.match(r"^VM[12]_(TRAIN|DEV|TEST)$", f.name)])
    user_vol = read_dialogue_volumes(opts.dialogue_volumes) if opts.dialogue_volumes else {}
    spk_info = collect_speaker_info(files, opts.native_table)
    notes += spk_info.notes
    counts["par-files"] = len(pars)
    counts["trl-turns"] = len(trl_turns)
    counts["signals"] = sum(len(v) for v in sig_index.values())

    turns: dict[str, Turn] = {}
    for base in sorted(set(pars) | set(trl_turns)):
        tid = parse_turn_id(base)
        turn = Turn(tid=tid)
        turns[base] = turn
        sigs = sig_index.get(base, [])
        langs = {par_lang.get(base), trl_turns[base].lang if base in trl_turns else None} | {s.lang for s in sigs}
        foreign = sorted(lang for lang in langs if lang in ("GER", "JAP"))
        if foreign:
            _skip(turn, "excluded", f"language {'/'.join(foreign)}")
            continue
        par = None
        if base in pars:
            try:
                par = read_par(pars[base])
            except FormatError as e:
                if not opts.skip_malformed:
                    raise
                _skip(turn, "skipped", f"malformed .par: {e}")
                continue
        ort = par.tier_text("ORT") if par is not None else None
        body, source = None, ""
        if ort and opts.text_source in ("auto", "par"):
            body, source = " ".join(ort), f"{pars[base].name}:ORT"
        elif base in trl_turns and opts.text_source in ("auto", "trl"):
            t = trl_turns[base]
            body, source = t.body, f"{t.path.name}:{t.line}"
        if body is None:
            _skip(turn, "skipped", "no transcription (no ORT tier, no .trl turn)")
            continue
        if par is not None and par.speaker and par.speaker != tid.speaker:
            notes.append(f"{pars[base]}: SPN {par.speaker} differs from the file name's speaker {tid.speaker}; "
                         f"the file name is used")
            counts["spn-mismatch"] += 1
        cleaned = clean_transliteration(body, markers=opts.markers, letters=opts.letters, case=opts.case)
        markup.update(cleaned.counts)
        turn.flags, turn.source = cleaned.flags, source
        if cleaned.n_words == 0:
            _skip(turn, "skipped", "marker-only turn (no word left after cleaning)")
            continue
        words = [w for w in cleaned.tokens if w not in MARKERS]
        if _looks_german(words):
            _skip(turn, "excluded", "German text (function words) without a language tag")
            continue
        turn.text = cleaned.text
        if not sigs:
            _skip(turn, "skipped", "missing signal")
            continue
        sig = sorted(sigs, key=lambda s: ({"turnfile": 0, "marked": 1, "phondat": 2}[s.kind], str(s.path)))[0]
        where = [p for p in (pars.get(base), sig.path, trl_turns[base].path if base in trl_turns else None) if p]
        vols = {v for v in (volume_from_path(p) for p in where) if v is not None}
        turn.volume = (min(vols) if vols else None) or set_vol.get(base) or user_vol.get(tid.dialogue)
        if len(vols) > 1:
            notes.append(f"turn {base}: files in several volumes {sorted(vols)}; using {turn.volume}")
        turn.part = set_part.get(base) or part_of_volume(turn.volume)
        turn.speaker = fix_speaker_id(tid.speaker, turn.part, tid.dialogue)
        if tid.speaker in ("CAC", "JDH", "NKH", "RGM") and turn.part is None:
            notes.append(f"turn {base}: speaker {tid.speaker} needs VM1/VM2 but the volume is unknown; "
                         f"suffixed VMX")
            counts["ambiguous-speaker-without-part"] += 1
        turn.utt = f"{turn.speaker}_{base}"
        try:
            r = resolve(sig, turn.utt, conv_dir, par.sample_rate if par is not None else None)
        except SignalError as e:
            _skip(turn, "skipped", f"unreadable signal: {e}")
            continue
        if par is not None and par.sample_rate and par.sample_rate != r.rate:
            notes.append(f"{pars[base]}: SAM {par.sample_rate} but the signal header says {r.rate}; header used")
            counts["rate-mismatch"] += 1
        counts["signals-converted"] += int(r.converted)
        turn.spec, turn.reco, turn.start, turn.end, turn.duration = r.spec, r.reco, r.start, r.end, r.duration
    for base in sorted(set(sig_index) - set(turns)):
        counts["signal-without-transcription"] += 1

    if opts.dedupe_channels:
        seen: dict[tuple, str] = {}
        for base, t in sorted(turns.items()):
            if t.status != "kept":
                continue
            key = (t.tid.dialogue, t.tid.index, t.speaker)
            if key in seen:
                _skip(t, "skipped", f"another channel of turn {seen[key]}")
            else:
                seen[key] = base

    dialogues: dict[str, Dialogue] = {}
    for t in turns.values():
        if t.status != "kept":
            continue
        d = dialogues.setdefault(t.tid.dialogue, Dialogue(t.tid.dialogue, t.volume))
        if d.volume is None:
            d.volume = t.volume
        elif t.volume is not None and t.volume != d.volume:
            notes.append(f"dialogue {d.name} has turns in volumes {d.volume} and {t.volume}; using {d.volume}")
        d.speakers.add(t.speaker)
    unknown_vol = sorted(n for n, d in dialogues.items() if d.volume is None)
    if unknown_vol:
        notes.append(f"{len(unknown_vol)} dialogues without a volume (CD rules cannot apply; pass a "
                     f"dialogue->volume table): {' '.join(unknown_vol[:20])}")
    d2set = assign_split(dialogues, opts.rules)
    for t in turns.values():
        if t.status == "kept":
            t.set = d2set[t.tid.dialogue]
    for t in turns.values():
        counts[f"turns-{t.status}"] += 1
        if t.status != "kept":
            counts[f"{t.status}: {re.sub(r'[:(].*', '', t.reason).strip()}"] += 1
        elif t.flags:
            counts["kept-turns-flagged"] += 1

    sets = _write_sets(turns, d2set, spk_info, opts, out_dir, notes, counts)
    _write_local(local, turns, d2set, counts, markup, notes, opts)
    return PrepResult(turns, d2set, counts, markup, notes, sets)


def _write_sets(turns, d2set, spk_info, opts, out_dir, notes, counts) -> dict[str, DataDir]:
    out: dict[str, DataDir] = {}
    spk_sets: dict[str, set[str]] = defaultdict(set)
    for t in turns.values():
        if t.status == "kept":
            spk_sets[t.speaker].add(t.set)
    for spk, s in sorted(spk_sets.items()):
        if len(s) > 1:
            notes.append(f"speaker {spk} is in several sets: {' '.join(sorted(s))}")
            counts["speakers-in-several-sets"] += 1
    unknown_gender, unknown_native = set(), set()
    for name in SETS:
        kept = sorted((t for t in turns.values() if t.status == "kept" and t.set == name),
                      key=lambda t: kaldi_sort_key(t.utt))
        if not kept:
            notes.append(f"set {name} is empty: not written")
            if (out_dir / name / "wav.scp").exists():  # stale output of an earlier run
                shutil.rmtree(out_dir / name)
            continue
        d = DataDir(utt2dur={})
        segmented = any(t.reco for t in kept)
        if segmented:
            d.segments = {}
        u2g, s2g = {}, {}
        utt2subset, spk2subset, utt2dialogue = {}, {}, {}
        for t in kept:
            d.text[t.utt] = t.text
            d.utt2spk[t.utt] = t.speaker
            d.utt2dur[t.utt] = t.duration
            if segmented:
                reco = t.reco or t.utt
                d.wav_scp[reco] = t.spec
                start = t.start if t.reco else 0.0
                end = t.end if t.reco else t.duration
                d.segments[t.utt] = Segment(reco, start, end)
            else:
                d.wav_scp[t.utt] = t.spec
            code = base_code(t.speaker)
            g = spk_info.lookup(spk_info.gender, code, t.part)
            if g:
                u2g[t.utt] = s2g[t.speaker] = g
            else:
                unknown_gender.add(t.speaker)
            nat = spk_info.lookup(spk_info.native, code, t.part)
            if nat is None:
                unknown_native.add(t.speaker)
            labels = subset_labels(nat, domain_of(t.tid.scenario), t.speaker, opts.rules)
            utt2subset[t.utt] = " ".join(labels)
            spk_labels = [lab for lab in labels if lab in ("EN", "DE", "NATIVE_UNK", "EN-", "DE+")]
            spk2subset[t.speaker] = " ".join(spk_labels)
            utt2dialogue[t.utt] = t.tid.dialogue
        # genders are written only when every speaker of the set has one (a partial table misleads consumers)
        if u2g and len(u2g) == len(kept):
            d.utt2gender, d.spk2gender = u2g, s2g
        write_datadir_atomic(d, out_dir / name, extra={"utt2subset": utt2subset, "spk2subset": spk2subset,
                                                        "utt2dialogue": utt2dialogue})
        out[name] = d
    if unknown_gender:
        notes.append(f"{len(unknown_gender)} speakers without a known gender (no spr/AufDat entry); sets with any "
                     f"such speaker have no utt2gender/spk2gender: {' '.join(sorted(unknown_gender)[:30])}")
    if unknown_native:
        notes.append(f"{len(unknown_native)} speakers without a known native language (labelled NATIVE_UNK; "
                     f"pass --native-table): {' '.join(sorted(unknown_native)[:30])}")
    return out


def _write_local(local: Path, turns, d2set, counts, markup, notes, opts) -> None:
    local.mkdir(parents=True, exist_ok=True)
    rows = ["turn\tutt\tstatus\tset\treason\tsource\tflags"]
    for base, t in sorted(turns.items()):
        rows.append("\t".join([base, t.utt or "-", t.status, t.set or "-", t.reason or "-", t.source or "-",
                               "; ".join(t.flags) or "-"]))
    atomic_write_text(local / "turns.tsv", "\n".join(rows) + "\n")
    write_kaldi_map(local / "dialogue2set", d2set)
    spk2set: dict[str, set] = defaultdict(set)
    for t in turns.values():
        if t.status == "kept":
            spk2set[t.speaker].add(t.set)
    write_kaldi_map(local / "spk2set", {s: " ".join(sorted(v)) for s, v in spk2set.items()})
    atomic_write_text(local / "non_linguistic_symbols.txt", "\n".join(MARKERS) + "\n")
    lines = ["# VerbMobil English data preparation report", "",
             f"options: markers={opts.markers} letters={opts.letters} case={opts.case} "
             f"text_source={opts.text_source} skip_malformed={opts.skip_malformed} "
             f"dedupe_channels={opts.dedupe_channels}", "", "## counts"]
    lines += [f"{k}\t{v}" for k, v in sorted(counts.items())]
    lines += ["", "## sets (utterances / speakers / dialogues)"]
    for name in SETS:
        kept = [t for t in turns.values() if t.status == "kept" and t.set == name]
        lines.append(f"{name}\t{len(kept)}\t{len({t.speaker for t in kept})}\t{len({t.tid.dialogue for t in kept})}")
    lines += ["", "## markup seen (cleaner)"] + [f"{k}\t{v}" for k, v in sorted(markup.items())]
    lines += ["", "## notes"] + notes
    lines += ["", "## unconfirmed format assumptions (FORMAT.md [P]/[U])",
              "- volume VM<=14 is VerbMobil I (UASR CD-type rule); speaker fixes CAC/JDH/NKH/RGM depend on it",
              "- domain: scenario letter b = info desk (DB), c = remote maintenance (DC), else appointment (DA)",
              "- native language from spr keys (dialect/native/language) or --native-table only",
              "- .trl header/language-mark syntax, overlap marks, '~' in words, marker (.mar) and PhonDat layouts"]
    atomic_write_text(local / "report.txt", "\n".join(lines) + "\n")
