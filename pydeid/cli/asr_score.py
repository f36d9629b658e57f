"""`pydeid asr-score`: the Python behind steps/score.sh."""

COMMAND = "asr-score"
HELP = "WER/CER of a decode dir against a data dir, per subset (gender, utt2subset/spk2subset), into RESULTS.md"


def add_arguments(p):
    p.add_argument("--subsets", default=None, help="utt2subset or spk2subset file: '<id> <label> [<label>...]'")
    p.add_argument("--results", default=None, help="RESULTS.md to update (default: <decode-dir>/../RESULTS.md)")
    p.add_argument("--title", default=None, help="section title in RESULTS.md")
    p.add_argument("data")
    p.add_argument("decode_dir")


def run(args):
    from pydeid.asr.score import score_decode_dir
    res = score_decode_dir(args.data, args.decode_dir, args.subsets, args.results, args.title)
    a = res["all"]
    wer = "n/a" if a["wer"] is None else f"{a['wer']:.2f}"
    cer = "n/a" if a["cer"] is None else f"{a['cer']:.2f}"
    print(f"%WER {wer} [ {a['sub'] + a['del'] + a['ins']} / {a['words']}, {a['ins']} ins, {a['del']} del, "
          f"{a['sub']} sub ] %CER {cer} {args.decode_dir}")
