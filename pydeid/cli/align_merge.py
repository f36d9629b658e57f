"""`pydeid align-merge`: combine per-job alignment dirs (steps/align.sh --nj N) into one ali dir."""

COMMAND = "align-merge"
HELP = "merge per-job alignment dirs (wrd_ali/ctm, phn_ali/ctm, report.json) into one"


def add_arguments(p):
    p.add_argument("ali_dir", help="output alignment dir")
    p.add_argument("parts", nargs="+", help="per-job alignment dirs")


def run(args):
    import json
    from pathlib import Path

    from pydeid.align.pipeline import merge_reports
    from pydeid.io import FormatError, atomic_write_text, read_ctm, write_ctm

    out = Path(args.ali_dir)
    reports = []
    for kind in ("wrd_ali", "phn_ali"):
        entries = []
        for p in args.parts:
            f = Path(p) / kind / "ctm"
            if not f.exists():
                raise FormatError(f, None, "missing: did that alignment job fail? see its log")
            entries += read_ctm(f)
        write_ctm(out / kind / "ctm", entries)
    for p in args.parts:
        reports.append(json.loads((Path(p) / "report.json").read_text()))
    rep = merge_reports(reports)
    atomic_write_text(out / "report.json", json.dumps(rep, indent=1, ensure_ascii=False) + "\n")
    c = rep["counts"]
    print(f"{out}: aligned {c.get('aligned', 0)}/{c.get('utterances', 0)} utterances, "
          f"{c.get('g2p_tokens', 0)} tokens via G2P, {c.get('failed', 0)} failed")
