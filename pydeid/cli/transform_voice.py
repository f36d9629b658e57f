"""`pydeid transform-voice`: convert the voices of a Kaldi data dir (VoiceMask, VTLN-based conversion, McAdams).

Parts (steps/transform_voice.sh runs them as: plan once, convert per split through $cmd, assemble once):
  plan      draw targets/parameters per utterance (secret, mode 0600, in <exp-dir>/secrets), build the VTLN pool;
  convert   write <wav-dir>/<utt>.wav for the utterances of --split-data (default: all), resumable;
  assemble  write <out-data> (wav.scp -> converted audio, absolute paths; other files carried over).
`--part all` (default) does the three in one process.
"""

from pathlib import Path

COMMAND = "transform-voice"
HELP = "convert the voices of a data dir (voicemask | vtln | mcadams, pydeid.voice.registry) into a new data dir"


def outputs(args):
    """What a failed run removes when it created it (pydeid.cli.run_parsed); a convert job is one of several
    writing the same dirs in parallel: it never removes them."""
    return [] if args.part == "convert" else [args.out_data, args.wav_dir, args.exp_dir]


def add_arguments(p):
    from pydeid.voice import registry
    p.add_argument("--method", choices=registry.names(), default="voicemask",
                   help="the conversion method (pydeid.voice.registry; more with PYDEID_VOICE_METHODS=<module>)")
    p.add_argument("--strategy", type=int, choices=[1, 2, 3], default=3,
                   help="vtln targets: 1 one fixed target, 2 one random target per source speaker, "
                        "3 one random target per utterance (voicemask/mcadams draw per utterance)")
    p.add_argument("--target-selection", default=None,
                   choices=["random_per_utterance", "per_speaker", "per_gender_pseudo", "pooled_pseudo"],
                   help="target-based methods (pydeid.voice.target_selection): which pool voices each utterance is "
                        "converted towards; overrides the config's target_selection and, for vtln/voicemask, "
                        "--strategy (pooled_pseudo: vtln n_average, default 4)")
    p.add_argument("-T", "--max-targets", type=int, default=100, help="size of the vtln target pool")
    p.add_argument("--target-gender", choices=["same", "any"], default=None,
                   help="vtln: draw targets among the pool speakers of the source speaker's gender (same; from "
                        "spk2gender/utt2gender of in-data and --target-data) or the whole pool (any); default: the "
                        "config's target_gender, else same")
    p.add_argument("--target-data", help="data dir of target speakers (required by vtln)")
    from pydeid.io.publisher_key import SEED_HELP
    p.add_argument("--seed", default="0", help=SEED_HELP + " (the key in <exp-dir>/secrets)")
    p.add_argument("--suffix", default=None, help="out-data defaults to <in-data><suffix> (default _mod_<method>)")
    p.add_argument("--exp-dir", default=None,
                   help="holds secrets/ (the plan, mode 0600), the vtln pool and logs; default exp/transform_voice/"
                        "<out-data name>; must lie outside out-data")
    p.add_argument("--wav-dir", default=None, help="where converted wavs go (default <out-data>/wav)")
    p.add_argument("--pool-file", default=None,
                   help="vtln, frame_select: a target pool (matching set) shared between runs: reused when it was "
                        "built from the same target data, speakers and settings (recorded in <pool-file>.json), "
                        "else built and shared there")
    p.add_argument("--targets-file", default=None,
                   help="reuse the mapping/parameters of a previous plan (a secret json written by a former run)")
    p.add_argument("--resume", action="store_true", help="skip utterances whose output wav already exists")
    p.add_argument("--config", default=None, help="YAML with method parameters (conf/voice/<method>.yaml)")
    p.add_argument("--f0-method", choices=["dio", "harvest"], default=None, help="WORLD F0 estimator")
    p.add_argument("--frame-period", type=float, default=None,
                   help="WORLD frame period in ms (default 10 for voicemask, 5 for vtln)")
    p.add_argument("--fft-size", type=int, default=None, help="WORLD FFT size (default from pyworld)")
    p.add_argument("--part", choices=["all", "plan", "convert", "assemble"], default="all")
    p.add_argument("--split-data", default=None, help="convert part: the split of in-data this job converts")
    p.add_argument("--also", action="append", default=[], metavar="EXP_DIR=OUT_DATA",
                   help="convert part, vtln: also write the output planned in EXP_DIR (its own --part plan run on "
                        "the same in-data) in the same pass: each utterance is analysed once for all outputs")
    p.add_argument("--ali-dir", default=None,
                   help="vtln with classes phones, frame_select with match segments: the phone alignment of "
                        "in-data (steps/align.sh --phones true; <dir>/phn_ali/ctm)")
    p.add_argument("--target-ali-dir", default=None,
                   help="vtln with classes phones, frame_select with match segments: the phone alignment of "
                        "--target-data (builds the pool)")
    p.add_argument("in_data")
    p.add_argument("out_data", nargs="?")


def _load_config(path, method):
    """The method's YAML config as flat options (pydeid.voice.configs: VTLN's groups flattened): a key the method
    does not have (a typo) or a flat VTLN option is an error naming the file and line."""
    from pydeid.voice.configs import load_config
    return load_config(path, method)


def _check_params(method, params, where):
    """Build the method's parameters once before anything is written: a bad value names the config file."""
    from pydeid.io import FormatError
    from pydeid.voice import registry
    try:
        return registry.get(method).build(**params)
    except (TypeError, ValueError) as e:
        raise FormatError(where, None, f"{method}: {e}") from None


def _check_resume(prev: dict, plan_path, method, strategy, seed, params, world) -> None:
    """--resume continues the run that made the plan: another seed, strategy or config would relabel old draws."""
    import json

    from pydeid.io import FormatError
    from pydeid.voice import registry
    now = {"method": method, "strategy": strategy, "seed": seed, "params": json.loads(json.dumps(params)),
           "world": world.to_dict()}
    for key, val in now.items():
        old = prev.get(key)
        if key == "strategy" and not registry.get(method).speaker_targets:
            continue
        if old != val:
            raise FormatError(plan_path, None, f"--resume: the plan was made with {key} {json.dumps(old)}, this run "
                                               f"asks for {json.dumps(val)}; rerun with the plan's settings, or into "
                                               f"another --exp-dir and output")


_PHONE_OPTION = {"vtln": "classes phones", "frame_select": "match segments"}   # the options needing phones


def _phone_alignment(args, in_dir):
    """classes phones (vtln) or match segments (frame_select): the PhoneAlignment of in-data (--ali-dir), covering
    every utterance; the plan part also needs --target-ali-dir. A missing option or file is one line naming it."""
    import logging

    from pydeid.io import DataDir, UsageError
    from pydeid.voice.vtln.phone_classes import PhoneAlignment
    where = f"{args.config or '--config'}: {args.method} {_PHONE_OPTION.get(args.method, '')}"
    if not args.ali_dir:
        raise UsageError("--ali-dir", f"{where} needs the phone alignment of {in_dir} (steps/align.sh "
                                      f"--phones true <data> en-us <ali-dir>; --ali-dir <ali-dir>)")
    if args.part in ("all", "plan") and not args.target_ali_dir:
        raise UsageError("--target-ali-dir", f"{where} needs the phone alignment of the target data "
                                             f"{args.target_data} (--target-ali-dir)")
    ali = PhoneAlignment.read(args.ali_dir, "--ali-dir")
    utts = DataDir.read(args.split_data).utts if args.split_data else DataDir.read(in_dir).utts
    ali.check_covers(utts)
    if ali.failed & set(utts):
        logging.getLogger("transform-voice").warning(
            "%d utterance(s) the aligner failed on are converted with the pooled class (global warp)",
            len(ali.failed & set(utts)))
    return ali


def _target_selection(args, method, conf: dict) -> str | None:
    """The target selection asked for (--target-selection, else the config's), applied to the options: a frame-pool
    method keeps it among its parameters; vtln gets the equivalent strategy (and n_average for pooled_pseudo), a
    pitch-target voicemask the strategy. None when neither asks. A method without targets is an error."""
    from pydeid.io import FormatError
    from pydeid.voice import target_selection as TS
    where = "--target-selection" if args.target_selection else (args.config or "--config")
    if method.frame_pool is not None:
        if args.target_selection:
            conf["target_selection"] = args.target_selection
        return conf.get("target_selection")
    mode = args.target_selection or conf.pop("target_selection", None)
    if mode is None:
        return None
    try:
        TS.check(mode)
    except ValueError as e:
        raise FormatError(where, None, str(e)) from None
    if method.speaker_targets:
        args.strategy, n_avg = TS.vtln_equivalent(mode, int(conf.get("n_average", 1)))
        if n_avg > 1:
            conf["n_average"] = n_avg
    elif conf.get("pitch_mode") == "target" and mode != "pooled_pseudo":
        args.strategy = TS.STRATEGY[mode]
    else:
        raise FormatError(where, None, f"target_selection {mode}: {args.method} "
                                       f"{'has no pooled pseudo-speaker' if conf.get('pitch_mode') else 'has no target voices'}")
    return mode


def _frame_pool(args, method, params, world, path, progress, with_phones=False):
    """(pool speakers, their genders) of a frame-pool method, building its matching set into `path` (kept on
    --resume); with_phones: with the phone alignment of --target-data (match segments)."""
    import logging

    from pydeid.io import DataDir, FormatError, UsageError
    from pydeid.voice import convert as C
    from pydeid.voice.vtln.phone_classes import CTM_NAME, PhoneAlignment
    if not args.target_data:
        raise UsageError("--target-data", f"--method {args.method} needs the data dir of the target speakers")
    td = DataDir.read(args.target_data)
    if not (args.resume and path.exists()):
        speakers = C.choose_pool(td.speakers, args.max_targets, args.seed)
        key = C.frame_pool_key(td, speakers, params, world,
                               Path(args.target_ali_dir) / CTM_NAME if with_phones else None)
        if args.pool_file and C.shared_pool_matches(args.pool_file, key):
            C.copy_pool(args.pool_file, path)   # the same matching set another output of this run already built
            logging.getLogger("transform-voice").info("frame-select pool: reused %s", args.pool_file)
        else:
            phones = PhoneAlignment.read(args.target_ali_dir, "--target-ali-dir") if with_phones else None
            try:
                method.frame_pool(args.target_data, speakers, params, world, progress, phones=phones).save(path)
            except ValueError as e:
                raise FormatError(Path(args.target_data) / "utt2spk", None, str(e)) from None
            if args.pool_file:
                C.share_pool(path, args.pool_file, key)
    from pydeid.voice.frame_select import FramePool
    return FramePool.speaker_names(path), C.speaker_genders(td)


def run(args):
    import logging

    from pydeid.io import DataDir, FormatError, UsageError, check_data_audio, check_secret_path
    from pydeid.voice import convert as C
    from pydeid.voice import registry
    from pydeid.voice.world import WorldConfig

    log = logging.getLogger("transform-voice")
    in_dir = Path(args.in_data)
    suffix = args.suffix if args.suffix is not None else f"_mod_{args.method}"
    out_dir = Path(args.out_data) if args.out_data else in_dir.parent / (in_dir.name + suffix)
    out_dir = out_dir.resolve()
    exp_dir = Path(args.exp_dir or Path("exp") / "transform_voice" / out_dir.name).resolve()
    if exp_dir == out_dir or out_dir in exp_dir.parents:
        raise FormatError(exp_dir, None, "--exp-dir (secrets) must lie outside the output data dir")
    wav_dir = Path(args.wav_dir).resolve() if args.wav_dir else out_dir / "wav"
    plan_path = exp_dir / "secrets" / C.PLAN_NAME
    pool_path = exp_dir / C.POOL_NAME
    check_secret_path(plan_path, forbidden_dirs=[out_dir, wav_dir, in_dir])  # before anything is written
    from pydeid.io.publisher_key import resolve_seed
    args.seed = resolve_seed(args.seed, exp_dir / "secrets", "voice-plan", [out_dir, wav_dir, in_dir])
    method = registry.get(args.method)
    if method.speaker_targets and args.part in ("all", "plan") and not args.target_data:
        raise UsageError("--target-data", f"--method {args.method} needs the data dir of the target speakers")

    conf = _load_config(args.config, args.method) if args.config else {}
    world_conf = dict(conf.pop("world", {}) or {})
    for key, val in (("f0_method", args.f0_method), ("frame_period", args.frame_period),
                     ("fft_size", args.fft_size)):
        if val is not None:
            world_conf[key] = val
    if method.frame_period is not None:
        world_conf.setdefault("frame_period", method.frame_period)
    try:
        world = WorldConfig(**world_conf)
    except (TypeError, ValueError) as e:
        raise FormatError(args.config or "--f0-method/--frame-period/--fft-size", None, f"world: {e}") from None
    # k: VTLN's pool option; frame selection's k is a method parameter (popped here it was silently ignored)
    k = int(conf.pop("k", 8)) if method.frame_pool is None else int(conf.get("k", 4))
    target_gender = args.target_gender or conf.pop("target_gender", None) or "same"
    conf.pop("target_gender", None)
    selection = _target_selection(args, method, conf)
    method_params = conf  # the rest: VoiceMaskParams / McAdamsParams / VtlnParams fields
    built = _check_params(args.method, method_params, args.config or "--method")
    progress = C.show_progress()
    phones = None   # classes phones: the source set's PhoneAlignment (plan: checked; convert: the frames' labels)
    if method.phone_classes(method_params) and args.part != "assemble":
        phones = _phone_alignment(args, in_dir)

    if args.part in ("all", "plan"):
        full = DataDir.read(in_dir)
        check_data_audio(in_dir)  # every file opens, holds samples, agrees with utt2dur/segments: before any write
        if args.resume and plan_path.exists() and not args.targets_file:
            _check_resume(C.load_plan(plan_path), plan_path, args.method, args.strategy, args.seed, method_params,
                          world)
            # keep every draw of the interrupted run; utterances new to the data dir get their own draws
            args.targets_file = str(plan_path)
            log.info("resume: keeping the existing plan %s", plan_path)
        elif plan_path.exists() and not args.targets_file:
            # a redo is fine, another seed into the same output would silently replace its voice plan
            old_seed = C.load_plan(plan_path).get("seed")
            if old_seed is not None and old_seed != args.seed:
                raise FormatError(plan_path, None, f"holds the voice plan of a conversion made with --seed {old_seed}; "
                                  f"this run asks for --seed {args.seed}: use another exp dir and output, or delete "
                                  f"{plan_path.parent.parent} first")
        pool, pool_genders = None, None
        if method.speaker_targets:
            if not args.target_data:
                raise FormatError(in_dir, None, f"--method {args.method} needs --target-data <data dir of target speakers>")
            if not (args.resume and pool_path.exists()):
                tphones = None
                if phones is not None:
                    from pydeid.voice.vtln.phone_classes import CTM_NAME, PhoneAlignment
                    from pydeid.voice.vtln import build_vtln_params
                    tphones = (PhoneAlignment.read(args.target_ali_dir, "--target-ali-dir"),
                               build_vtln_params(**method_params).phone_min_frames)
                key = C.pool_key(args.target_data, args.max_targets, args.seed, k, world,
                                 None if tphones is None else (Path(args.target_ali_dir) / CTM_NAME, tphones[1]))
                if args.pool_file and C.shared_pool_matches(args.pool_file, key):
                    C.copy_pool(args.pool_file, pool_path)
                    log.info("vtln target pool: reused %s", args.pool_file)
                else:
                    targets = C.build_vtln_pool(args.target_data, args.max_targets, args.seed, k, world,
                                                progress=progress, phones=tphones)
                    targets.save(pool_path)
                    log.info("vtln target pool: %d speakers -> %s", len(targets.models), pool_path)
                    if args.pool_file:
                        C.share_pool(pool_path, args.pool_file, key)
            from pydeid.voice.vtln import VtlnTargets
            pool = sorted(VtlnTargets.load(pool_path).models)
            ss = method_params.get("ss_dims", 0)
            if ss and ss > len(pool) - 1:   # the speaker subspace of n pool speakers has at most n - 1 directions
                raise FormatError(args.config, None, f"vtln: ss_dims {ss} exceeds the pool's speaker subspace "
                                                     f"({len(pool) - 1} dimensions: {len(pool)} speakers)")
            pool_genders = C.speaker_genders(DataDir.read(args.target_data))
        if method.frame_pool is not None:
            pool, pool_genders = _frame_pool(args, method, built, world, pool_path.parent / C.FRAME_POOL_NAME,
                                             progress, with_phones=phones is not None)
        pitch_pool = None
        if method.pitch_pool(built):
            if not args.target_data:
                raise FormatError(args.config, None, f"{args.method} pitch_mode target needs --target-data")
            pitch_pool = C.build_pitch_pool(args.target_data, args.max_targets, args.seed, world)
            pool, pool_genders = sorted(pitch_pool), C.speaker_genders(DataDir.read(args.target_data))
        previous = C.load_plan(Path(args.targets_file)) if args.targets_file else None
        if previous and previous.get("method") != args.method:
            raise FormatError(args.targets_file, None,
                              f"plan was made for method {previous.get('method')}, not {args.method}")
        if previous:
            method_params = previous.get("params", method_params)
        plan = C.make_plan(full, args.method, args.strategy, args.seed, method_params, pool, previous,
                           pool_genders=pool_genders, target_gender=target_gender)
        if pitch_pool is not None:
            plan["target_log_f0"] = {**(previous or {}).get("target_log_f0", {}), **pitch_pool}
        plan["world"] = world.to_dict()
        if selection:
            plan["target_selection"] = selection
        C.save_plan(plan, plan_path, out_dir, wav_dir)
        log.info("plan (secret, mode 0600): %s", plan_path)

    if args.part in ("all", "convert"):
        full = DataDir.read(in_dir)
        plan = C.load_plan(plan_path)
        world = WorldConfig(**plan.get("world", {}))
        utts = DataDir.read(args.split_data).utts if args.split_data else full.utts
        if args.part == "convert":
            check_data_audio(in_dir, utts)
        if args.also:
            outputs = [(plan, wav_dir, pool_path)]
            for item in args.also:
                exp_x, sep, out_x = item.partition("=")
                if not sep:
                    raise FormatError(None, None, f"--also {item}: expected EXP_DIR=OUT_DATA")
                exp_x = Path(exp_x).resolve()
                outputs.append((C.load_plan(exp_x / "secrets" / C.PLAN_NAME), Path(out_x).resolve() / "wav",
                                exp_x / C.POOL_NAME))
            C.convert_vtln_outputs(full, utts, outputs, resume=args.resume, progress=progress, phones=phones)
        else:
            C.convert_utterances(full, utts, plan, wav_dir, world, pool_path=pool_path, resume=args.resume,
                                 progress=progress, phones=phones)

    if args.part in ("all", "assemble"):
        d = C.assemble(in_dir, out_dir, wav_dir)
        print(f"{out_dir}: {len(d.utt2spk)} utterances converted with {args.method}")
    return 0
