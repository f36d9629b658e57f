#!/usr/bin/env bash
# Wall time of the main job (issue 9: egs/mini/s5 end to end within 15 minutes on 2 CPU cores, default size).
# Clones the committed HEAD into a fresh work dir (the venv of this checkout is linked in, nothing is installed),
# runs egs/mini/s5/run.sh from empty data/ and exp/, and writes the time of every stage to
# bench/results/demo_time.md. Exit status 1 when the run takes longer than LIMIT_MIN (default 15).
# Run from the repository root: bash bench/demo_time.sh [work-dir]   (~15 min on 2 idle cores)
set -euo pipefail
. ./path.sh
work=${1:-/tmp/pydeid_bench_demo}
limit=${LIMIT_MIN:-15}
repo=$(pwd -P)
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
  echo "$0: warning: uncommitted changes; the run uses the committed HEAD's scripts and this checkout's pydeid" >&2
rm -rf "$work"
git clone -q "$repo" "$work"
ln -s "$repo/.venv" "$work/.venv"
log=$work/run.log
t0=$(date +%s)
(cd "$work/egs/mini/s5" && ./run.sh) >"$log" 2>&1 || { echo "$0: the recipe failed, see $log" >&2; exit 1; }
t1=$(date +%s)
mkdir -p bench/results
python - "$log" "$t0" "$t1" "$limit" "$(git rev-parse --short HEAD)" "$(getconf _NPROCESSORS_ONLN)" >bench/results/demo_time.md <<'PY'
import re, sys, datetime as dt
log, t0, t1, limit, rev, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
marks = []
for line in open(log):
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d) \(run\.sh:\d+\) (stage (\d+): .*|done .*)", line)
    if m:
        t = dt.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()
        marks.append((t, m.group(3), m.group(2)))
print(f"# egs/mini/s5 end to end (`run.sh`, default size, seed 0), commit {rev}, {cores} cores\n")
print(f"Run on {dt.datetime.fromtimestamp(t0, dt.timezone.utc):%Y-%m-%d %H:%M} UTC. "
      f"Total wall time **{(t1 - t0) / 60:.1f} min** (limit {limit:g} min).\n")
print("| stage | minutes | what |\n|---|---|---|")
for (t, n, what), (t_next, _, _) in zip(marks, marks[1:]):
    if n is not None:
        print(f"| {n} | {(t_next - t) / 60:.2f} | {what.split(': ', 1)[1][:90]} |")
PY
cat bench/results/demo_time.md
awk -v s=$((t1 - t0)) -v l="$limit" 'BEGIN { exit (s > l * 60) }' || {
  echo "$0: $(( (t1 - t0) / 60 )) min: over the ${limit}-minute limit" >&2; exit 1; }
