#!/usr/bin/env python3
# Kaldi's queue.pl, in Python (pydeid.jobs.grid): submit to Grid Engine (qsub) and wait.
#   queue.pl [--config conf/queue.conf] [--mem 4G] [--num-threads N] [--gpu N] [--max-jobs-run N] [--time T] \
#       JOB=1:N exp/x/log/foo.JOB.log cmd args...
# Options are translated through conf/queue.conf (Kaldi's format; Kaldi's built-in config when it is absent).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
from pydeid.jobs.grid import QUEUE, main  # noqa: E402

sys.exit(main(sys.argv[1:], QUEUE))
