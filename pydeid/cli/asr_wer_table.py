"""`pydeid asr-wer-table`: the seed 004 table 9 layout (rows: training data, columns: model tiers) from
scored decode dirs."""

COMMAND = "asr-wer-table"
HELP = "WER table, rows = training data (original/transformed), columns = model tiers (seed 004 table 9)"


def add_arguments(p):
    p.add_argument("--results", default=None, help="RESULTS.md to update")
    p.add_argument("--key", default="asr-wer-table", help="section key in RESULTS.md")
    p.add_argument("--title", default="WER (%) of ASR trained on original and transformed data (seed 004 table 9)")
    p.add_argument("--subset", default="all", help="subset column of the scoring to report (all, m, f, ...)")
    p.add_argument("--note", default=None, help="text printed under the table (what each row measures)")
    p.add_argument("cells", nargs="+", metavar="ROW:COLUMN=DECODE_DIR",
                   help="e.g. original:small=exp/asr_small/decode_mini_test "
                        "transformed:small=exp/asr_small_neutral/decode_mini_test")


def run(args):
    from pydeid.asr.tables import wer_table
    from pydeid.report import update_results_section
    from pydeid.asr.score import BOOT_METHOD
    table = wer_table(args.cells, args.subset)
    table += f"\nWER % [95 % interval: {BOOT_METHOD}] (reference words).\n"
    if args.note:
        table += "\n" + args.note + "\n"
    print(table)
    if args.results:
        update_results_section(args.results, args.key, table, title=args.title)
