# Sourced by the utils/*.sh wrappers: run the pydeid CLI (the venv's console script after `. ./path.sh`,
# else `python3 -m pydeid` from this repository).
pydeid_exec() {
  if command -v pydeid >/dev/null 2>&1; then
    exec pydeid "$@"
  fi
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
  PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m pydeid "$@"
}
