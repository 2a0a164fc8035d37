#!/bin/bash
# test_install.sh SOURCE_DIR BUILD_DIR "MPIEXEC [flags]": install into a fresh prefix, then build a
# user's project against it the two ways users do (CMake package; pkg-config --static with the MPI
# wrappers), in C and in Fortran, and run each program on 2 ranks.
set -eu
src=$1 build=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null

# 1. CMake: find_package(mpilat COMPONENTS Fortran)
cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/cfg.log" 2>&1 \
  || { cat "$work/cfg.log"; exit 1; }
cmake --build "$work/cmake-build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
(cd "$work" && $mpiexec -n 2 "$work/cmake-build/consumer_c" && $mpiexec -n 2 "$work/cmake-build/consumer_f")

# 2. pkg-config --static, compiled and linked with the MPI wrappers
pkgdir=$(dirname "$(find "$prefix" -name mpilat.pc | head -1)")
export PKG_CONFIG_PATH="$pkgdir:${PKG_CONFIG_PATH:-}"
mpicc "$here/consumer/consumer.c" $(pkg-config --static --cflags --libs mpilat) -o "$work/pc_c"
mpif90 "$here/consumer/consumer.F90" $(pkg-config --static --cflags --libs mpilat-fortran) -o "$work/pc_f"
(cd "$work" && $mpiexec -n 2 "$work/pc_c" && $mpiexec -n 2 "$work/pc_f")

# 3. what was installed
for f in include/mpilat.h include/mpilat_version.h bin/latency; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$prefix"/include/mpilat/*-*/mpilat.mod > /dev/null
[ "$(pkg-config --variable=mpi_flavor mpilat)" != "" ]
echo "install_consumers: 4 passed, 0 failed"
