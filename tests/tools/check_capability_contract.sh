#!/bin/bash
# check_capability_contract.sh CXX SOURCE "INCLUDE_DIRS;...": a capability that lacks a member of the
# harness's contract (tests/core/capability_contract.cpp: no follow) fails to compile at run_measurement
# with the static_assert that names the member (docs/architecture.md, "The measurement harness"); with the
# member (LAT_TEST_COMPLETE) it compiles.
set -u
cxx=$1 source=$2 includes=$3
flags=(-std=c++17 -fsyntax-only -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1)
IFS=';' read -r -a dirs <<< "$includes"
for d in "${dirs[@]}"; do [ -n "$d" ] && flags+=("-I$d"); done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
if "$cxx" "${flags[@]}" "$source" 2> "$out/err"; then
  echo "FAIL: a capability without follow() compiled"; fail=1
elif ! grep -q "a Capability needs void follow(MPI_Comm)" "$out/err"; then
  echo "FAIL: refused, but not by the contract's static_assert:"; head -20 "$out/err"; fail=1
elif ! grep -q "a Capability with settings() needs void follow(RunContext &)" "$out/err"; then
  echo "FAIL: the run-context form without follow was not refused by its static_assert:"; grep -m3 "static assertion" "$out/err"; fail=1
fi
"$cxx" "${flags[@]}" -DLAT_TEST_COMPLETE "$source" 2> "$out/err2" \
  || { echo "FAIL: the complete capability did not compile:"; head -20 "$out/err2"; fail=1; }
[ "$fail" = 0 ] && echo "a capability without follow() refused by the contract, in both forms; the complete ones compile"
exit "$fail"
