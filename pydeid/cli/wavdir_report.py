"""`pydeid wavdir-report`: exp/report.md of egs/wavdir/s5 (pydeid.report.wavdir_report)."""

COMMAND = "wavdir-report"
HELP = ("the transcript-free chain's report: what was checked against what (the recogniser's hypothesis), what "
        "was not, and the published words left for review (written 0600, outside the corpus)")


def add_arguments(p):
    p.add_argument("--secret", required=True, help="stage 0's id -> original file map")
    p.add_argument("--asr-data", required=True, help="the transcribed data dir (text = the hypothesis)")
    p.add_argument("--tags", required=True, help="the tags detected on the hypothesis")
    p.add_argument("--verify", required=True, help="verify.txt of steps/verify_masking.sh or verify_spoken.sh")
    p.add_argument("--transcribe-dir", default=None, help="steps/transcribe.sh exp dir (wrd_ali/ctm: cased words)")
    p.add_argument("--model", required=True)
    p.add_argument("--words-from", required=True)
    p.add_argument("--voice", required=True)
    p.add_argument("--fill", required=True, choices=["silence", "spoken"])
    p.add_argument("--pad", type=float, required=True)
    p.add_argument("--hidden-types", default="all")
    p.add_argument("--id-secret-dir", default=None,
                   help="the --secret-dir of steps/publish_data.sh when `neutral` was published with keyed ids")
    p.add_argument("--seed", default="", help="the run's --seed: empty, the publisher's key in --key-dir; N: "
                   "the report says anyone who knows N can replay the draws")
    p.add_argument("--key-dir", default=None, help="the secret dir of the publisher's key (without --seed)")
    p.add_argument("neutral", help="the published data dir")
    p.add_argument("out", help="the report (markdown; a .json summary beside it)")


def run(args):
    from pydeid.report.wavdir_report import write_report

    s = write_report(args.neutral, args.out, args.secret, args.asr_data, args.tags, args.verify, args.model,
                     args.words_from, args.voice, args.fill, args.pad, args.hidden_types, args.transcribe_dir,
                     args.id_secret_dir, args.seed, args.key_dir)
    print(f"{args.out}: {s['published_utterances']} published utterances, {sum(s['entities'].values())} entities "
          f"hidden, {sum(len(v) for v in s['review'].values())} words left for review, "
          f"{len(s['original_name_hits'])} original names found in the published dir")
