#!/bin/bash
# template_capability.sh SOURCE_DIR "MPIEXEC [flags]" MPICC MPIF90 [DRIVERS_OUT]: the recipe of docs/architecture.md ("How
# to add a capability") kept true by doing it. A copy of the tree gets the template capability of
# tests/template/ (toy: barrier latency on every rank, driver mpilat-toy): its own files (tests/template/toy/:
# its spec, lib/toy/, its C shim, its driver, tests/toy/) and the registrations the recipe still asks for by
# hand (tests/template/registrations/: its declarations in include/mpilat.h, its JSON format in
# spec/json.toml, its options' lines in tests/driver/option_fields.txt); nothing else is touched. Then
# gen-abi.py generates the rest, and the copy is built (-O0, the library, module mpilat, the toy's driver and
# tests) and checked as the tree's own capabilities are:
#   the generated files fresh, every C function bound in Fortran, the layers; its options against the spec
#   (abi_driver_options, abi_option_fields); its row among the MPI drivers (the stop, Slurm and own-files
#   tests read it) and in the build lists of CMake and Makefile.legacy; its own tests (C on 2 and 3 ranks,
#   Fortran, the driver); mpilat-compare reading its JSON by the spec alone; its stops (driver_stops:
#   Ctrl-C, SIGTERM, USR1, HUP); its range refusals (driver_hostile's command lines, from the spec).
# Slurm is not started here (beside the build window's compiles its signals were lost): DRIVERS_OUT receives
# the built mpilat-toy and the copy's table of MPI drivers, and slurm_drivers, later, runs the toy's row
# there with the tree's drivers.
set -u
src=$1 mpiexec=$2 mpicc=$3 mpif90=$4 drivers_out=${5:-}
[ -z "$drivers_out" ] || rm -rf "$drivers_out"  # never a toy of an earlier run
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../driver/checks.sh
. "$here/../driver/checks.sh"  # the scratch directory, now the current one, removed at exit

# The tree with the template capability in it, generated (tests/tools/template_tree.sh).
# shellcheck source=template_tree.sh
. "$here/template_tree.sh"
make_template_tree "$src" tree 2> make.log && ok || { bad "the tree with the toy: $(cat make.log)"; finish_checks template_capability; }
for f in fortran/mpilat_toy.F90 fortran/mpilat_toy_wrappers.inc fortran/types/mpilat_types_toy.F90 lib/generated/capi_entries.cpp; do
  grep -q toy "tree/$f" 2> /dev/null && ok || bad "gen-abi.py did not write the toy into $f"
done
grep -q 'lat_toy_measure' tree/tests/c/range_refusals.inc && ok || bad "no range refusals of the toy (tests/c/range_refusals.inc)"
grep -q 'toy/measurement.cpp' tree/lib/sources.cmake && ok || bad "lib/sources.cmake lacks lib/toy/"
grep -q 'mpilat-toy' tree/drivers/drivers.cmake && grep -q 'mpilat-toy' tree/drivers/drivers.mk && ok \
  || bad "the build lists of CMake and Makefile.legacy lack mpilat-toy"
grep -q 'mpilat_toy' tree/fortran/sources.mk && grep -q 'use mpilat_toy' tree/fortran/mpilat.F90 && ok \
  || bad "module mpilat does not use mpilat_toy, or Makefile.legacy does not build it"
# The table every MPI driver's tests read (driver_stops, slurm_drivers, driver_own_files).
(. tree/tests/driver/mpi_drivers.sh && [[ " ${mpi_drivers[*]} " == *" mpilat-toy "* ]] && [ "${files[mpilat-toy]}" = "toy.txt toy.json" ]) \
  && ok || bad "mpilat-toy is not a row of tests/driver/mpi_drivers.sh"
(cd tree && python3 scripts/gen-abi.py --check > ../fresh.log 2>&1) && ok || bad "abi_generated_fresh: $(tail -3 fresh.log)"
(cd tree && python3 scripts/gen-abi.py --bindings > ../bindings.log 2>&1) && ok || bad "abi_fortran_bindings: $(tail -3 bindings.log)"
python3 tree/tests/tools/check_layers.py tree/lib > layers.log 2>&1 && ok || bad "architecture_layers: $(tail -3 layers.log)"

read -r launcher launcher_flags <<< "$mpiexec"
# Build what the toy needs, -O0 (this checks the recipe, not the optimiser).
cmake -S tree -B build -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
      -DCMAKE_Fortran_FLAGS_DEBUG=-O0 -DMPILAT_TESTS=ON -DMPILAT_BENCH=OFF -DMPILAT_FUZZ=OFF -DMPILAT_UNITY=ON \
      -DMPI_C_COMPILER="$mpicc" -DMPI_Fortran_COMPILER="$mpif90" -DMPIEXEC_EXECUTABLE="$launcher" \
      "-DMPILAT_MPIEXEC_EXTRA_FLAGS=$launcher_flags" > build.log 2>&1 \
  && cmake --build build -j "$(nproc)" --target mpilat-toy test_toy_mpi test_fortran_toy mpilat-compare >> build.log 2>&1 \
  && ok || { bad "the build: $(grep -m5 -E 'error|Error' build.log)"; finish_checks template_capability; }
bin=$PWD/build/drivers
if [ -n "$drivers_out" ]; then
  mkdir -p "$drivers_out" && cp "$bin/mpilat-toy" tree/tests/driver/mpi_drivers.sh "$drivers_out/" && ok \
    || bad "mpilat-toy and its table not left in $drivers_out for slurm_drivers"
fi

# Its options: each one the spec names, with the spec's default, and each setting its field.
python3 tree/scripts/gen-abi.py --drivers "mpilat-toy=$bin/mpilat-toy" > options.log 2>&1 && ok \
  || bad "abi_driver_options: $(tail -3 options.log)"
python3 tree/tests/driver/check_option_fields.py tree/spec "$bin" "$mpiexec" tree/tests/driver/option_fields.txt > fields.log 2>&1 \
  && grep -q 'options of the spec checked against their fields, 0 failures' fields.log && ! grep -q 'left out: mpilat-toy' fields.log && ok || bad "abi_option_fields: $(tail -3 fields.log)"
# Its own tests, as ctest runs them.
(cd build && ctest -R 'toy' --output-on-failure > ../ctest.log 2>&1) && grep -q '100% tests passed, 0 tests failed out of 4' ctest.log \
  && ok || bad "its tests: $(grep -E 'tests passed|Failed|\*\*\*' ctest.log | head -5)"
# mpilat-compare reads its JSON by the spec alone (spec/json.toml's compare and match): two runs compared,
# and two of different sizes refused as unlike.
for run in a1 a2 b1; do
  np=2; [ "$run" = b1 ] && np=3
  mkdir "$run" && $mpiexec -n "$np" "$bin/mpilat-toy" --reps 20 --iters 10 --noprogress --outdir "$run" > /dev/null 2>&1 || bad "mpilat-toy run $run"
done
"$bin/mpilat-compare" a1/toy.json -- a2/toy.json --noplot --outdir compared > compare.log 2>&1 \
  && grep -q '^barrier median (us) ' compare.log && ok || bad "mpilat-compare on two toy runs: $(tail -c 300 compare.log)"
"$bin/mpilat-compare" a1/toy.json -- b1/toy.json --noplot --outdir unlike > unlike.log 2>&1
[ $? = 2 ] && grep -q 'refusing to compare unlike results: ranks is 2 in a1/toy.json but 3 in b1/toy.json' unlike.log && ok \
  || bad "mpilat-compare on 2 and 3 ranks: $(tail -c 300 unlike.log)"
# Its stops and its range refusals, by the tests every driver is in.
MPILAT_STOPS_DRIVERS=mpilat-toy bash tree/tests/driver/test_stops.sh "$bin" "$mpiexec" "$PWD/tree/tests/tools/tty_ctrlc.py" > stops.log 2>&1 \
  && grep -q '12 passed, 0 failed' stops.log && ok || bad "driver_stops: $(grep -E 'FAIL|passed' stops.log | head -5)"
MPILAT_HOSTILE_DRIVERS=mpilat-toy bash tree/tests/driver/test_hostile_input.sh "$bin" "$PWD/tree/tests/data" "$mpiexec" > hostile.log 2>&1 \
  && grep -q 'command lines tried: 4 ' hostile.log && ok || bad "driver_hostile: $(grep -E 'FAIL|tried|passed' hostile.log | head -5)"
finish_checks template_capability
