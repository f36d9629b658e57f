"""`pydeid asr-speaker-probe`: seed 004 table 1 (WER, closed-set speaker ACC, EER on encoder representations)."""

COMMAND = "asr-speaker-probe"
HELP = "speaker information left in ASR encoder representations (adversarial alphas): seed 004 table 1"


def add_arguments(p):
    p.add_argument("--model", action="append", required=True, metavar="LABEL=EXP_DIR",
                   help="a column, e.g. 'phi_0=exp/asr_adv0' (repeat; the first also gives the filterbank column)")
    p.add_argument("--probe-data", required=True, help="data dir whose speakers the closed-set probe classifies")
    p.add_argument("--enroll", required=True, help="enrolment data dir (e.g. mini_test_enroll)")
    p.add_argument("--trial", required=True, help="trial data dir with a Kaldi trials file (mini_test_trial)")
    p.add_argument("--trials", default=None, help="trials file (default <trial>/trials)")
    p.add_argument("--decode-name", default=None,
                   help="decode dir name inside each exp dir whose scoring gives the WER row")
    p.add_argument("--results", default=None, help="RESULTS.md to update")
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    p.add_argument("--out", default=None, help="write the table (Markdown) here as well")


def run(args):
    if args.num_threads:
        import torch
        torch.set_num_threads(args.num_threads)
    from pydeid.asr.probe import speaker_info_table
    from pydeid.io import atomic_write_text
    from pydeid.report import markdown_table, update_results_section
    models = []
    for spec in args.model:
        label, sep, exp = spec.partition("=")
        if not sep:
            raise SystemExit(f"--model expects LABEL=EXP_DIR, got {spec!r}")
        models.append((label, exp))
    cols, rows = speaker_info_table(models, args.probe_data, args.enroll, args.trial, args.trials,
                                    args.decode_name)
    table = markdown_table([""] + cols, rows, ".2f")
    note = ("\nWER (%) of each model's decode dir; ACC (%) closed-set speaker identification of a probe on held-out "
            "utterances of the probe-data speakers; EER (%) cosine verification on the enroll/trial split.\n")
    print(table)
    if args.out:
        atomic_write_text(args.out, table + note)
    if args.results:
        update_results_section(args.results, "asr-speaker-probe", table + note,
                               title="Speaker information in ASR representations (seed 004 table 1)")
