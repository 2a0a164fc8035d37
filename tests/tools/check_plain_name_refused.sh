#!/bin/bash
# check_plain_name_refused.sh CC SOURCE "INCLUDE_DIRS;...": a call by an entry point's plain name from code
# compiled against this release's mpilat.h fails to compile, naming the function and the way to call it
# (docs/api.md, "How the ABI grows"); with LAT_PLAIN_ENTRIES (a binding that means it) it compiles.
set -u
cc=$1 source=$2 includes=$3
flags=()
IFS=';' read -r -a dirs <<< "$includes"
for d in "${dirs[@]}"; do [ -n "$d" ] && flags+=("-I$d"); done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
if "$cc" "${flags[@]}" -c "$source" -o "$out/a.o" 2> "$out/err"; then
  echo "FAIL: a call by the plain name compiled"; fail=1
elif ! grep -q "lat_sweep_defaults by its plain name takes the structs of 0.9" "$out/err"; then
  echo "FAIL: refused, but not by the plain name's error:"; cat "$out/err"; fail=1
fi
"$cc" "${flags[@]}" -DLAT_PLAIN_ENTRIES -c "$source" -o "$out/b.o" 2> "$out/err2" \
  || { echo "FAIL: with LAT_PLAIN_ENTRIES it did not compile:"; cat "$out/err2"; fail=1; }
[ "$fail" = 0 ] && echo "plain-name call refused, and compiled with LAT_PLAIN_ENTRIES"
exit "$fail"
