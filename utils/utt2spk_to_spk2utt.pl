#!/usr/bin/env python3
# Kaldi's utils/utt2spk_to_spk2utt.pl: utt2spk (file argument or stdin) -> spk2utt on stdout.
# Speakers in order of first appearance, utterances in input order (sorted input gives sorted output).
import sys


def main(argv):
    if len(argv) > 1:
        print("Usage: utt2spk_to_spk2utt.pl [<utt2spk>] > spk2utt", file=sys.stderr)
        return 1
    fh = open(argv[0], encoding="utf-8") if argv and argv[0] != "-" else sys.stdin
    spk2utt = {}
    for lineno, line in enumerate(fh, 1):
        f = line.split()
        if not f:
            continue
        if len(f) != 2:
            print(f"utt2spk_to_spk2utt.pl: bad line {lineno}: {line.rstrip()!r} (expected '<utt> <spk>')",
                  file=sys.stderr)
            return 1
        spk2utt.setdefault(f[1], []).append(f[0])
    out = sys.stdout
    for spk, utts in spk2utt.items():
        out.write(spk + " " + " ".join(utts) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
