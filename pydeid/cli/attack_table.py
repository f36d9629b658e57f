"""`pydeid attack-table`: EER tables (rows pooled/male/female, columns method x strategy) per scenario."""

COMMAND = "attack-table"
HELP = "write the attack result tables (one RESULTS.md section per scenario) from score dirs"


def add_arguments(p):
    p.add_argument("--results", required=True, help="RESULTS.md to update (sections attack_<scenario>)")
    p.add_argument("--backend", default="plda", choices=["plda", "cosine"], help="scoring shown in the EER table")
    p.add_argument("--scenario", action="append", default=None,
                   help="only this scenario (repeatable); default: every scenario found")
    p.add_argument("score_dirs", nargs="+", help="score dirs written by steps/attack.sh (metrics.json)")


def run(args):
    from pydeid.attack.results import write_tables
    out = write_tables(args.score_dirs, args.results, backend=args.backend, scenarios=args.scenario)
    for scenario, body in out.items():
        print(f"## {scenario}\n{body}")
