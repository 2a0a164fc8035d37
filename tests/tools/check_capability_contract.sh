#!/bin/bash
# check_capability_contract.sh CXX SOURCE "INCLUDE_DIRS;...": a capability that lacks a member of the
# harness's contract (tests/core/capability_contract.cpp: no follow; no settings; a check without a plan) fails to compile at
# run_measurement with the static_assert that names the member (docs/architecture.md, "The measurement harness"); with the
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
  echo "FAIL: capabilities without follow, without settings and with a check without plan compiled"; fail=1
else
  for words in "a Capability needs void follow(RunContext &, const Plan &)" \
               "a Capability needs RunSettings settings(const Plan &) const" "a Capability needs Checked<Plan> check"; do
    grep -qF "$words" "$out/err" || { echo "FAIL: not refused by the contract's static_assert \"$words\":"; grep -m3 "static assertion" "$out/err"; fail=1; }
  done
fi
"$cxx" "${flags[@]}" -DLAT_TEST_COMPLETE "$source" 2> "$out/err2" \
  || { echo "FAIL: the complete capability did not compile:"; head -20 "$out/err2"; fail=1; }
[ "$fail" = 0 ] && echo "capabilities without follow, without settings, or whose check gives no plan refused by the contract; the complete ones compile"
exit "$fail"
