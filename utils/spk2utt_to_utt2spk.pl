#!/usr/bin/env python3
# Kaldi's utils/spk2utt_to_utt2spk.pl: spk2utt (file argument or stdin) -> utt2spk on stdout, in input order.
import sys


def main(argv):
    if len(argv) > 1:
        print("Usage: spk2utt_to_utt2spk.pl [<spk2utt>] > utt2spk", file=sys.stderr)
        return 1
    fh = open(argv[0], encoding="utf-8") if argv and argv[0] != "-" else sys.stdin
    for lineno, line in enumerate(fh, 1):
        f = line.split()
        if not f:
            continue
        if len(f) < 2:
            print(f"spk2utt_to_utt2spk.pl: bad line {lineno}: {line.rstrip()!r} (expected '<spk> <utt1> ...')",
                  file=sys.stderr)
            return 1
        for utt in f[1:]:
            sys.stdout.write(f"{utt} {f[0]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
