#!/bin/bash
# test_shared_release.sh PREVIOUS CURRENT LIBRARY STUB_MAP CHECKER BUILD_DIR "MPIEXEC [flags]" MPICC MPIF90
#                        DLSYM_PROGRAM PLAIN_CALL_SOURCE [SANITIZE]
# The shared library (-DBUILD_SHARED_LIBS=ON) in the place of a release's (docs/api.md, "Shared library"):
# 1. PREVIOUS, tests/c/abi_caller.c compiled against 0.9's headers and linked against a stand-in of 0.9's
#    libmpilat.so.0 (STUB_MAP: its functions, version MPILAT_0.9), needs libmpilat.so.0 and references its
#    lat_* functions at version MPILAT_0.9 only, as a program linked against a 0.9 shared library would;
# 2. LIBRARY exports each of those functions at MPILAT_0.9, nothing of its core, and a plain entry (one that
#    takes 0.9's structs) only as a non-default version: a new program's link by the plain name fails
#    (PLAIN_CALL_SOURCE with LAT_PLAIN_ENTRIES), dlsym does not find it, dlvsym does (DLSYM_PROGRAM);
# 3. PREVIOUS, run with LIBRARY in the stand-in's place, prints what CURRENT prints (CHECKER:
#    check_previous_caller.sh, which also checks that PREVIOUS calls only plain entries);
# 4. installed (cmake --install --component library), a user's C and Fortran programs build against it by
#    find_package and by pkg-config, and run on 2 ranks against the installed libraries.
set -u
previous=$1 current=$2 library=$3 stub_map=$4 checker=$5 build=$6 mpiexec=$7 mpicc=$8 mpif90=$9
dlsym_program=${10} plain_call=${11} sanitize=${12:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# 1. what PREVIOUS recorded
released=$(grep -oE '^    lat_[a-z0-9_]+;' "$stub_map" | tr -d ' ;' | sort)
[ "$(echo "$released" | wc -l)" -ge 60 ] || bad "the stand-in lists $(echo "$released" | wc -l) functions of 0.9"
readelf -d "$previous" | grep -q 'NEEDED.*\[libmpilat\.so\.0\]' && ok || bad "PREVIOUS does not need libmpilat.so.0"
refs=$(readelf --dyn-syms -W "$previous" | awk '$7 == "UND"' | grep -oE 'lat_[a-z0-9_]+(@[A-Z0-9_.]+)?' | sort -u)
[ "$(echo "$refs" | grep -c .)" -ge 10 ] && ok || bad "PREVIOUS references only $(echo "$refs" | grep -c .) lat_ functions"
unversioned=$(echo "$refs" | grep -v '@MPILAT_0\.9$' || true)
[ -z "$unversioned" ] && ok || bad "PREVIOUS references lat_ functions not at MPILAT_0.9: $unversioned"

# 2. what LIBRARY exports
symbols=$(readelf --dyn-syms -W "$library" | awk '$7 != "UND" {print $8}')
exported=$(echo "$symbols" | grep -oE '^lat_[a-z0-9_]+@@?MPILAT_0\.9$' | sed 's/@.*//' | sort)
missing=$(comm -23 <(echo "$released") <(echo "$exported"))
[ -z "$missing" ] && ok || bad "LIBRARY does not export at MPILAT_0.9: $missing"
# The plain entries: the released functions that have a sized entry, each a non-default version only.
plain=$(for f in $released; do echo "$symbols" | grep -qx "${f}_sized@@MPILAT_0.[0-9]*" && echo "$f"; done)
[ "$(echo "$plain" | grep -c .)" -ge 20 ] && ok || bad "only $(echo "$plain" | grep -c .) plain entries found"
default=$(for f in $plain; do echo "$symbols" | grep -qx "$f@MPILAT_0.9" || echo "$f"; done)
[ -z "$default" ] && ok || bad "plain entries exported other than as name@MPILAT_0.9 alone: $default"
"$dlsym_program" "$library" > "$work/dlsym.log" 2>&1 && ok || bad "$(cat "$work/dlsym.log")"
core=$(readelf --dyn-syms -W "$library" | awk '$7 != "UND" {print $8}' | grep -E '^(lat_impl_|_ZN3lat)' | head -5)
[ -z "$core" ] && ok || bad "LIBRARY exports its core: $core"
newer=$(readelf --dyn-syms -W "$library" | awk '$7 != "UND" {print $8}' | grep -E '^lat_' | grep -vE '@@?MPILAT_0\.(9|[1-9][0-9])$' | head -5)
[ -z "$newer" ] && ok || bad "LIBRARY exports functions without a version: $newer"

san_flags=()
[ -n "$sanitize" ] && san_flags=("-fsanitize=$sanitize")
include=$(dirname "$(dirname "$plain_call")")/../include
if "$mpicc" "${san_flags[@]}" -DLAT_PLAIN_ENTRIES -I"$include" -I"$build/include" "$plain_call" -L"$(dirname "$library")" -lmpilat \
     -o "$work/plain_call" > "$work/plain.log" 2>&1; then
  bad "a new program linked to the plain entry lat_sweep_defaults"
else
  grep -q "undefined reference to .lat_sweep_defaults'" "$work/plain.log" && ok || bad "the plain link failed otherwise: $(cat "$work/plain.log")"
fi

# 3. PREVIOUS against LIBRARY, in the stand-in's place
libdir=$(dirname "$library")
loaded=$(LD_LIBRARY_PATH="$libdir" LD_TRACE_LOADED_OBJECTS=1 "$previous" | grep 'libmpilat\.so\.0')
echo "$loaded" | grep -qF "$libdir/libmpilat.so.0" && ok || bad "PREVIOUS did not load LIBRARY: $loaded"
if LD_LIBRARY_PATH="$libdir" bash "$checker" "$previous" "$current" > "$work/checker.log" 2>&1; then ok; else
  bad "PREVIOUS against LIBRARY: $(cat "$work/checker.log")"; fi

# 4. installed, and used the two ways users do
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" --component library > /dev/null || bad "cmake --install --component library"
ls "$prefix"/lib*/libmpilat.so.0 "$prefix"/lib*/libmpilat_fortran.so.0 > /dev/null 2>&1 && ok || bad "no shared libraries installed"
ls "$prefix"/lib*/libmpilat.a > /dev/null 2>&1 && bad "an archive installed beside the shared library" || ok
[ -e "$prefix/bin" ] && bad "the component library installed $(ls "$prefix/bin")" || ok
flags=("${san_flags[@]}") cmake_flags=()
if [ -n "$sanitize" ]; then
  cmake_flags=("-DCMAKE_C_FLAGS=-fsanitize=$sanitize" "-DCMAKE_Fortran_FLAGS=-fsanitize=$sanitize"
               "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize")
fi
if cmake -S "$here/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DMPI_C_COMPILER="$mpicc" \
     -DMPI_Fortran_COMPILER="$mpif90" "${cmake_flags[@]}" > "$work/cfg.log" 2>&1 &&
   cmake --build "$work/cmake-build" > "$work/build.log" 2>&1; then
  for p in consumer_c consumer_f; do
    lib=$(LD_TRACE_LOADED_OBJECTS=1 "$work/cmake-build/$p" | grep -E 'libmpilat(_fortran)?\.so\.0' | head -1)
    echo "$lib" | grep -qF "$prefix/" || bad "find_package: $p loads $lib, not the installed library"
    (cd "$work" && timeout -k 5 60 $mpiexec -n 2 "$work/cmake-build/$p" > "$work/run.log" 2>&1) && ok \
      || bad "find_package: $p: $(tail -5 "$work/run.log")"
  done
else
  bad "find_package consumer: $(tail -20 "$work/cfg.log" "$work/build.log" 2> /dev/null)"
fi
export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name mpilat.pc | head -1)")"
libs=$(dirname "$(ls "$prefix"/lib*/libmpilat.so.0 | head -1)")
if "$mpicc" "${flags[@]}" "$here/consumer/consumer.c" $(pkg-config --cflags --libs mpilat) -o "$work/pc_c" 2> "$work/pc.log" &&
   "$mpif90" "${flags[@]}" "$here/consumer/consumer.F90" $(pkg-config --cflags --libs mpilat-fortran) -o "$work/pc_f" 2>> "$work/pc.log"; then
  readelf -d "$work/pc_c" | grep -q 'NEEDED.*\[libmpilat\.so\.0\]' && ok || bad "pkg-config: the C program does not need libmpilat.so.0"
  for p in pc_c pc_f; do
    (cd "$work" && LD_LIBRARY_PATH="$libs" timeout -k 5 60 $mpiexec -n 2 "$work/$p" > "$work/run.log" 2>&1) && ok \
      || bad "pkg-config: $p: $(tail -5 "$work/run.log")"
  done
else
  bad "pkg-config consumer: $(cat "$work/pc.log")"
fi
echo "abi_shared_release: $passed passed, $failed failed"
[ "$failed" = 0 ]
