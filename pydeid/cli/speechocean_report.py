"""`pydeid speechocean-report`: the real-voice tables of egs/speechocean762/s5 (stage 7)."""

COMMAND = "speechocean-report"
HELP = ("egs/speechocean762/s5 report: method x (pocketsphinx WER original/converted/masked, EER per attacker "
        "scenario with speaker-bootstrap 95-percent intervals, pooled/male/female, rho_F0) into RESULTS.md")


def add_arguments(p):
    p.add_argument("--results", default="RESULTS.md")
    p.add_argument("--voice-configs", default="voicemask:- vtln:1 vtln:2 vtln:3 mcadams:- vtln:3_ufvphanycmnw frame_select:seg",
                   help="method:strategy pairs, as the recipe's --voice-configs")
    p.add_argument("--lms", default="general train",
                   help="decodings to tabulate, the primary meter first: general and/or train (the corpus LM)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", default="data")
    p.add_argument("--exp", default="exp")
    p.add_argument("--attack-tag", default="", help="attacks read from <exp>/attack<tag> (e.g. _xvctk)")
    p.add_argument("--vctk-data", default=None, help="VCTK data dir: adds the VCTK pocketsphinx table")
    p.add_argument("--same-draws", action="store_true", help="add the informed-same-draws attacks (extra row)")
    p.add_argument("--espnet", default=None, metavar="TIER:VOICE",
                   help="add the ESPnet table of stage 5b: models exp/asr_<TIER>_{original,neutral}, neutral voice "
                        "VOICE (e.g. small:vtln3)")
    p.add_argument("--attackers", default="xvector ecapa",
                   help="attacker models of the grid (exp/attack<tag>/<model>_<front-end>): xvector, ecapa, ge2e")
    p.add_argument("--front-ends", default="energy none", help="front-ends of the grid: energy and/or none")
    p.add_argument("--primary", default="xvector_energy",
                   help="<model>_<front-end> of the per-back-end tables (the recipe's default attacker)")
    p.add_argument("--partial", action="store_true",
                   help="a run cut short: unfinished decodings/attacks become 'not run' cells instead of an error")


def run(args):
    from pydeid.report.speechocean_report import write_report
    from pydeid.io import FormatError

    lms = args.lms.split()
    bad = [lm for lm in lms if lm not in ("train", "general")]
    if bad or not lms or len(set(lms)) != len(lms):
        raise FormatError(None, None, f"--lms: unknown decoding '{(bad or [''])[0]}' (train, general)")
    if args.bootstrap < 1:
        raise FormatError(None, None, f"--bootstrap must be >= 1, got {args.bootstrap}")
    espnet = None
    if args.espnet is not None:
        tier, sep, voice = args.espnet.partition(":")
        if not sep or not tier or not voice:
            raise FormatError(None, None, f"--espnet must be <tier>:<voice> (e.g. small:vtln3), got '{args.espnet}'")
        espnet = (tier, voice)
    attackers, front_ends = args.attackers.split(), args.front_ends.split()
    for a in attackers:
        if a not in ("xvector", "ecapa", "ge2e"):
            raise FormatError(None, None, f"--attackers: unknown attacker '{a}' (xvector, ecapa, ge2e)")
    for f in front_ends:
        if f not in ("energy", "none"):
            raise FormatError(None, None, f"--front-ends: unknown front-end '{f}' (energy, none)")
    if args.primary not in {f"{a}_{f}" for a in attackers for f in front_ends}:
        raise FormatError(None, None, f"--primary {args.primary} is not one of <attacker>_<front-end> of "
                          f"--attackers/--front-ends")
    write_report(args.results, args.data, args.exp, args.voice_configs.split(), lms, n_boot=args.bootstrap,
                 seed=args.seed, attack_tag=args.attack_tag, vctk_data=args.vctk_data, same_draws=args.same_draws,
                 partial=args.partial, espnet=espnet, attackers=attackers, front_ends=front_ends,
                 primary=args.primary)
    print(f"{args.results}: real-voice tables written")
