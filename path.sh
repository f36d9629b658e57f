# Source me from a recipe or a shell: environment for pydeid tools (the Kaldi/ESPnet path.sh convention).
# PYDEID_ROOT is the repository root; recipes under egs/<corpus>/s5 reach it through their symlinks.
if [ -z "${PYDEID_ROOT:-}" ]; then
  # resolve the symlink egs/<corpus>/s5/path.sh -> ../../../path.sh
  PYDEID_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)
fi
export PYDEID_ROOT
if [ -f "$PYDEID_ROOT/.venv/bin/activate" ]; then
  # shellcheck disable=SC1091
  . "$PYDEID_ROOT/.venv/bin/activate"
fi
export PATH="$PYDEID_ROOT/utils:$PYDEID_ROOT/steps:$PATH"
# this checkout's pydeid first, whichever checkout the venv was installed from (git worktrees, copies)
export PYTHONPATH="$PYDEID_ROOT${PYTHONPATH:+:$PYTHONPATH}"
export LC_ALL=C
export PYTHONUNBUFFERED=1
# No network at run time: never reach a model hub, never download nltk/g2p data on import.
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export HF_DATASETS_OFFLINE=1
export NLTK_DATA="$PYDEID_ROOT/.venv/nltk_data"   # holds the placeholders of pydeid/offline.py (make venv)
export FLAIR_CACHE_ROOT="${FLAIR_CACHE_ROOT:-$PYDEID_ROOT/.venv/flair_cache}"
export MPLBACKEND=Agg
# one thread per job: recipes parallelise by jobs (--nj, side-by-side trainings); torch's default of one
# intra-op thread per core oversubscribes the cores when jobs run together (5x slower decoding measured)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
export TF_CPP_MIN_LOG_LEVEL=3
