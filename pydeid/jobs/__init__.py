"""pydeid.jobs: the Python behind utils/run.pl, utils/slurm.pl and utils/queue.pl.

Kaldi's job-runner contract: `<runner> [options] [JOB=1:N] <log> <command...>`. The command is joined into one
shell string exactly as Kaldi does, `JOB` is replaced by the task number in the command and the log path, each
task writes its own log (command, start time, output, end time and exit status), and the runner exits non-zero
naming the failed logs. Standard library only: the scripts must also run before the venv is complete.
"""
