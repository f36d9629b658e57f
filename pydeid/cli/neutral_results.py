"""`pydeid neutral-results`: the table of a recipe's neutral corpus in both modes (silence, spoken pseudonyms):
leak checks and pocketsphinx WER against each mode's own published transcript, from the exp dir of the speechocean762
recipe's stage 4b (exp/neutral)."""

COMMAND = "neutral-results"
HELP = "markdown table of the neutral corpus in both modes: leaks found and WER with speaker-bootstrap intervals"

OUTPUTS = ()


def add_arguments(p):
    p.add_argument("--exp", required=True, help="exp dir of the stage (silence/, spoken/, decode_<lm>_<mode>/, "
                                                "utt2subset)")
    p.add_argument("--lm", default="general", help="the LM name in the decode dirs (decode_<lm>_<mode>)")
    p.add_argument("--voice", default="?", help="name of the published conversion (row labels)")
    p.add_argument("--conversion", default=None, help="the converted data dir the modes were made from")
    p.add_argument("--utt2spk", default="data/test_wer/utt2spk", help="speakers of the scored utterances")
    p.add_argument("--tags", default=None, help="original tags: with --spoken-tags, count the surrogates that repeat "
                                               "an entity word or value of ANY utterance of the corpus")
    p.add_argument("--spoken-tags", default=None, help="tags.conll of the spoken-pseudonym data dir")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section 'so-neutral-corpus')")


def _per_utt(path):
    """utt -> (words, errors) from a scoring/per_utt file."""
    import re
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(\S+) words=(\d+) sub=(\d+) del=(\d+) ins=(\d+)", line)
        if m:
            out[m.group(1)] = {"words": int(m.group(2)), "sub": int(m.group(3)), "del": int(m.group(4)),
                               "ins": int(m.group(5))}
    return out


def _wer(per_utt, utts, utt2spk) -> str:
    from pydeid.asr.score import wer_bootstrap_ci
    utts = [u for u in utts if u in per_utt]
    words = sum(per_utt[u]["words"] for u in utts)
    if not words:
        return "- | 0"
    err = sum(per_utt[u]["sub"] + per_utt[u]["del"] + per_utt[u]["ins"] for u in utts)
    ci = wer_bootstrap_ci(per_utt, utts, utt2spk)
    c = f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else ""
    return f"{100.0 * err / words:.1f}{c} | {words}"


def _line(path, pattern: str) -> str | None:
    import re
    from pathlib import Path
    p = Path(path)
    if not p.exists():
        return None
    m = re.search(pattern, p.read_text())
    return m.group(0) if m else None


def _corpus_repeats(tags, spoken_tags) -> str:
    """mask-spoken refuses a surrogate saying an original of its own dialogue; across dialogues the text strategy
    decides (corpus-frequency draws move real values between speakers): this counts those."""
    from pydeid.io import read_conll
    from pydeid.mask.originals import Entity, leaks
    ents = [Entity(s.tokens[a:b]) for s in read_conll(tags) for a, b, _ in s.spans()]
    n, hits = 0, []
    for s in read_conll(spoken_tags):
        for a, b, _ in s.spans():
            n += 1
            if leaks(s.tokens[a:b], ents):
                hits.append(" ".join(s.tokens[a:b]))
    ex = ", ".join(sorted(set(hits))[:8])
    return (f"\nSurrogates that repeat an original entity word or value of any utterance of the corpus (the text "
            f"strategy's draws; within their own dialogue mask-spoken refuses them): {len(hits)} of {n}"
            + (f" (e.g. {ex})." if hits else "."))


def run(args):
    import json
    from pathlib import Path

    from pydeid.io import FormatError, read_kaldi_map

    exp = Path(args.exp)
    utt2spk = read_kaldi_map(args.utt2spk)
    ent = read_kaldi_map(exp / "entity_utts", require_value=False) if (exp / "entity_utts").exists() else {}
    leak = {"silence": _line(exp / "silence" / "verify" / "verify.txt",
                             r"leaks: audio \d+, text \d+, unverifiable \d+, original audio refs \d+"),
            "spoken": _line(exp / "spoken" / "verify" / "verify.txt",
                            r"leaks: audio \d+, uncovered entities \d+, unverifiable \d+, inserts saying an original "
                            r"\d+, original audio refs \d+")}
    rows = []
    for mode, label, ref in (
            ("silence", f"neutral, silence ({args.voice}; hidden words silenced)", "published: hidden words removed"),
            ("spoken", f"neutral, spoken pseudonyms ({args.voice}; hidden words said as surrogates)",
             "published: transformed text"),
            ("converted", f"reference: converted ({args.voice}), nothing hidden", "original text")):
        f = exp / f"decode_{args.lm}_{mode}" / "scoring" / "per_utt"
        if not f.exists():
            if mode != "converted":
                raise FormatError(f, None, "missing: decode and score the mode first")
            continue
        pu = _per_utt(f)
        check = f"verify-{'masking' if mode == 'silence' else 'spoken'}: {leak[mode] or 'not run'}" \
            if mode in leak else "-"
        rows.append(f"| {label} | {ref} | {len(pu)} | {_wer(pu, sorted(pu), utt2spk)} | {check} |")
    rep = {}
    for m in ("silence", "spoken"):
        f = exp / m / "report.json"
        rep[m] = json.loads(f.read_text()) if f.exists() else {}
    s, p = rep["silence"], rep["spoken"]
    out = ["| corpus | scored against | utterances | WER % [95 % CI] | words | leak check |",
           "|---|---|---|---|---|---|", *rows, ""]
    out.append(f"pocketsphinx en-us, {args.lm} LM, on the {len(ent)} test utterances with a hidden entity (of "
               f"{len(utt2spk)} in the neutral corpus, {len(set(utt2spk.values()))} speakers: the utility subset "
               f"data/test_wer and every test utterance with a hidden entity; the other utterances are the same audio "
               f"and text in both modes). 95 % intervals: speaker bootstrap, 1000 resamples, seed 0 "
               f"(pydeid.asr.score). Silence: {s.get('entities', '?')} entities {s.get('by_type', '')} hidden "
               f"({s.get('hidden', '')}), {s.get('dropped', '?')} utterances dropped as untimed. Spoken: "
               f"{p.get('inserts', '?')} inserts, {p.get('stretch_clamped', '?')} at a stretch limit, duration change "
               f"{p.get('duration_change_s', '?')} s. Voices: {args.conversion or args.voice}. The leak checks cover "
               f"every utterance of the corpus.")
    if args.tags and args.spoken_tags:
        out.append(_corpus_repeats(args.tags, args.spoken_tags))
    print("\n".join(out))
    if args.results:
        from pydeid.report import update_results_section
        update_results_section(args.results, "so-neutral-corpus", "\n".join(out) + "\n",
                               title="Neutral corpus in both modes (silence, spoken pseudonyms): leaks and WER")
    return 0
