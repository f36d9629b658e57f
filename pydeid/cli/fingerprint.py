"""`pydeid fingerprint`: one hex line for a step's inputs (utils/redo_on_new_inputs.sh keeps it beside the step's
output and redoes the output when a rerun's inputs differ)."""

COMMAND = "fingerprint"
HELP = "fingerprint of a step's inputs: the audio of data dirs, the content of files, option values"


def add_arguments(p):
    p.add_argument("--data", action="append", default=[], help="a data dir: its wav.scp/segments and every plain "
                   "audio file's size and modification time (repeatable)")
    p.add_argument("--file", action="append", default=[], help="a file: its content (repeatable)")
    p.add_argument("--value", action="append", default=[], help="an option value (repeatable)")


def run(args):
    import hashlib

    from pydeid.io import DataDir
    from pydeid.io.fingerprint import audio_fingerprint, file_sha
    parts = [f"data {audio_fingerprint(DataDir.read(d, validate=False))}" for d in args.data]
    parts += [f"file {file_sha(f)}" for f in args.file]
    parts += [f"value {v}" for v in args.value]
    print(hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16])
