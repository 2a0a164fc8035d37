#!/bin/bash
# test_legacy_make.sh SOURCE_DIR "MPIEXEC [flags]" MPICC MPICXX MPIF90: Makefile.legacy with only the
# MPI wrappers (of the MPI this build uses) on the PATH builds and installs both archives and the
# drivers, the template capability's included, and the drivers run.
set -eu
src=$1 mpiexec=$2 mpicc=$3 mpicxx=$4 mpif90=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A PATH with the wrappers and the basic tools, but no cmake.
mkdir "$work/bin"
ln -s "$(command -v "$mpicc")" "$work/bin/mpicc"
ln -s "$(command -v "$mpicxx")" "$work/bin/mpicxx"
ln -s "$(command -v "$mpif90")" "$work/bin/mpif90"
for t in make ar sed mkdir cp rm sh gcc g++ gfortran as ld grep; do
  p=$(command -v "$t") && ln -s "$p" "$work/bin/$t"
done
# The tree with the template capability in it (tests/tools/template_tree.sh): Makefile.legacy builds a new
# capability from the lists gen-abi.py writes, and its driver runs (the CMake build of the same copy is
# template_capability's).
# shellcheck source=../tools/template_tree.sh
. "$src/tests/tools/template_tree.sh"
make_template_tree "$src" "$work/tree"
tree=$work/tree
# -O0: this checks that Makefile.legacy builds, installs and runs with the wrappers alone, not the
# optimiser (the CMake builds compile optimised); it takes half the time.
flags=(CFLAGS="-O0" CXXFLAGS="-O0" FFLAGS="-O0")
PATH="$work/bin" make -s -C "$tree" -f Makefile.legacy BUILD="$work/build" "${flags[@]}" -j "$(nproc)"
PATH="$work/bin" PREFIX="$work/prefix" make -s -C "$tree" -f Makefile.legacy BUILD="$work/build" "${flags[@]}" install
for f in lib/libmpilat.a lib/libmpilat_fortran.a include/mpilat.h include/mpilat_version.h \
         include/mpilat/legacy/mpilat.mod include/mpilat/legacy/mpilat_collective.mod bin/latency bin/mpptest bin/queuelat \
         bin/mpilat-compare bin/mpilat-coll bin/mpilat-toy include/mpilat/legacy/mpilat_toy.mod; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
cd "$work"
# Each file written and not empty (a `[ -s a ] && [ -s b ]` whose first test fails would not stop set -e).
written() {
  for f in "$@"; do [ -s "$f" ] || { echo "FAIL: $f not written"; exit 1; }; done
}
$mpiexec -n 2 "$work/prefix/bin/latency" --quick --no-progress --ntrial 200 > /dev/null
grep -q '^ntrial = 200$' latency.summary.output
$mpiexec -n 2 "$work/prefix/bin/mpptest" -sizelist 0,64 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -gnuplot -noprogress > /dev/null
written mppout.json mppout.gpl
$mpiexec -n 2 "$work/prefix/bin/queuelat" --lengths 0,10 --iters 2 --reps 1 --nr 4096 --noplot --noprogress > /dev/null
written queuelat.json queuelat.txt
# Two files (one file given twice is refused: a launch counted twice).
cp latency.json again.json
"$work/prefix/bin/mpilat-compare" latency.json -- again.json --noplot > /dev/null 2>&1
written compare.json compare.csv
$mpiexec -n 2 "$work/prefix/bin/mpilat-coll" --quick --ops allreduce --sizes 8 --reps 5 --noplot --noprogress > /dev/null
written mpilat-coll.json mpilat-coll.txt
$mpiexec -n 2 "$work/prefix/bin/mpilat-toy" --reps 5 --iters 10 --noprogress > /dev/null
written toy.json toy.txt
echo "legacy_makefile: 1 passed, 0 failed"
