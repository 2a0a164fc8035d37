#!/bin/bash
# check_wrap_rules.sh SOURCE_DIR: gen-abi refuses a [[wrap]], [[check]] or [[measure]] it cannot make,
# naming what is wrong, and a [[wrap]] it can make puts the wrapper into the module's _wrappers.inc with its
# public name (spec/README.md, "[[wrap]]", "[[check]] and [[measure]]"). Runs the generator on a copy of the sources it reads; the tree is never written.
set -u
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
fresh() {
  rm -rf "$work/t" && mkdir -p "$work/t"
  mkdir -p "$work/t/tests" "$work/t/lib"
  cp -r "$src"/{scripts,spec,include,fortran,drivers,docs} "$work/t/" && cp -r "$src/tests/data" "$src/tests/fortran" "$work/t/tests/" &&
    cp -r "$src/lib/generated" "$work/t/lib/" || { echo "FAIL: cannot copy the sources"; exit 1; }
}
# expect_refusal "what" "message" TOML: appended to spec/collective.toml, the generator must exit 1 saying message.
expect_refusal() {
  fresh
  printf '\n%s\n' "$3" >> "$work/t/spec/collective.toml"
  if python3 "$work/t/scripts/gen-abi.py" > "$work/out" 2>&1; then
    echo "FAIL: $1: generated"; fail=1
  elif ! grep -qF -- "$2" "$work/out"; then
    echo "FAIL: $1: refused, but not saying \"$2\":"; cat "$work/out"; fail=1
  else
    echo "ok: $1: $(tail -1 "$work/out")"
  fi
}
expect_refusal "a parameter C lacks" "optional names what C does not declare: ['nosuch']" \
  $'[[wrap]]\nfunction = "lat_coll_get_rank"\noptional = ["nosuch"]'
expect_refusal "a function no rule covers" "int *op: no wrapper rule" \
  $'[[wrap]]\nfunction = "lat_coll_op_from_name"'
expect_refusal "a function mpilat.h lacks" "include/mpilat.h declares no such function" \
  $'[[wrap]]\nfunction = "lat_no_such"'
expect_refusal "a string made optional" "const char *base: no wrapper rule" \
  $'[[wrap]]\nfunction = "lat_write_sweep_files"\noptional = ["base"]'
expect_refusal "a function wrapped twice" "lat_check_output_dir: wrapped twice (spec/collective.toml)" \
  $'[[wrap]]\nfunction = "lat_check_output_dir"'
expect_refusal "an unknown key" "unknown keys ['optinal']" \
  $'[[wrap]]\nfunction = "lat_coll_get_rank"\noptinal = ["rank"]'
expect_refusal "a check that takes no options" "a check takes (const lat_<x>_options *opts, ...)" \
  $'[[check]]\nfunction = "lat_coll_op_from_name"'
expect_refusal "a measurement without interrupted_code's words" "header (where its function is declared), what and kept" \
  $'[[measure]]\nfunction = "lat_collective"\nheader = "collective/measurement.hpp"'
expect_refusal "a measurement that makes no handle" "a measurement takes (MPI_Comm comm, const lat_<x>_options *opts, ..., lat_<handle> *result)" \
  $'[[measure]]\nfunction = "lat_calibrate_timer"\nheader = "timer/calibration.hpp"\nwhat = "timer"\nkept = "-"'
# A wrapper a rule covers: generated with its public name, its arguments in the rules' order.
fresh
printf '\n[[wrap]]\nfunction = "lat_coll_get_rank"\nnames = { result = "rank_part" }\n' >> "$work/t/spec/collective.toml"
if ! python3 "$work/t/scripts/gen-abi.py" > "$work/out" 2>&1; then
  echo "FAIL: a wrapper a rule covers was refused:"; cat "$work/out"; fail=1
elif ! sed -e ':a' -e '/&$/{N;s/ *&\n */ /;ba' -e '}' "$work/t/fortran/mpilat_collective_wrappers.inc" > "$work/joined" ||
     ! grep -q '^  subroutine lat_coll_get_rank(coll, index, rank, rank_part, ierr)$' "$work/joined" ||
     ! grep -q 'public :: .*lat_coll_get_rank' "$work/t/fortran/mpilat_collective_generics.inc" ||
     ! grep -q 'call handle(lat_coll_get_rank_c(coll%handle, index, int(rank, c_int), rank_part), .lat_coll_get_rank., ierr)' \
       "$work/joined"; then
  echo "FAIL: lat_coll_get_rank's wrapper is not as the rules say:"
  grep -A12 'subroutine lat_coll_get_rank' "$work/t/fortran/mpilat_collective_wrappers.inc"; fail=1
else
  echo "ok: lat_coll_get_rank's wrapper generated (coll, index, rank, rank_part, ierr) and made public"
fi
exit "$fail"
