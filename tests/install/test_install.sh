#!/bin/bash
# test_install.sh SOURCE_DIR BUILD_DIR "MPIEXEC [flags]" MPICC MPIF90 [OTHER_MPICC OTHER_MPIF90]:
# install into a fresh prefix, then build a user's project against it the two ways users do (CMake
# package; pkg-config --static with the MPI wrappers), in C and in Fortran, and run each program on 2
# ranks. With the wrappers of another MPI: configuring and compiling against it fail with a message
# that names both MPIs.
set -eu
src=$1 build=$2 mpiexec=$3 mpicc=$4 mpif90=$5 other_mpicc=${6:-} other_mpif90=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null

# 1. CMake: find_package(mpilat COMPONENTS Fortran)
cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_C_COMPILER="$mpicc" -DMPI_Fortran_COMPILER="$mpif90" > "$work/cfg.log" 2>&1 \
  || { cat "$work/cfg.log"; exit 1; }
cmake --build "$work/cmake-build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
(cd "$work" && $mpiexec -n 2 "$work/cmake-build/consumer_c" && $mpiexec -n 2 "$work/cmake-build/consumer_f")

# 2. pkg-config --static, compiled and linked with the MPI wrappers
pkgdir=$(dirname "$(find "$prefix" -name mpilat.pc | head -1)")
export PKG_CONFIG_PATH="$pkgdir:${PKG_CONFIG_PATH:-}"
"$mpicc" "$here/consumer/consumer.c" $(pkg-config --static --cflags --libs mpilat) -o "$work/pc_c"
"$mpif90" "$here/consumer/consumer.F90" $(pkg-config --static --cflags --libs mpilat-fortran) -o "$work/pc_f"
(cd "$work" && $mpiexec -n 2 "$work/pc_c" && $mpiexec -n 2 "$work/pc_f")

# 3. what was installed
for f in include/mpilat.h include/mpilat_version.h bin/latency; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$prefix"/include/mpilat/*-*/mpilat.mod > /dev/null
[ "$(pkg-config --variable=mpi_flavor mpilat)" != "" ]
passed=4

# 4. the other MPI: a clear error at configure time (CMake) and at compile time (mpilat.h)
if [ -n "$other_mpicc" ]; then
  if cmake -S "$here/consumer" -B "$work/other-build" -DCMAKE_PREFIX_PATH="$prefix" \
       -DMPI_C_COMPILER="$other_mpicc" -DMPI_Fortran_COMPILER="$other_mpif90" > "$work/other.log" 2>&1; then
    echo "FAIL: configuring against the other MPI succeeded"; exit 1
  fi
  grep -q "mpilat was built with MPI '$(pkg-config --variable=mpi_flavor mpilat)' but this project found MPI" \
    "$work/other.log" || { echo "FAIL: no flavour message"; cat "$work/other.log"; exit 1; }
  if "$other_mpicc" -c "$here/consumer/consumer.c" $(pkg-config --cflags mpilat) -o "$work/other.o" \
       > "$work/other-cc.log" 2>&1; then
    echo "FAIL: compiling against the other MPI succeeded"; exit 1
  fi
  grep -q "error: #error \"mpilat was built with" "$work/other-cc.log" || { cat "$work/other-cc.log"; exit 1; }
  passed=$((passed + 2))
fi
echo "install_consumers: $passed passed, 0 failed"
