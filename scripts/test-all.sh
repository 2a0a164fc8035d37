#!/bin/bash
# test-all.sh: set everything up and run the whole test suite, each build for what it exists for (the
# labels: docs/testing.md):
#   1. MPICH (-O2), every test: the one-process tests in parallel (and under valgrind's memcheck,
#      memcheck_*), MPI on 2-5 ranks, Fortran, the drivers and their files, faults and stops, the install and
#      Makefile.legacy, the fuzz corpus replayed, Slurm, the namespaced cluster; the benchmarks built;
#   2. AddressSanitizer and UndefinedBehaviorSanitizer (MPICH) on the library's code and its MPI paths: the
#      one-process and the MPI tests (labels mpifree, mpi), only the test programs built;
#   3. Open MPI (its MPI_Comm is a pointer, not an int; its launcher has its own statuses): the library, the
#      MPI tests' programs and the latency and mpptest drivers built, the MPI tests and the stop tests (labels mpi,
#      launchers; the stops on those two drivers, the launcher's part).
# Each stage's time is printed, and at the end the tests skipped, "machine busy: not judged" among them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --tests
jobs=$(nproc)
# The Slurm tests (ctest -L slurm) must run here, not be skipped: CI has to show them.
export MPILAT_REQUIRE_SLURM=1

declare -a stage_times=()
stage_started=$SECONDS
stage_name=""
begin_stage() {
  stage_name=$1
  stage_started=$SECONDS
  echo "== $stage_name"
}
end_stage() {
  stage_times+=("$stage_name: $((SECONDS - stage_started)) s")
  echo "== $stage_name: $((SECONDS - stage_started)) s"
  stage_name=""
}
summary() {
  local rc=$?
  [ -n "$stage_name" ] && stage_times+=("$stage_name: $((SECONDS - stage_started)) s (stopped here, exit $rc)")
  echo "== summary: ${SECONDS} s in all"
  printf '   %s\n' "${stage_times[@]}"
  local skipped
  skipped=$(cat build-test/ctest.log build-asan/ctest.log build-openmpi/ctest.log 2> /dev/null | grep -E '\*\*\*Skipped|Not Run' || true)
  if [ -n "$skipped" ]; then
    echo "   skipped (machine busy: not judged, or a tool missing; the test's own line says which):"
    echo "$skipped" | sed 's/^/   /'
  fi
}
trap summary EXIT

configure_and_build() {  # build-dir "targets" cmake-args...
  local dir=$1 targets=$2
  shift 2
  cmake -S . -B "$dir" "$@" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  # shellcheck disable=SC2086 # the targets, one word each
  cmake --build "$dir" -j "$jobs" --target $targets >> "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
}
run_ctest() {  # build-dir ctest-args...: the output also in <build-dir>/ctest.log, for the summary
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "$@") 2>&1 | tee "$dir/ctest.log"
}
mpich=(-DMPI_C_COMPILER=mpicc.mpich -DMPI_Fortran_COMPILER=mpif90.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich)
# Open MPI refuses root and more ranks than cores without the first two; they belong to the test launcher
# only. The third: after a rank exits non-zero, Open MPI's mpiexec waits odls_base_sigkill_timeout (1 s)
# twice before it ends: 2.3 s for every bad-input case instead of 0.3 s.
openmpi=(-DMPI_C_COMPILER=mpicc.openmpi -DMPI_Fortran_COMPILER=mpif90.openmpi
         -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.openmpi
         "-DMPILAT_MPIEXEC_EXTRA_FLAGS=--allow-run-as-root --oversubscribe --mca odls_base_sigkill_timeout 0")
rm -f build-test/ctest.log build-asan/ctest.log build-openmpi/ctest.log

begin_stage "1. MPICH: build and every test (-O2)"
# -O2 without debug information (RelWithDebInfo's -g cost a third of the compile time); the sanitizer stage
# keeps the line tables (-g1) for its reports.
optimised=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
           "-DCMAKE_Fortran_FLAGS_RELEASE=-O2")
configure_and_build build-test all -DMPILAT_TESTS=ON -DMPILAT_BENCH=ON "${optimised[@]}" "${mpich[@]}"
# The stops of two drivers at a time (driver_stops: nothing there is timed, and hydra kills nobody after it
# forwards a signal).
(export MPILAT_STOPS_JOBS=2 && run_ctest build-test)
end_stage

begin_stage "2. MPICH with AddressSanitizer and UndefinedBehaviorSanitizer: the library's code and MPI paths"
# LeakSanitizer is off: MPICH and UCX keep allocations until exit by design.
# -g1: the line tables, all a sanitizer's report needs (file:line in every frame); -g's full debug information
# cost the library's compile 95 s against 73 s here.
configure_and_build build-asan test_programs -DMPILAT_TESTS=ON -DMPILAT_SANITIZE=address,undefined \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_Fortran_FLAGS_DEBUG=-g1 \
  "${mpich[@]}"
(export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 && run_ctest build-asan -L '^(mpifree|mpi)$')
end_stage

begin_stage "3. Open MPI: the MPI tests and each driver's stops"
# What its labels run: the MPI tests' programs and the two drivers that driver_stops stops here. -O1: this
# stage checks MPI behaviour, not the optimiser (stage 1's build); measured here, its build took 139 s against
# 165 s at -O2 (130 s at -O0, where Eigen's fits made two tests 7 s longer each).
lightly_optimised=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O1 -DCMAKE_CXX_FLAGS_DEBUG=-O1 -DCMAKE_Fortran_FLAGS_DEBUG=-O1)
configure_and_build build-openmpi "mpi_test_programs latency mpptest" -DMPILAT_TESTS=ON -DMPILAT_FUZZ=OFF "${lightly_optimised[@]}" "${openmpi[@]}"
# The stops' launcher part (Ctrl-C, SIGTERM to mpirun, a signal's status passed through) on one Fortran and
# one C++ driver: every driver's own stop runs in stage 1.
(export MPILAT_STOPS_DRIVERS="latency mpptest" && run_ctest build-openmpi -L '^(mpi|launchers)$')
end_stage
