"""`pydeid decode-whisper`: decode a data dir with the pretrained Whisper meter (pydeid.asr.whisper)."""

from ._decode import add_data_arguments, decode_or_merge

COMMAND = "decode-whisper"
HELP = ("decode a data dir with Whisper (tiny.en or base from installed packages; int8, beam 5, temperature 0, "
        "loop guards): <decode-dir>/{hyp.txt,text,words.ctm,guards.tsv,decode_whisper.json}; resumable; "
        "--merge joins split jobs")


def add_arguments(p):
    p.add_argument("--model", default="tiny.en", help="tiny.en | base")
    p.add_argument("--beam-size", type=int, default=5)
    p.add_argument("--cpu-threads", type=int, default=1, help="CTranslate2 threads per job")
    p.add_argument("--cache-dir", default=None,
                   help="where base's two package parts are joined (default $PYDEID_WHISPER_CACHE or "
                        "$XDG_CACHE_HOME/pydeid/whisper)")
    p.add_argument("--reuse", action="append", default=[],
                   help="results.jsonl of an earlier run: its utterances (same settings and audio) are not decoded "
                        "again (repeatable)")
    p.add_argument("--same-audio-as", nargs=2, action="append", default=[], metavar=("DATA", "DECODE_DIR"),
                   help="another condition's data dir and decode dir: an utterance whose audio is identical there "
                        "takes its hypothesis instead of a decode (repeatable)")
    add_data_arguments(p)


def run(args):
    from pydeid.asr.whisper_decode import decode_data_dir, merge_parts

    info = decode_or_merge(
        args, lambda d, o: decode_data_dir(d, o, model=args.model, beam_size=args.beam_size,
                                           cpu_threads=args.cpu_threads, cache_dir=args.cache_dir,
                                           reuse=args.reuse, same_audio_as=args.same_audio_as),
        merge_parts, COMMAND)
    print(f"{args.decode_dir}: {info['utterances']} utterances ({info['resumed_utterances']} kept from an earlier "
          f"run), {info['audio_seconds']:.1f} s of audio, RTF {info['rtf']} (whisper {info['model']}), "
          f"{info['guard_changed_utterances']} changed by a guard {info['guard_counts']}")
