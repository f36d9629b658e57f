"""`pydeid audio-entity-recall`: the share of gold sensitive words whose audio a chain hides, and its cost
(pydeid.report.audio_entity_recall)."""

COMMAND = "audio-entity-recall"
HELP = ("share of gold sensitive words whose audio the masking would hide (>= --min-overlap of the gold word's "
        "time) and the share of non-sensitive speech time hidden, with 95 %% bootstrap intervals")


def add_arguments(p):
    p.add_argument("--pad", type=float, default=0.1, help="the masking's --pad (seconds each side)")
    p.add_argument("--min-overlap", type=float, default=0.5, help="share of a gold word's time that must be hidden")
    p.add_argument("--tags", dest="tagset", default="all", help="entity types hidden (all: every type)")
    p.add_argument("--json", default=None, help="write the summary (and the missed words) here")
    p.add_argument("--results", default=None, help="RESULTS.md to update (section audio-entity-recall)")
    p.add_argument("--name", default=None, help="row label in RESULTS.md")
    p.add_argument("gold_tags", help="gold BIO tags of the words really spoken")
    p.add_argument("gold_ctm", help="gold word times")
    p.add_argument("data", help="the data dir the chain masked (its text pairs with the chain's tags)")
    p.add_argument("chain_tags", help="the tags the chain detected")
    p.add_argument("chain_ctm", help="the word times the chain masked with")


def run(args):
    import json
    from pathlib import Path

    from pydeid.report.audio_entity_recall import (chain_intervals, format_summary, gold_words, score_utterances,
                                                   summarize)

    gold = gold_words(args.gold_tags, args.gold_ctm, args.tagset)
    per = score_utterances(gold, chain_intervals(args.data, args.chain_tags, args.chain_ctm, args.pad, args.tagset),
                           args.min_overlap)
    s = summarize(per)
    print(f"{args.name or args.data}: {format_summary(s)}")
    if args.json:
        Path(args.json).write_text(json.dumps(s, indent=1) + "\n")
    if args.results:
        from pydeid.report.tables import upsert_results_row
        row = [args.name or args.data, str(s["utterances"]), f"{s['hidden']}/{s['sensitive_tokens']}",
               f"{s['recall_pct']:.1f} [{s['recall_ci'][0]:.1f}, {s['recall_ci'][1]:.1f}]",
               f"{s['cost_pct']:.1f} [{s['cost_ci'][0]:.1f}, {s['cost_ci'][1]:.1f}]", str(s["dropped_utterances"]),
               f"{args.pad:g}"]
        upsert_results_row(args.results, "audio-entity-recall",
                           ["chain", "utterances", "gold sensitive words hidden", "audio entity recall % [95 %]",
                            "cost: non-sensitive speech hidden % [95 %]", "dropped utterances", "pad (s)"], row,
                           "Audio entity recall: gold sensitive words whose audio the masking hides",
                           f"A gold word counts as hidden when the masked intervals cover >= "
                           f"{100 * args.min_overlap:.0f} % of its gold time; 95 % bootstrap over utterances.")
