"""`pydeid score-trials`: cosine / PLDA scoring of a trial list and every privacy metric."""

COMMAND = "score-trials"
HELP = "score trials (cosine, PLDA) from embedding dirs and write EER/minDCF/linkability/ACC, DET plots"

from pydeid.attack.scenarios import LEGACY, ORDER

SCENARIOS = tuple(ORDER) + tuple(LEGACY)


OUTPUTS = ("out_dir",)


def add_arguments(p):
    from pydeid.cli._types import name_list
    p.add_argument("--trials", default=None, help="trials file (default <trial-data>/trials)")
    from pydeid.attack.scoring import BACKENDS
    p.add_argument("--backends", default="cosine,plda", type=name_list(BACKENDS),
                   help="comma-separated: cosine, lda (LDA + within-speaker whitening + cosine), plda")
    p.add_argument("--scenario", default=None, choices=SCENARIOS, help="label stored with the results")
    p.add_argument("--method", default="none", help="voice transformation label (none, voicemask, vtln, mcadams...)")
    p.add_argument("--strategy", default="-", help="target-selection strategy label (1, 2, 3 or -)")
    p.add_argument("--orig-trial", default=None,
                   help="original (untransformed) trial data dir: also compute the pitch correlation")
    p.add_argument("--orig-trial-xvectors", default=None,
                   help="embeddings of --orig-trial by the same attacker: adds the gain of voice distinctiveness G_VD")
    p.add_argument("--pitch-max-utts", type=int, default=200)
    p.add_argument("--pitch-cache", default=None,
                   help="JSON file keeping the pitch correlation: reused by later attacks on the same trial audio")
    p.add_argument("--lda-dim", type=int, default=150)
    p.add_argument("--plda-rank", type=int, default=100)
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--bootstrap", type=int, default=1000,
                   help="resamples of the speaker bootstrap behind the 95 %% EER intervals (0: none)")
    p.add_argument("--bootstrap-seed", type=int, default=0)
    p.add_argument("train_xvectors", help="embeddings of the attacker's training data (PLDA / mean)")
    p.add_argument("enroll_data")
    p.add_argument("enroll_xvectors")
    p.add_argument("trial_data")
    p.add_argument("trial_xvectors")
    p.add_argument("out_dir")


def run(args):
    from pathlib import Path

    from pydeid.attack.evaluate import evaluate

    backends = [b for b in args.backends.split(",") if b]
    from pydeid.attack.scenarios import resolve
    scenario = None if args.scenario is None else resolve(args.scenario).name
    info = {"scenario": scenario, "method": args.method, "strategy": args.strategy}
    res = evaluate(args.train_xvectors, args.enroll_data, args.enroll_xvectors, args.trial_data,
                   args.trial_xvectors, args.trials or str(Path(args.trial_data) / "trials"), args.out_dir,
                   backends=backends, info=info, lda_dim=args.lda_dim, plda_rank=args.plda_rank,
                   orig_trial=args.orig_trial, pitch_max_utts=args.pitch_max_utts, plots=not args.no_plots,
                   pitch_cache=args.pitch_cache, n_boot=args.bootstrap, boot_seed=args.bootstrap_seed,
                   orig_trial_xvec=args.orig_trial_xvectors)
    for b, per in res["backends"].items():
        for sub, m in per.items():
            if "eer_pct" in m:
                link = "-" if m["linkability"] is None else f"{m['linkability']:.3f}"
                acc = "-" if m["acc_pct"] is None else f"{m['acc_pct']:.1f}%"
                ci = m.get("eer_ci95_pct")
                ci = "" if not ci else f" [{ci[0]:.2f}, {ci[1]:.2f}]"
                print(f"{args.out_dir} {b} {sub}: EER {m['eer_pct']:.2f}%{ci} ({m['n_target']} tar / "
                      f"{m['n_nontarget']} non) minDCF(0.01) {m['min_dcf_p0.01']:.3f} "
                      f"linkability {link} ACC {acc}")
    if "pitch" in res and res["pitch"]["pitch_correlation"] is not None:
        print(f"{args.out_dir}: pitch correlation {res['pitch']['pitch_correlation']:.3f}")
