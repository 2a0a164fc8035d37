#!/bin/bash
# test-all.sh: set everything up and run the whole test suite: a normal build with every test
# (CMocka, MPI on 2 and 4 ranks, Fortran, driver, install consumers, Makefile.legacy), the benchmarks
# built, then the suite again built with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

echo "== build and test (RelWithDebInfo)"
cmake -S . -B build-test -DMPILAT_TESTS=ON -DMPILAT_BENCH=ON > build-test.log 2>&1 || { cat build-test.log; exit 1; }
cmake --build build-test -j "$jobs" >> build-test.log 2>&1 || { cat build-test.log; exit 1; }
(cd build-test && ctest --output-on-failure)

echo "== build and test with AddressSanitizer and UndefinedBehaviorSanitizer"
# LeakSanitizer is off: MPICH and UCX keep allocations until exit by design. The install and
# Makefile.legacy tests are left out here: they build their own, unsanitised copies.
cmake -S . -B build-asan -DMPILAT_TESTS=ON -DMPILAT_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug \
  > build-asan.log 2>&1 || { cat build-asan.log; exit 1; }
cmake --build build-asan -j "$jobs" >> build-asan.log 2>&1 || { cat build-asan.log; exit 1; }
(cd build-asan && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -E "install_consumers|legacy_makefile")
