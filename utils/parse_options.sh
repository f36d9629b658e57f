# Source me from a bash script after declaring its option variables with their defaults (Kaldi semantics):
#
#   nj=4; cmd=run.pl; use_gpu=false
#   help_message="Usage: $0 [options] <data> <dir>"
#   . utils/parse_options.sh
#
# Each leading `--foo-bar value` (or `--foo-bar=value`) sets the variable foo_bar, which must already exist
# (an unknown option is an error); a variable whose default is true/false only accepts true or false.
# `--config <file>` sources <file> (lines like `foo_bar=value`) before the other options are applied, so explicit
# options win. `--help`/`-h` prints $help_message and exits 0. Parsing stops at the first argument that is not an
# option; the remaining arguments stay in "$@".

# --config first, wherever it is among the leading options.
__po_args=("$@")
for ((__po_i = 0; __po_i < ${#__po_args[@]}; __po_i++)); do
  case "${__po_args[__po_i]}" in
    --config)
      config=${__po_args[__po_i + 1]:-}
      if [ ! -r "$config" ]; then
        echo "$0: missing config file '$config'" >&2
        exit 1
      fi
      # shellcheck disable=SC1090
      . "$config" || { echo "$0: error sourcing config file $config" >&2; exit 1; }
      __po_i=$((__po_i + 1))
      ;;
    --*=*) ;;
    --*) __po_i=$((__po_i + 1)) ;;  # skip the option's value
    *) break ;;
  esac
done
unset __po_args __po_i

while true; do
  [ -z "${1:-}" ] && break  # no more arguments
  case "$1" in
    --help|-h)
      if [ -z "${help_message:-}" ]; then echo "$0: no help found" >&2; fi
      printf "%s\n" "${help_message:-}" >&2
      exit 0
      ;;
    --config)  # already sourced above
      shift 2
      continue
      ;;
    --config=*)
      config=${1#--config=}
      [ -r "$config" ] || { echo "$0: missing config file '$config'" >&2; exit 1; }
      # shellcheck disable=SC1090
      . "$config" || { echo "$0: error sourcing config file $config" >&2; exit 1; }
      shift 1
      continue
      ;;
    --*=*)
      __po_name=${1#--}; __po_value=${__po_name#*=}; __po_name=${__po_name%%=*}
      __po_name=${__po_name//-/_}
      shift 1
      ;;
    --*)
      __po_name=${1#--}; __po_name=${__po_name//-/_}
      if [ $# -lt 2 ]; then
        echo "$0: option $1 needs a value" >&2
        exit 1
      fi
      __po_value=$2
      shift 2
      ;;
    *) break ;;
  esac
  if ! [[ "$__po_name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    echo "$0: invalid option --${__po_name//_/-}" >&2
    exit 1
  fi
  if [ -z "${!__po_name+set}" ]; then
    echo "$0: invalid option --${__po_name//_/-}" >&2
    exit 1
  fi
  __po_old=${!__po_name}
  if [ "$__po_old" = true ] || [ "$__po_old" = false ]; then
    if [ "$__po_value" != true ] && [ "$__po_value" != false ]; then
      echo "$0: expected \"true\" or \"false\": --${__po_name//_/-} $__po_value" >&2
      exit 1
    fi
  fi
  if [ "$__po_name" = cmd ] && [ -z "$__po_value" ]; then
    echo "$0: empty argument to --cmd option" >&2
    exit 1
  fi
  printf -v "$__po_name" '%s' "$__po_value"
done
unset __po_name __po_value __po_old

true  # so that `. parse_options.sh` under set -e does not fail on the last test
