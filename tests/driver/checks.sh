# checks.sh: sourced by the driver tests. A scratch directory removed at exit (the current directory from
# here on), and the counters: `ok` for a check that held, `bad "why"` for one that did not; `finish_checks
# NAME` prints the counts and exits 1 if any check failed.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0 passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
finish_checks() {
  echo "$1: $passes passed, $fails failed"
  [ "$fails" = 0 ] || exit 1
  exit 0
}
# json_fields FILE...: the fields mpilat-compare reads (spec/json.toml) are in each file.
json_fields() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  python3 "$here/check_json_fields.py" "$here/../../spec/json.toml" "$@" > json_fields.out 2>&1 && ok \
    || bad "fields mpilat-compare reads: $(cat json_fields.out)"
}
# descendants PID: every process below PID (its children, theirs, ...), by id: what a test may signal (issue
# 45: a test ends only processes it started, never others' by a name or a pattern).
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    [ "$child" = "$BASHPID" ] && continue  # the subshell asking (a command substitution), and its pgrep
    echo "$child"
    descendants "$child"
  done
}
# slurm_stop PROGRAM PATTERN: stops the processes named PROGRAM whose command line holds PATTERN, among this
# test's own (descendants of $$), as Slurm's slurmstepd stops a job's tasks (time limit, scancel): SIGTERM,
# then SIGCONT and SIGTERM 10 ms later.
slurm_stop() {
  local p ranks
  ranks=$(for p in $(descendants $$); do
    [ "$(cat /proc/$p/comm 2> /dev/null)" = "$1" ] && tr '\0' ' ' < /proc/$p/cmdline 2> /dev/null | grep -q -- "$2" && echo "$p"
  done)
  for p in $ranks; do kill -TERM "$p"; done
  sleep 0.01
  for p in $ranks; do kill -CONT "$p"; kill -TERM "$p"; done
}
cd "$work" || exit 1
