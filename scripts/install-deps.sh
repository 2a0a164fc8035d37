#!/bin/bash
# install-deps.sh [--tests]: everything mpilat needs to build and run, from Debian's packages; with
# --tests also what the whole test suite needs (Open MPI beside MPICH, valgrind, the libFuzzer
# runtime, the test frameworks, NetPIPE for docs/performance.md). Run as root on Debian 12. Nothing
# else is downloaded, at install or at configure time. MPICH stays the default `mpicc`/`mpiexec`.
set -euo pipefail
packages=(cmake make g++ gfortran pkgconf python3
          mpich libmpich-dev            # MPI (the default; Open MPI is built and tested with --tests)
          nlohmann-json3-dev            # the JSON files
          libcli11-dev                  # the options of the C++ drivers (mpptest, queuelat, mmpi)
          libhwloc-dev                  # sockets and cores of the ranks (the pair matrix)
          libeigen3-dev                 # least squares of the max-rate fit
          libfmt-dev                    # the text reports (used header-only)
          libboost-math-dev             # normal quantile, binomial distribution, Brent's minimiser (header-only)
          gnuplot-nox)                  # the plots the drivers render (PNG, SVG)
if [ "${1:-}" = --tests ]; then
  packages+=(openmpi-bin libopenmpi-dev # the suite runs against Open MPI too
             libcmocka-dev              # C tests
             libbenchmark-dev           # bench/ (host-side timer and statistics benchmarks)
             valgrind                   # memcheck of the serial tests
             libclang-rt-14-dev         # libFuzzer's runtime: the fuzz targets replay their corpus
             clang-14 afl++             # scripts/fuzz.sh: coverage-guided fuzzing runs
             netpipe-mpich2             # the reference beside our numbers (docs/performance.md)
             slurm-wlm munge            # a one-node Slurm for the batch-job tests (scripts/slurm-start.sh)
             iproute2)                  # ip and tc: the namespaced test cluster (scripts/cluster.sh)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# With both MPIs installed, Debian's alternatives may pick Open MPI for mpicc/mpiexec: keep MPICH.
if [ -x /usr/bin/mpicc.mpich ] && update-alternatives --list mpi > /dev/null 2>&1; then
  update-alternatives --quiet --set mpi /usr/bin/mpicc.mpich
  update-alternatives --quiet --set mpirun /usr/bin/mpirun.mpich
fi
