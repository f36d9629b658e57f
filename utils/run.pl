#!/usr/bin/env python3
# Kaldi's run.pl, in Python (pydeid.jobs.local):
#   run.pl [--max-jobs-run N] [--mem X --num-threads N --gpu N: ignored locally] JOB=1:N exp/x/log/foo.JOB.log cmd args...
#   run.pl exp/x/log/foo.log cmd args...
#   --pick failed: rerun only the tasks whose log does not end with "# Ended (code 0)" (failed, killed, never run)
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
from pydeid.jobs.local import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
