"""`pydeid asr-phi-attack`: seed 004 table 1's x-vector attacker trained on ASR representations (phi_alpha)."""

COMMAND = "asr-phi-attack"
HELP = "x-vector attacker trained on encoder outputs phi_alpha(X) and filterbanks: EER with bootstrap intervals (seed 004 table 1)"


def add_arguments(p):
    p.add_argument("--model", action="append", required=True, metavar="LABEL=EXP_DIR",
                   help="a column, e.g. 'phi_0=exp/asr_small_original' (repeat; the first also gives the "
                        "Filterbank column)")
    p.add_argument("--train-data", required=True, help="the attacker's training speakers (e.g. mini_train)")
    p.add_argument("--enroll", required=True, help="enrolment data dir (mini_test_enroll)")
    p.add_argument("--trial", required=True, help="trial data dir with a Kaldi trials file (mini_test_trial)")
    p.add_argument("--trials", default=None, help="trials file (default <trial>/trials)")
    p.add_argument("--xvector-config", default="conf/xvector/mini.yaml", help="the attacker's x-vector YAML")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="cosine", choices=("cosine", "plda"), help="back-end of the table")
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section asr-phi-attack)")
    p.add_argument("out_dir", help="one sub-directory per representation (x-vectors, scores/metrics.json)")


def run(args):
    from pathlib import Path

    from pydeid.io import DataDir, FormatError
    models = []
    for spec in args.model:
        label, sep, exp = spec.partition("=")
        if not sep or not label:
            raise SystemExit(f"--model expects LABEL=EXP_DIR, got {spec!r}")
        if not (Path(exp) / "config.yaml").is_file():
            raise FormatError(Path(exp) / "config.yaml", None, "not an ESPnet ASR exp dir (missing config.yaml)")
        models.append((label, exp))
    for d in (args.train_data, args.enroll, args.trial):
        DataDir.read(d)
    trials = Path(args.trials or Path(args.trial) / "trials")
    if not trials.is_file():
        raise FormatError(trials, None, "missing trials file")
    if args.num_threads:
        import torch
        torch.set_num_threads(args.num_threads)
    from pydeid.asr.phi_attack import phi_attack, phi_table
    from pydeid.attack.config import load_config
    from pydeid.attack.results import ci_note
    from pydeid.report import update_results_section
    cfg = load_config(args.xvector_config)
    runs = phi_attack(models, args.train_data, args.enroll, args.trial, args.out_dir, cfg, seed=args.seed,
                      trials_file=trials)
    table = phi_table(runs, args.backend)
    a = runs[0]["info"]["attacker"]
    note = (f"\nEER (%) of an x-vector attacker ({Path(args.xvector_config).name}: speechbrain TDNN, "
            f"{a['epochs']} epochs, seed {args.seed}) trained from scratch on each representation's frame sequences "
            f"of the {a['speakers']} {Path(args.train_data).name} speakers ({a['utterances']} utterances), enrolled "
            f"on {Path(args.enroll).name}, scored ({args.backend}) on the trials of {trials}; "
            f"{ci_note(runs)}. Filterbank = the first model's normalised log-mel input; phi_alpha = the encoder "
            "output of the model trained with adversarial weight alpha. Scores and PLDA figures: "
            f"{args.out_dir}/<column>/scores/.\n")
    print(table)
    if args.results:
        update_results_section(args.results, "asr-phi-attack", table + note,
                               title="x-vector attacker on ASR representations (seed 004 table 1, EER rows)")
