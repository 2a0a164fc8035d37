#!/bin/bash
# check_spec_option.sh CXX SOURCE "INCLUDE_DIRS;...": spec_option (drivers/spec_cli.hpp) binds the option the
# spec names to its field (queuelat's --iters sets lat_queue_options.iters), ends the program for a driver
# the spec gives that field no option of, and does not compile for a field with no cli_help.
set -u
cxx=$1 source=$2 includes=$3
flags=(-std=c++17 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1)
IFS=';' read -r -a dirs <<< "$includes"
for d in "${dirs[@]}"; do [ -n "$d" ] && flags+=("-I$d"); done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
if "$cxx" "${flags[@]}" -fsyntax-only -DLAT_TEST_NO_OPTION "$source" 2> "$out/err"; then
  echo "FAIL: spec_option of a field without cli_help compiled"; fail=1
elif ! grep -q "SpecCli<&lat_pair_options::nr>" "$out/err"; then
  echo "FAIL: refused, but not for the missing SpecCli:"; head -20 "$out/err"; fail=1
else
  echo "ok: a field without cli_help does not compile"
fi
if ! "$cxx" "${flags[@]}" "$source" -o "$out/probe" 2> "$out/err2"; then
  echo "FAIL: the probe did not compile:"; head -20 "$out/err2"; exit 1
fi
"$out/probe" queuelat > "$out/run1" 2>&1 && grep -q "iters = 1234" "$out/run1" && echo "ok: queuelat's --iters sets iters" ||
  { echo "FAIL: queuelat's --iters: $(cat "$out/run1")"; fail=1; }
"$out/probe" mpptest > "$out/run2" 2>&1
rc=$?
[ "$rc" = 134 ] && grep -q "spec/ gives this field no option of mpptest" "$out/run2" &&
  ! grep -q "spec_option returned" "$out/run2" &&
  echo "ok: a driver the spec gives no such option ends at once (134)" ||
  { echo "FAIL: mpptest: exit $rc: $(cat "$out/run2")"; fail=1; }
exit "$fail"
