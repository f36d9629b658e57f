"""Leak hunt with DEFAULTS: probe utterances (category words, a spoken e-mail, a spelled name, rare names, a spoken
phone number) go through the steps as a new user runs them -- steps/tag_entities.sh, steps/transform_text.sh,
steps/mask_words.sh + steps/verify_masking.sh (silence) and steps/mask_spoken.sh + pydeid verify-spoken (spoken
pseudonyms), every option at its default -- and every original sensitive word of the probes is looked for in every
neutral output: the published text, the audio of the original word (still louder than -50 dBFS in the silenced
corpus), and the words the spoken inserts say. Three spoken-fill probes feed mask-spoken surrogates that say the
original (transformed tags equal to the originals; PER=keep; NUM=random_digits on the e-mail and the spelling).

  python bench/neutral_leaks.py [--repo DIR] [--work DIR] [--md FILE]

--repo: the checkout whose steps and pydeid run (e.g. /work/main to measure before a change); the probes' audio is
a tone burst per word at its CTM time (the checks need word times, not speech). Prints one JSON line per probe kind
and, with --md, a markdown table. tests/test_default_leaks.py asserts zero on the current checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

SR = 16000
# (kind, utterance id, text, sensitive items): an item is a word, or a word sequence found when it occurs in order
PROBES = [
    ("category", "spka-d01-01", "she has diabetes and the pin is rainbow", ["diabetes", "rainbow"]),
    ("category", "spkb-d01-02", "my password is tulipgarden and I have asthma", ["tulipgarden", "asthma"]),
    ("e-mail", "spka-d02-01", "write to john dot smith at gmail dot com please", ["john", "smith"]),
    ("spelled name", "spkb-d02-02", "my name is K two W A L S K I", ["W A L S K I"]),
    ("rare names", "spka-d03-01", "Zbigniewa Quaxley called from Vorondil yesterday",
     ["Zbigniewa", "Quaxley", "Vorondil"]),
    ("rare names", "spkb-d03-02", "tell Ysoldine Tavrin that I will call back", ["Ysoldine", "Tavrin"]),
    ("phone number", "spka-d04-01", "call me on four five two one one eight seven", ["four five two one one eight seven"]),
]
GENDER = {"spka": "f", "spkb": "m"}
KINDS = list(dict.fromkeys(k for k, *_ in PROBES))


def build(root: Path) -> dict:
    """Data dir (tone burst per word), word CTM."""
    data, wavs = root / "data", root / "orig_wav"
    data.mkdir(parents=True, exist_ok=True)
    wavs.mkdir(parents=True, exist_ok=True)
    scp, text, u2s, ctm = [], [], [], []
    for k, (_, utt, sent, _) in enumerate(PROBES):
        words = sent.split()
        t = 0.3
        y = np.zeros(int((0.3 + 0.45 * len(words) + 0.3) * SR), np.float32)
        for j, w in enumerate(words):
            d = 0.35
            n0, n1 = int(t * SR), int((t + d) * SR)
            tt = np.arange(n1 - n0) / SR
            f0 = (200 if GENDER[utt[:4]] == "f" else 120) * (1 + 0.05 * (j % 3))
            y[n0:n1] = 0.3 * np.sin(2 * np.pi * f0 * tt) * np.hanning(n1 - n0)
            ctm.append(f"{utt} 1 {t:.3f} {d:.3f} {w}")
            t += 0.45
        p = wavs / f"{utt}.wav"
        sf.write(p, y, SR, subtype="PCM_16")
        scp.append(f"{utt} {p}")
        text.append(f"{utt} {sent}")
        u2s.append(f"{utt} {utt[:4]}")
    for name, lines in (("wav.scp", scp), ("text", text), ("utt2spk", u2s)):
        (data / name).write_text("\n".join(sorted(lines)) + "\n")
    (data / "spk2utt").write_text("".join(f"{s} {' '.join(sorted(x[1] for x in PROBES if x[1][:4] == s))}\n"
                                          for s in sorted(GENDER)))
    (data / "spk2gender").write_text("".join(f"{s} {g}\n" for s, g in sorted(GENDER.items())))
    (root / "words.ctm").write_text("\n".join(sorted(ctm)) + "\n")
    return {"data": data, "ctm": root / "words.ctm"}


def found(item: str, words: list[str]) -> bool:
    seq = [w.lower() for w in item.split()]
    low = [re.sub(r"[^a-z0-9]", "", w.lower()) for w in words]
    return any(low[i:i + len(seq)] == seq for i in range(len(low) - len(seq) + 1))


def count_found(texts: dict[str, list[str]]) -> dict[str, int]:
    """Per probe kind: its sensitive items found in ANY utterance of the output (a name moved to another speaker's
    turn counts as much as one left in place)."""
    out: dict[str, int] = {}
    for kind, _, _, items in PROBES:
        out[kind] = out.get(kind, 0) + sum(any(found(it, ws) for ws in texts.values()) for it in items)
    return out


def read_text(d: Path) -> dict[str, list[str]]:
    out = {}
    for ln in (d / "text").read_text().splitlines():
        u, _, rest = ln.partition(" ")
        out[u] = rest.split()
    return out


def audible(item: str, utt: str, wav: Path, ctm: list[tuple[str, float, float, str]], dbfs: float = -50.0) -> bool:
    """The original word(s) of item still audible where they were (silenced corpus: same timeline)."""
    y, sr = sf.read(wav, dtype="float64")
    seq = [w.lower() for w in item.split()]
    mine = [(s, e, w.lower()) for u, s, e, w in ctm if u == utt]
    for i in range(len(mine) - len(seq) + 1):
        if [w for _, _, w in mine[i:i + len(seq)]] == seq:
            for s, e, _ in mine[i:i + len(seq)]:
                seg = y[int((s + 0.03) * sr): int((e - 0.03) * sr)]   # 30 ms margins: the word, not its pad
                if len(seg) and 20 * np.log10(np.sqrt(np.mean(seg ** 2)) + 1e-12) > dbfs:
                    return True
    return False


class Runner:
    def __init__(self, repo: Path, work: Path):
        self.repo, self.work = repo, work
        self.env = dict(os.environ, PYTHONPATH=str(repo), OMP_NUM_THREADS="1",
                        PATH=f"{repo}/utils:{repo}/steps:{os.environ.get('PATH', '')}")

    def run(self, *args, ok=(0,)) -> subprocess.CompletedProcess:
        p = subprocess.run([str(a) for a in args], cwd=self.repo, env=self.env, capture_output=True, text=True,
                           timeout=1200)
        if p.returncode not in ok:
            raise RuntimeError(f"{' '.join(map(str, args))} failed ({p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        return p

    def pydeid(self, *args, ok=(0,)):
        return self.run(sys.executable, "-m", "pydeid", *args, ok=ok)


def hunt(repo: Path, work: Path) -> dict:
    """{kind: {check: originals found}} and the runs' notes."""
    work.mkdir(parents=True, exist_ok=True)
    inp = build(work / "in")
    data, ctm = inp["data"], inp["ctm"]
    ctm_rows = []
    for ln in ctm.read_text().splitlines():
        u, _, s, d, w = ln.split()
        ctm_rows.append((u, float(s), float(s) + float(d), w))
    r = Runner(repo, work)
    tags = work / "tags" / "tags.conll"
    r.run("steps/tag_entities.sh", data, "-", work / "tags")
    r.run("steps/transform_text.sh", "--secret-dir", work / "secrets" / "text", "--exp-dir", work / "exp" / "tt",
          data, tags, work / "text")
    trans = work / "text" / "tags.conll"
    res = {k: {} for k in KINDS}
    notes = {}

    def add(check: str, per_kind: dict[str, int]):
        for k in KINDS:
            res[k][check] = per_kind.get(k, 0)

    # silence: mask-words + verify-masking, defaults
    r.run("steps/mask_words.sh", data, tags, ctm, work / "exp" / "mask", work / "neutral")
    v = r.run("steps/verify_masking.sh", "--orig-data", data, work / "neutral", tags, ctm, work / "exp" / "verify",
              ok=(0, 1))
    notes["verify-masking"] = (work / "exp" / "verify" / "verify.txt").read_text().strip()
    out_text = read_text(work / "neutral")
    scp = dict(ln.split(" ", 1) for ln in (work / "neutral" / "wav.scp").read_text().splitlines())
    tx, au = count_found(out_text), {}
    for kind, utt, _, items in PROBES:
        for it in items:
            if utt in scp:
                au[kind] = au.get(kind, 0) + audible(it, utt, Path(scp[utt].strip()), ctm_rows)
    add("silence: text", tx)
    add("silence: audio", au)
    m = re.search(r"leaks: audio (\d+), text (\d+)", notes["verify-masking"])
    notes["verify-masking leaks"] = int(m.group(1)) + int(m.group(2)) if m else None

    # spoken pseudonyms: the default transformation, then three strategies that would make the fill say an original
    variants = [("default transformation", trans)]
    same = work / "same_tags.conll"
    shutil.copy(tags, same)
    variants.append(("transformed tags = original tags", same))
    for name, strat in (("PER=keep", "PER=keep"), ("NUM=random_digits", "NUM=random_digits")):
        out = work / f"text_{name.split('=')[0]}"
        r.run("steps/transform_text.sh", "--strategy", strat, "--secret-dir", work / "secrets" / f"t_{out.name}",
              "--exp-dir", work / "exp" / f"tt_{out.name}", data, tags, out)
        variants.append((name, out / "tags.conll"))
    dialogues = sorted({utt.split("-")[1] for _, utt, _, _ in PROBES})
    for vi, (name, tt) in enumerate(variants):
        said = {}
        for dlg in dialogues:   # one fill per dialogue: a refusal names that dialogue's own reason
            sub = work / "in" / f"data_{dlg}"
            if not sub.exists():
                utts = work / "in" / f"{dlg}.list"
                utts.write_text("".join(f"{u}\n" for _, u, _, _ in PROBES if u.split("-")[1] == dlg))
                r.run("utils/subset_data_dir.sh", "--utt-list", utts, data, sub)
            out, exp = work / f"spoken{vi}_{dlg}", work / "exp" / f"spoken{vi}_{dlg}"
            p = r.run("steps/mask_spoken.sh", sub, tags, tt, ctm, exp, out, ok=(0, 1))
            key = f"mask-spoken ({name}, {dlg})"
            if p.returncode != 0:
                left = len(list((out / "wav").glob("*.wav"))) if (out / "wav").exists() else 0
                notes[key] = f"refused ({left} wavs left): " + (p.stderr.strip().splitlines() or ["?"])[-1][:400]
                continue
            vp = r.pydeid("verify-spoken", "--secret-dir", exp / "secrets", "--orig-data", sub, out, tags, ctm,
                          ok=(0, 1))
            notes[key] = "written; verify-spoken: " + vp.stdout.strip()
            for k, n in count_found(read_text(out)).items():
                said[k] = said.get(k, 0) + n
        add(f"spoken ({name}): text and inserts", said)
    return {"found": res, "notes": notes}


def markdown(rep: dict, label: str) -> str:
    checks = list(next(iter(rep["found"].values())))
    rows = [f"| probe kind ({label}) | " + " | ".join(checks) + " |", "|---" * (len(checks) + 1) + "|"]
    for k, v in rep["found"].items():
        rows.append(f"| {k} | " + " | ".join(str(v[c]) for c in checks) + " |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--work", default="neutral_leaks_work")
    ap.add_argument("--md", default=None)
    ap.add_argument("--label", default="this checkout")
    a = ap.parse_args(argv)
    work = Path(a.work).resolve()
    if work.exists():
        shutil.rmtree(work)
    rep = hunt(Path(a.repo).resolve(), work)
    for k, v in rep["found"].items():
        print(json.dumps({"kind": k, **v}))
    for k, v in rep["notes"].items():
        print(f"# {k}: {v}")
    if a.md:
        Path(a.md).write_text(markdown(rep, a.label) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
