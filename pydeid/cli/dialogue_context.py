"""`pydeid dialogue-context`: add to a data dir's tags the spans its dialogues show (a number read out over several
turns, the letters beside a spelled name, later mentions of a tagged name). tag-entities does this itself on a
whole data dir; steps/tag_entities.sh --nj N runs it once over the merged tags, since its jobs split the speakers
of a dialogue apart."""

COMMAND = "dialogue-context"
HELP = "add the spans a dialogue shows (numbers over several turns, spelled names, later name mentions) to tags"
OUTPUTS = ("out_conll",)


def add_arguments(p):
    p.add_argument("--dialogue-mode", default="auto",
                   choices=["auto", "utt2dialogue", "strip-speaker", "regex", "utterance", "speaker"],
                   help="how utterances group into dialogues (as transform-text)")
    p.add_argument("--dialogue-sep", default="-")
    p.add_argument("--dialogue-regex", default=None)
    p.add_argument("--uncased-input", action="store_true", help="the tokens are read lower-cased (as tag-entities)")
    p.add_argument("data", help="data dir whose utt2spk / utt2dialogue give the dialogues")
    p.add_argument("in_conll", help="tags of the data dir's utterances (tag-entities output)")
    p.add_argument("out_conll", help="the same tags with the dialogue's spans added (detector 'dialogue')")


def run(args):
    from pydeid.io import FormatError
    from pydeid.io.conll import read_conll, write_conll
    from pydeid.text.spans import Span

    from .tag_entities import _with_dialogue_context, tag_sentences

    sents = read_conll(args.in_conll)
    for k, s in enumerate(sents):
        if not s.id:
            raise FormatError(args.in_conll, None, f"sentence {k + 1} has no '# id' line (utterance id)")
    items = [(s.id, s.tokens) for s in sents]
    seen = [[t.lower() for t in s.tokens] if args.uncased_input else list(s.tokens) for s in sents]
    spans = []
    for s in sents:
        det = [x[0] if x else "-" for x in (s.extra or [[]] * len(s.tokens))]
        spans.append([Span(a, b, t, set(det[a].split("+")) - {"-"}) for a, b, t in s.spans()])
    spans = _with_dialogue_context(args.data, items, seen, spans, args)
    out = tag_sentences(items, spans)
    write_conll(args.out_conll, out)
    added = sum(1 for sp in spans for x in sp if "dialogue" in x.detectors)
    print(f"dialogue context: {added} spans added or widened in {len(out)} utterances")
    return 0
