"""`pydeid make-wavdir-data`: the Python behind egs/wavdir/s5 stage 0 (pydeid.corpora.wavdir)."""

COMMAND = "make-wavdir-data"
HELP = ("a folder of recordings (any libsndfile format, rate, channels) -> a Kaldi data dir without text, "
        "16 kHz mono working copies, pseudonymous ids; the id -> file map is a 0600 secret")
OUTPUTS = ("out_data",)


def add_arguments(p):
    p.add_argument("--spk-from", default="file", help="file: one speaker per recording; dirname: one per folder")
    p.add_argument("--audio-dir", required=True, help="where the 16 kHz mono working copies go (<utt>.wav)")
    p.add_argument("--secret", required=True, help="the id -> original file map (JSON, 0600, outside the data)")
    p.add_argument("wav_dir", help="the folder of recordings (read only)")
    p.add_argument("out_data", help="the data dir to write (wav.scp, utt2spk, spk2utt, utt2dur)")


def run(args):
    from pydeid.corpora.wavdir import build_wavdir

    d = build_wavdir(args.wav_dir, args.out_data, args.audio_dir, args.secret, args.spk_from)
    print(f"{args.out_data}: {len(d.utt2spk)} recordings, {len(d.spk2utt)} speakers, "
          f"{sum(d.utt2dur.values()) / 60:.1f} min at 16 kHz mono")
