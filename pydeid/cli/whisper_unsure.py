"""`pydeid whisper-unsure`: add the words Whisper was unsure of to the detectors' tags (pydeid.asr.whisper_unsure)."""

OUTPUTS = ("out",)
COMMAND = "whisper-unsure"
HELP = ("tag the untagged hypothesis words whose CTM confidence (Whisper's word probability) is below --below, and "
        "--next neighbours of them and of each entity, so that the masking hides them like detected entities")


def add_arguments(p):
    p.add_argument("--below", type=float, required=True, help="confidence threshold in [0, 1] (0: none added)")
    p.add_argument("--next", dest="next_words", type=int, default=0,
                   help="also tag this many words either side of each unsure run and each entity")
    p.add_argument("tags", help="the detectors' tags on the hypothesis (tags.conll)")
    p.add_argument("ctm", help="the hypothesis word CTM with confidences (steps/transcribe.sh wrd_ali/ctm)")
    p.add_argument("out", help="output tags.conll")


def run(args):
    from pydeid.asr.whisper_unsure import tag_unsure

    n = tag_unsure(args.tags, args.ctm, args.out, args.below, args.next_words)
    print(f"{args.out}: {n['added']} of {n['tokens']} words added as unsure (confidence < {args.below:g}, "
          f"{args.next_words} neighbours) in {n['utterances_changed']} of {n['sentences']} utterances")
