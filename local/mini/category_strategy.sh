#!/usr/bin/env bash
# The text strategy of egs/mini/s5 with sensitive-category turns (--category-turns N > 0): every seed 004 A.1
# category type that <text-strategy> does not name gets <category-strategy>.
#   local/mini/category_strategy.sh <text-strategy> <category-strategy>
# e.g. local/mini/category_strategy.sh "PER=pseudonymize,default=same_type" surrogate
#   -> PER=pseudonymize,default=same_type,HEALTH=surrogate,BELIEF=surrogate,...,TRANSACTION=surrogate
set -euo pipefail
if [ $# -ne 2 ] || [ -z "$2" ]; then
  echo "Usage: $0 <text-strategy> <category-strategy>" >&2; exit 1
fi
out=$1
for t in HEALTH BELIEF ETHNICITY SEXUAL AGE MARITAL PROFESSION CREDENTIAL ADDRESS IP MAC TRANSACTION; do
  case ",$out" in *",$t="*) ;; *) out+=",$t=$2" ;; esac
done
echo "${out#,}"
