#!/usr/bin/env python3
# Kaldi's utils/filter_scp.pl: print the lines of <in.scp> (or stdin) whose field <n> (default 1) is among the
# first fields of <id-list>; with --exclude, the lines whose field is not. Input order is kept.
#   filter_scp.pl [--exclude] [-f <n>] <id-list> [<in.scp>] > out.scp
import sys

USAGE = "Usage: filter_scp.pl [--exclude] [-f <field>] <id-list> [<in.scp>] > out.scp"


def main(argv):
    exclude, field, args = False, 1, list(argv)
    while args and args[0].startswith("-") and args[0] != "-":
        a = args.pop(0)
        if a == "--exclude":
            exclude = True
        elif a == "-f" and args:
            field = int(args.pop(0))
        elif a.startswith("-f") and a[2:].isdigit():
            field = int(a[2:])
        else:
            print(f"filter_scp.pl: unknown option {a}\n{USAGE}", file=sys.stderr)
            return 1
    if not 1 <= len(args) <= 2 or field < 1:
        print(USAGE, file=sys.stderr)
        return 1
    with open(args[0], encoding="utf-8") as f:
        ids = {line.split()[0] for line in f if line.strip()}
    fh = open(args[1], encoding="utf-8") if len(args) == 2 and args[1] != "-" else sys.stdin
    out = sys.stdout
    for lineno, line in enumerate(fh, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < field:
            print(f"filter_scp.pl: line {lineno} has fewer than {field} fields: {line.rstrip()!r}", file=sys.stderr)
            return 1
        if (parts[field - 1] in ids) != exclude:
            out.write(line if line.endswith("\n") else line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
