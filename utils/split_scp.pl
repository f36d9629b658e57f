#!/usr/bin/env python3
# Kaldi's utils/split_scp.pl:
#   split_scp.pl [--utt2spk=<utt2spk>] <in.scp> <out1.scp> [<out2.scp> ...]
#   split_scp.pl -j <num-jobs> <job-id> [--one-based] [--utt2spk=<utt2spk>] <in.scp> [<out.scp>]
# Contiguous parts of near-equal size (line counts; with --utt2spk whole speakers, balanced by line count).
# With -j only part <job-id> (0-based unless --one-based) is written, to <out.scp> or stdout.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

USAGE = ("Usage: split_scp.pl [--utt2spk=<utt2spk>] <in.scp> <out1.scp> [<out2.scp> ...]\n"
         "   or: split_scp.pl -j <num-jobs> <job-id> [--one-based] [--utt2spk=<utt2spk>] <in.scp> [<out.scp>]")


def contiguous_parts(sizes, n):
    # the same balancing as utils/split_data.sh (pydeid.io.datadir_ops.contiguous_split)
    from pydeid.io.datadir_ops import contiguous_split
    return contiguous_split(sizes, n)


def main(argv):
    num_jobs = job_id = None
    one_based = False
    utt2spk_file = None
    args = list(argv)
    while args and args[0].startswith("-") and args[0] != "-":
        a = args.pop(0)
        if a == "-j" and len(args) >= 2:
            num_jobs, job_id = int(args.pop(0)), int(args.pop(0))
        elif a == "--one-based":
            one_based = True
        elif a.startswith("--utt2spk="):
            utt2spk_file = a.split("=", 1)[1]
        elif a == "--utt2spk" and args:
            utt2spk_file = args.pop(0)
        else:
            print(f"split_scp.pl: unknown option {a}\n{USAGE}", file=sys.stderr)
            return 1
    if not args:
        print(USAGE, file=sys.stderr)
        return 1
    inscp, outs = args[0], args[1:]
    if num_jobs is not None:
        if one_based:
            job_id -= 1
        if len(outs) > 1 or not 0 <= job_id < num_jobs:
            print(f"split_scp.pl: bad -j usage (job {job_id} of {num_jobs}, {len(outs)} outputs)\n{USAGE}",
                  file=sys.stderr)
            return 1
        n = num_jobs
    else:
        if not outs:
            print(USAGE, file=sys.stderr)
            return 1
        n = len(outs)
    fh = sys.stdin if inscp == "-" else open(inscp, encoding="utf-8")
    lines = [l if l.endswith("\n") else l + "\n" for l in fh if l.strip()]
    if utt2spk_file:
        utt2spk = {}
        with open(utt2spk_file, encoding="utf-8") as f:
            for l in f:
                p = l.split()
                if len(p) == 2:
                    utt2spk[p[0]] = p[1]
        groups = []  # runs of consecutive lines of one speaker
        for l in lines:
            utt = l.split()[0]
            if utt not in utt2spk:
                print(f"split_scp.pl: no speaker for utterance {utt} in {utt2spk_file}", file=sys.stderr)
                return 1
            spk = utt2spk[utt]
            if groups and groups[-1][0] == spk:
                groups[-1][1].append(l)
            else:
                if any(g[0] == spk for g in groups):
                    print(f"split_scp.pl: the lines of speaker {spk} are not contiguous in {inscp} "
                          f"(sort it with LC_ALL=C)", file=sys.stderr)
                    return 1
                groups.append((spk, [l]))
        if len(groups) < n:
            print(f"split_scp.pl: refusing to split data because number of speakers {len(groups)} is less "
                  f"than the number of output .scp files {n}", file=sys.stderr)
            return 1
        cuts = contiguous_parts([len(g[1]) for g in groups], n)
        parts = [[l for g in groups[b:e] for l in g[1]] for b, e in cuts]
    else:
        if len(lines) < n:
            print(f"split_scp.pl: refusing to split {len(lines)} lines into {n} parts", file=sys.stderr)
            return 1
        base, extra = divmod(len(lines), n)
        parts, pos = [], 0
        for i in range(n):
            size = base + (1 if i < extra else 0)
            parts.append(lines[pos:pos + size])
            pos += size
    if num_jobs is not None:
        out = open(outs[0], "w", encoding="utf-8") if outs else sys.stdout
        out.writelines(parts[job_id])
        if outs:
            out.close()
    else:
        for path, part in zip(outs, parts):
            tmp = f"{path}.tmp{os.getpid()}"
            with open(tmp, "w", encoding="utf-8") as f:
                f.writelines(part)
            os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
