"""`pydeid attack-plan`: the attackers' conversions and attacks of the named scenarios, one line each, for a
recipe to run (pydeid.attack.scenarios.attacker_plan). Every attacker conversion starts from the ORIGINAL
training or enrolment dir.

Lines (space-separated; '-' for an empty field):
  vtln <shifted 0|1> <src> <strategy>:<seed>:<out> ...        VTLN outputs of one input, for one pass
  convert <method> <strategy> <seed> <shifted 0|1> <src> <out>  other methods
  attack <scenario> <name> <method> <strategy> <train|-> <model|-> <enroll> <trial>
"""

COMMAND = "attack-plan"
HELP = "list the attackers' conversions (from original audio) and attacks of the given scenarios"


def add_arguments(p):
    p.add_argument("--scenarios", required=True,
                   help="space-separated: original ignorant lazy-informed semi-informed parameter-shifted "
                        "informed-same-draws")
    p.add_argument("--voice-configs", required=True, help='method:strategy pairs, e.g. "voicemask:- vtln:2"')
    p.add_argument("--seed", type=int, required=True, help="the publisher's seed (of the published trial set)")
    p.add_argument("--attacker-seed", type=int, required=True, help="the attackers' own seed (not --seed)")
    p.add_argument("--train", required=True, help="the attacker's ORIGINAL training data dir")
    p.add_argument("--enroll", required=True, help="the ORIGINAL enrolment data dir")
    p.add_argument("--trial", required=True, help="published trial dirs are <trial>_<method><strategy>; "
                   "original: <trial> itself")
    p.add_argument("--model", required=True, help="the attacker model trained on original speech")


def run(args):
    from pydeid.attack.scenarios import UnknownScenario, attacker_plan
    from pydeid.io import FormatError
    vcs = []
    for vc in args.voice_configs.split():
        m, sep, st = vc.partition(":")
        if not sep or not m or not st:
            raise FormatError("--voice-configs", None, f"expected method:strategy, got '{vc}'")
        vcs.append((m, st))
    try:
        convs, attacks = attacker_plan(args.scenarios.split(), vcs, args.seed, args.attacker_seed, args.train,
                                       args.enroll, args.trial, args.model)
    except (UnknownScenario, ValueError) as e:
        raise FormatError("--scenarios", None, str(e)) from None
    groups: dict[tuple, list[str]] = {}
    for c in convs:
        if c.method == "vtln":
            groups.setdefault((int(c.shifted), c.src), []).append(f"{c.strategy}:{c.seed}:{c.out}")
        else:
            print(f"convert {c.method} {c.strategy} {c.seed} {int(c.shifted)} {c.src} {c.out}")
    for (shifted, src), specs in groups.items():
        print(f"vtln {shifted} {src} {' '.join(specs)}")
    for a in attacks:
        print(f"attack {a.scenario} {a.name} {a.method} {a.strategy} {a.train or '-'} {a.model or '-'} {a.enroll} "
              f"{a.trial}")
