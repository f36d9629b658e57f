"""exp/report.md of egs/wavdir/s5: what the transcript-free chain checked, against what, and what it did not.

The chain detected sensitive words in a recogniser's hypothesis, so its checks hold only relative to that
hypothesis: a word the recogniser missed or misheard was never looked at. The report says so in words, never
calls the audio clean, and lists the words it left in the published text that look like names, numbers or dates
(capitalised inside a sentence in the recogniser's output, digits, number words, weekdays, months) so that a
person can listen to those utterances. That list holds possibly sensitive words: the report is written 0600 and
must stay outside the published corpus.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydeid.io.ctm import ctm_by_utt, read_ctm
from pydeid.io.errors import FormatError, UsageError
from pydeid.io.kaldi_map import read_kaldi_map
from pydeid.io.secrets import read_secret_json, write_secret_text
from pydeid.mask.pipeline import load_tags

NOT_CHECKED = ("The detection ran on the recogniser's hypothesis. Words the recogniser missed or misheard were "
               "NOT checked: a sensitive word it did not write, or wrote as another word, was not detected and "
               "is not silenced or re-spoken; nor is a word the detectors did not recognise in the hypothesis. "
               "This report does not say that the audio or the text is free of sensitive words.")
_NUMBER_WORDS = set(("zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                     "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
                     "ninety hundred thousand million first second third fourth fifth sixth seventh eighth ninth "
                     "tenth eleventh twelfth thirteenth fourteenth fifteenth twentieth thirtieth").split())
_CALENDAR = set(("monday tuesday wednesday thursday friday saturday sunday january february march april may june "
                 "july august september october november december").split())


def _bare(tok: str) -> str:
    return re.sub(r"^\W+|\W+$", "", tok)


def review_words(published: list[str], raw: list[str]) -> list[str]:
    """Words of the published text that look like names, numbers or dates. `raw`: the recogniser's own words
    (cased) of the same utterance; a word capitalised there other than at a sentence start or 'I' is listed."""
    capital = set()
    start = True
    for t in raw:
        b = _bare(t)
        if b and b[0].isupper() and not start and b != "I" and not b.startswith("I'"):
            capital.add(b.lower())
        start = t.rstrip().endswith((".", "?", "!"))
    out = []
    for t in published:
        b = _bare(t).lower()
        if not b:
            continue
        if b in capital or any(c.isdigit() for c in b) or b in _NUMBER_WORDS or b in _CALENDAR:
            out.append(_bare(t))
    return out


def scan_published(neutral: Path, sources: list[str]) -> list[str]:
    """Places in the published dir where an original file's path, name or stem appears (names of 4+ chars)."""
    needles = set()
    for s in sources:
        p = Path(s)
        needles |= {str(p), p.name}
        if len(p.stem) >= 4:
            needles.add(p.stem)
    hits = []
    for f in sorted(neutral.rglob("*")):
        rel = f.relative_to(neutral).as_posix()
        hits += [f"file name {rel} holds '{n}'" for n in needles if n in f.name]
        if f.is_file() and f.suffix.lower() not in (".wav", ".flac"):
            body = f.read_text(encoding="utf-8", errors="replace")
            hits += [f"{rel} holds '{n}'" for n in needles if n in body]
    return hits


def _verify_line(path: Path) -> str:
    if not path.is_file():
        raise FormatError(path, None, "missing: run stage 5's verification first")
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if "leaks:" in x]
    if not lines:
        raise FormatError(path, None, "holds no 'leaks:' summary line")
    return lines[-1].strip()


def who_can_replay(seed, key_dir, forbidden_dirs=()) -> str:
    """pydeid.io.publisher_key's line on who can replay the draws: --seed N (anyone who knows N), else the
    publisher's key in key_dir, which the earlier stages drew (a missing key is an error, never drawn here)."""
    from pydeid.io.publisher_key import KEY_FILE, load_or_create, parse_seed
    if parse_seed(seed) is None:
        if key_dir is None:
            raise UsageError("--key-dir", "needed without --seed (where the publisher's key is)")
        if not (Path(key_dir) / KEY_FILE).is_file():
            raise FormatError(Path(key_dir) / KEY_FILE, None, "missing: the stages that draw (2-5) write it; run them")
    return load_or_create(key_dir, seed, forbidden_dirs).describe()


def write_report(neutral: str | Path, out: str | Path, secret: str | Path, asr_data: str | Path,
                 tags: str | Path, verify: str | Path, model: str, words_from: str, voice: str, fill: str,
                 pad: float, hidden_types: str, transcribe_dir: str | Path | None = None,
                 id_secret_dir: str | Path | None = None, seed=None, key_dir: str | Path | None = None) -> dict:
    """id_secret_dir: where steps/publish_data.sh keeps the id map of `neutral` (a published dir's ids are keyed
    pseudonyms of the transcribed dir's: the comparison with the hypothesis goes through the map; the review lists
    the published ids, the ones a user finds in the corpus). seed, key_dir: the run's --seed (empty: the
    publisher's key in key_dir); the report says who can replay the draws (who_can_replay). Both None: not said."""
    neutral, asr_data = Path(neutral), Path(asr_data)
    m = read_secret_json(secret)
    to_src = {}   # published utterance id -> the transcribed dir's
    if id_secret_dir is not None:
        from pydeid.io.pseudonyms import read_id_map
        to_src = {p: u for u, p in read_id_map(id_secret_dir, neutral)["utterances"].items()}
    sources = [u["source"] for u in m["utterances"].values()]
    pub_text = read_kaldi_map(neutral / "text", require_value=False)
    utt2spk = read_kaldi_map(neutral / "utt2spk")
    utt2dur = read_kaldi_map(asr_data / "utt2dur") if (asr_data / "utt2dur").is_file() else {}
    hyp = read_kaldi_map(asr_data / "text", require_value=False)
    sents = load_tags(tags)
    ents: dict[str, int] = {}
    hidden_tokens = 0
    unsure = 0   # words added because the recogniser was unsure of them (pydeid.asr.whisper_unsure.COMMENT)
    for s in sents.values():
        for a, b, t in s.spans():
            ents[t] = ents.get(t, 0) + 1
            hidden_tokens += b - a
        unsure += sum(len(c.split()) - 2 for c in s.comments if c.startswith("unsure = "))
    raw = {}   # the recogniser's own words with case and punctuation (sentence starts are not names)
    tdir = Path(transcribe_dir) if transcribe_dir else None
    if tdir and (tdir / "hyp.txt").is_file():
        raw = {u: t.split() for u, t in read_kaldi_map(tdir / "hyp.txt", require_value=False).items()}
    elif tdir and (tdir / "wrd_ali" / "ctm").is_file():
        raw = {u: [w.token for w in ws] for u, ws in ctm_by_utt(read_ctm(tdir / "wrd_ali" / "ctm")).items()}
    review = {}
    for u in sorted(pub_text):
        src = to_src.get(u, u)
        words = review_words(pub_text[u].split(), raw.get(src, hyp.get(src, "").split()))
        if words:
            review[u] = words
    scan = scan_published(neutral, sources)
    dropped = sorted(set(m["utterances"]) - {to_src.get(u, u) for u in utt2spk})
    vline = _verify_line(Path(verify))
    draws = None if seed is None and key_dir is None else who_can_replay(seed, key_dir, [neutral])
    minutes = sum(float(v) for v in utt2dur.values()) / 60
    summary = {"recordings": len(sources), "published_utterances": len(utt2spk), "dropped": dropped,
               "entities": ents, "hidden_tokens": hidden_tokens, "unsure_words": unsure, "review": review,
               "original_name_hits": scan,
               "verify": vline, "draws": draws}
    L = ["# De-identification report (egs/wavdir/s5)", "",
         "**What this report does not say.** " + NOT_CHECKED, "",
         "## What ran", "",
         f"- recordings: {len(sources)} ({minutes:.1f} min), published utterances: {len(utt2spk)}"
         + (f", dropped (their sensitive words could not be timed): {len(dropped)}" if dropped else ""),
         f"- transcripts: none given; Whisper {model} wrote them (word times from {words_from})",
         f"- detection: the default detectors on the hypothesis: {sum(ents.values())} entities, {hidden_tokens} "
         f"words ({', '.join(f'{t} {n}' for t, n in sorted(ents.items())) or 'none'}); hidden types: {hidden_types}"
         + (f"; {unsure} of these words were hidden because the recogniser was unsure of them (tagged PER)"
            if unsure else ""),
         f"- audio: voices converted ({voice}); the detected words {'silenced' if fill == 'silence' else 're-spoken as surrogates'}"
         f" at the recogniser's word times, widened by {pad:g} s on each side"]
    if draws:
        what = ["surrogates", "voice plan"] + ["spoken fill"] * (fill == "spoken")
        what += ["published ids"] * (id_secret_dir is not None)
        L.append(f"- random draws ({', '.join(what)}): {draws}")
    L += ["",
         "## What was checked, against what", "",
         f"- the hidden words (those detected in the hypothesis) against the recogniser's word times: {vline}",
         "- the published dir against the original recordings' paths, file names and stems: "
         + (f"{len(scan)} found: " + "; ".join(scan[:10]) if scan else "none found"),
         ("- ids: keyed pseudonyms (steps/publish_data.sh) of working ids (spkNNNN-NNNN, assigned in the sorted "
          "order of the files); the id maps are 0600 secrets outside the corpus" if id_secret_dir is not None else
          "- ids: pseudonymous (spkNNNN-NNNN), assigned in the sorted order of the files; the id -> file map is "
          "a 0600 secret outside the corpus"), "",
         "## What was NOT checked", "",
         "- " + NOT_CHECKED,
         "- Measured on speech with gold tags (bench/results/audio_entity_recall.md), this chain leaves some "
         "sensitive words audible: read the recall there before sharing.", "",
         "## Words left in the published text for review", "",
         "Words the chain did not hide that look like names, numbers or dates (capitalised inside a sentence by "
         "the recogniser, digits, number words, weekdays, months). Listen to these utterances; this list holds "
         "possibly sensitive words, so this report is a secret (0600) and must not be shared with the corpus.", ""]
    if review:
        L += ["| utterance | words |", "|---|---|"] + [f"| {u} | {' '.join(w)} |" for u, w in review.items()]
    else:
        L.append("(none)")
    write_secret_text(out, "\n".join(L) + "\n", [neutral])
    Path(str(out) + ".json").parent.mkdir(parents=True, exist_ok=True)
    write_secret_text(str(out) + ".json", json.dumps(summary, indent=1, sort_keys=True) + "\n", [neutral])
    return summary
