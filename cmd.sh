# Job submission commands used by the recipes (Kaldi/ESPnet convention). A recipe moves to a cluster by
# editing this file only:
#   run.pl    runs the jobs on this machine (default);
#   slurm.pl  submits array jobs to Slurm, options translated through conf/slurm.conf;
#   queue.pl  submits array jobs to SGE/Grid Engine, options translated through conf/queue.conf.
# Options understood by all three: --mem 4G --num-threads N --gpu N --max-jobs-run N --time T.
# ESPnet training passes --ngpu through $cuda_cmd (steps/train_asr.sh --ngpu N) so a GPU job asks for --gpu N.
# On a cluster, jobs cd to the recipe dir and source ./path.sh: the nodes must see the repository and .venv
# (shared file system). Edit partitions/queues in conf/slurm.conf or conf/queue.conf.

export train_cmd="run.pl"
export decode_cmd="run.pl"
export cuda_cmd="run.pl"

# Slurm:
# export train_cmd="slurm.pl --config conf/slurm.conf --mem 4G"
# export decode_cmd="slurm.pl --config conf/slurm.conf --mem 4G"
# export cuda_cmd="slurm.pl --config conf/slurm.conf --mem 16G --gpu 1"

# SGE / Univa / Grid Engine:
# export train_cmd="queue.pl --config conf/queue.conf --mem 4G"
# export decode_cmd="queue.pl --config conf/queue.conf --mem 4G"
# export cuda_cmd="queue.pl --config conf/queue.conf --mem 16G --gpu 1"
