# Sourced by the recipes and their local scripts after utils/parse_options.sh (. utils/recipe.sh): the small shell
# helpers every recipe used to define itself.
#   done_ok <data-dir>        true for a finished (valid) data dir: a stage skips the work that made it
#   free_lane                 waits until fewer than $nj background jobs run (at most $nj side by side)
#   wait_all <logs>           waits for every background job; if one failed, stops with one line
#                             (utils/job_failed.sh) naming <logs>, the logs to read
#   vname <method> <strategy> the name of a conversion in data dir names: vtln 3 -> vtln3, voicemask - -> voicemask
done_ok() { [ -d "$1" ] && utils/validate_data_dir.sh "$1" >/dev/null 2>&1; }
free_lane() { while [ "$(jobs -rp | wc -l)" -ge "$nj" ]; do sleep 1; done; }
wait_all() {
  local rc=0 pid
  for pid in $(jobs -p); do wait "$pid" || rc=1; done
  [ $rc -eq 0 ] || { utils/job_failed.sh "$0: a background job failed" "$1"; exit 1; }
}
vname() { [ "$2" = "-" ] && echo "$1" || echo "$1$2"; }
