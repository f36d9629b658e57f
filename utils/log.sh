# Sourced by the recipes and their local scripts (. utils/log.sh): `log <message>` prints
# "<UTC time> (<script>:<line>) <message>" on stdout, the line being the caller's.
log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%S') ($(basename "${BASH_SOURCE[1]:-$0}"):${BASH_LINENO[0]}) $*"; }
