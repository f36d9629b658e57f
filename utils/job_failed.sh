#!/usr/bin/env bash
# utils/job_failed.sh <what failed> <log> [<log> ...]
# Prints ONE line to stderr for a step whose job failed: "<what failed>: <the job's error> (log: <log>)".
# The error is read from the log of the job that failed (run.pl / slurm.pl / queue.pl logs end with
# "# Ended (code N)"; the first log with N != 0, else the first log holding an error): the pydeid CLI's
# "ERROR:" line, else the last line of a Python traceback ("XxxError: ..."), else the log's last line that is not a
# "#" line of the job wrapper. A step calls it and exits:  cmd ... || { utils/job_failed.sh "$0: x failed" $logs; exit 1; }
# Why: a user reads one line that names the cause and the log, instead of "see <log>" and a tail of it.
# Exit status 1, so that `|| utils/job_failed.sh ... || exit 1` works too.
[ $# -ge 1 ] || { echo "Usage: $0 <what failed> <log> [<log> ...]" >&2; exit 2; }
what=$1; shift
pick=
for f in "$@"; do   # the log of a job that ended with a non-zero code
  [ -f "$f" ] && grep -qE '^# Ended \(code [1-9][0-9]*\)' "$f" && { pick=$f; break; }
done
if [ -z "$pick" ]; then
  for f in "$@"; do [ -f "$f" ] && grep -qE 'ERROR|Error|Exception' "$f" && { pick=$f; break; }; done
fi
if [ -z "$pick" ]; then
  for f in "$@"; do [ -s "$f" ] && { pick=$f; break; }; done
fi
if [ -z "$pick" ]; then
  echo "$what (no log written: $*)" >&2
  exit 1
fi
msg=$(awk '
  /^#/ || NF == 0 { next }
  /ERROR/ && err == "" { err = $0 }
  /^[A-Za-z_.]*(Error|Exception|Exit)(:|$)/ { tb = $0 }
  { last = $0 }
  END { if (err != "") print err; else if (tb != "") print tb; else print last }' "$pick" | tr -s ' \t' ' ' | cut -c1-400)
if [ -n "$msg" ]; then
  echo "$what: $msg (log: $pick)" >&2
else
  echo "$what (log: $pick, no message in it)" >&2
fi
exit 1
