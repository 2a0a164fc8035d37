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
cd "$work" || exit 1
