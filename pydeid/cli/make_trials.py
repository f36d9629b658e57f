"""`pydeid make-trials`: enrollment / trial split of a data dir and its Kaldi trials file."""

COMMAND = "make-trials"
HELP = "split a data dir into enrollment and trial data dirs and write <trial-out>/trials"


OUTPUTS = ("enroll_out", "trial_out")


def add_arguments(p):
    from pydeid.cli._types import open_fraction, positive_int
    g = p.add_mutually_exclusive_group()
    g.add_argument("--num-enroll", type=positive_int, default=None, help="enrollment utterances per speaker")
    g.add_argument("--enroll-fraction", type=open_fraction, default=None,
                   help="fraction of each speaker's utterances used for enrollment (default 0.5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--same-gender-nontargets", action="store_true",
                   help="non-target trials only between speakers of the same gender")
    p.add_argument("--max-nontargets-per-utt", type=int, default=None,
                   help="random sample of at most this many non-target speakers per trial utterance")
    p.add_argument("data", help="input data dir (not modified)")
    p.add_argument("enroll_out", help="output enrollment data dir")
    p.add_argument("trial_out", help="output trial data dir (receives the trials file)")


def run(args):
    from collections import Counter
    from pathlib import Path

    from pydeid.attack.trials import make_trials, write_trials
    from pydeid.io import DataDir

    data = DataDir.read(args.data)
    enroll, trial, trials = make_trials(data, num_enroll=args.num_enroll, enroll_fraction=args.enroll_fraction,
                                        seed=args.seed, same_gender_nontargets=args.same_gender_nontargets,
                                        max_nontargets_per_utt=args.max_nontargets_per_utt)
    if not trials:
        from pydeid.io import FormatError
        raise FormatError(Path(args.data) / "utt2spk", None, "no trials: no speaker has the 2 utterances needed to be "
                                                            "both enrolled and tested")
    enroll.write(args.enroll_out)
    trial.write(args.trial_out)
    write_trials(Path(args.trial_out) / "trials", trials)
    n = Counter(t[2] for t in trials)
    print(f"{args.enroll_out}: {len(enroll.utt2spk)} enrollment utterances of {len(enroll.spk2utt)} speakers; "
          f"{args.trial_out}: {len(trial.utt2spk)} trial utterances, {n['target']} target and "
          f"{n['nontarget']} non-target trials")
