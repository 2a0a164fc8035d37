#!/bin/bash
# bench/reprompi.sh BUILD_DIR [ROUNDS] [NP]: mpilat-coll's sync mode against ReproMPI's round time on a global
# clock (issue 44 part 7; docs/performance.md, "Against ReproMPI"), the peer that defines the method: barrier,
# bcast and allreduce of 8 bytes (one double), NP ranks (default 2), alternated A B A B ROUNDS times (default 5);
# prints each round's medians and each operation's median ratio mpilat / ReproMPI (target: within 10 %).
#   A: ReproMPI's mpibenchmark --proc-sync=window --clock-sync=HCA --runtime-type=global (last end minus first
#      start on the global clock, one call per window), --nrep REPS (default 5000), --window-size WINDOW_US
#      (default 100);
#   B: mpilat-coll --modes sync --reps REPS, the same operations and size.
# ReproMPI is built once under BUILD_DIR/reprompi from pinned public snapshots (it needs libgsl-dev): give
# REPROMPI_SRC (github.com/hunsa/reprompi at $reprompi_pin) and MPITS_SRC (github.com/hunsa/mpi-time-sync at
# $mpits_pin, which ReproMPI's CMake would otherwise clone at configure time); or REPROMPI_BIN, a built
# mpibenchmark (its libmpits.so beside it or on LD_LIBRARY_PATH). Environment: MPIEXEC, REPS, WINDOW_US, BIND
# (mpiexec's binding flags, default none).
set -euo pipefail
build=$(realpath "$1") rounds=${2:-5} np=${3:-2}
reps=${REPS:-5000} window_us=${WINDOW_US:-100} mpiexec=${MPIEXEC:-mpiexec} bind=${BIND:-}
reprompi_pin=2e73f3d6bb0035ff76f92aa5f366f7ec49d05030
mpits_pin=9e28a2abd9a2ee0be4fbbec79f18ccceef069868
coll=$build/drivers/mpilat-coll
[ -x "$coll" ] || { echo "reprompi.sh: $coll is not built" >&2; exit 2; }

# A snapshot that is a git checkout must be at its pin; an exported one (no .git) is taken as given.
check_pin() {
  local dir=$1 pin=$2 head
  [ -d "$dir" ] || { echo "reprompi.sh: $dir: no such directory" >&2; exit 2; }
  if [ -e "$dir/.git" ]; then
    head=$(git -C "$dir" rev-parse HEAD)
    [ "$head" = "$pin" ] || { echo "reprompi.sh: $dir is at $head, not the pinned $pin" >&2; exit 2; }
  fi
}

if [ -n "${REPROMPI_BIN:-}" ]; then
  bin=$(realpath "$REPROMPI_BIN")
else
  bin=$build/reprompi/build/bin/mpibenchmark
  if [ ! -x "$bin" ]; then
    if [ -z "${REPROMPI_SRC:-}" ] || [ -z "${MPITS_SRC:-}" ]; then
      echo "reprompi.sh: give REPROMPI_SRC and MPITS_SRC (the pinned snapshots) or REPROMPI_BIN" >&2; exit 2
    fi
    check_pin "$REPROMPI_SRC" "$reprompi_pin"
    check_pin "$MPITS_SRC" "$mpits_pin"
    [ -e /usr/include/gsl/gsl_fit.h ] || { echo "reprompi.sh: ReproMPI needs GSL: apt-get install libgsl-dev" >&2; exit 2; }
    mkdir -p "$build/reprompi"
    cmake -S "$REPROMPI_SRC" -B "$build/reprompi/build" -DCMAKE_BUILD_TYPE=Release \
      -DFETCHCONTENT_SOURCE_DIR_MPITS="$(realpath "$MPITS_SRC")" -DFETCHCONTENT_FULLY_DISCONNECTED=ON > "$build/reprompi/cmake.log" 2>&1 \
      || { cat "$build/reprompi/cmake.log" >&2; exit 1; }
    cmake --build "$build/reprompi/build" -j"$(nproc)" > "$build/reprompi/build.log" 2>&1 || { tail -20 "$build/reprompi/build.log" >&2; exit 1; }
  fi
fi
libdir=$(dirname "$(find "$(dirname "$bin")/.." -name 'libmpits.so*' -print -quit 2>/dev/null || true)")
export LD_LIBRARY_PATH=${libdir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ops=(barrier bcast allreduce)
declare -A ratios
printf '%-5s %-10s %14s %14s %8s %10s %10s\n' round op reprompi_us mpilat_us ratio repro_valid mpilat_late
for r in $(seq "$rounds"); do
  # A: ReproMPI, one call per window on its HCA global clock.
  # shellcheck disable=SC2086
  $mpiexec -n "$np" $bind "$bin" --calls-list=MPI_Barrier,MPI_Bcast,MPI_Allreduce --msizes-list=8 --datatype=MPI_DOUBLE --operation=MPI_SUM \
    --nrep="$reps" --summary=median --clock-sync=HCA --proc-sync=window --window-size="$window_us" --runtime-type=global \
    > repro.out 2> repro.err || { cat repro.err >&2; exit 1; }
  # B: mpilat-coll's sync mode.
  # shellcheck disable=SC2086
  $mpiexec -n "$np" $bind "$coll" --ops barrier,bcast,allreduce --modes sync --sizes 8 --reps "$reps" --noplot --noprogress \
    --outdir coll > /dev/null 2> coll.err || { cat coll.err >&2; exit 1; }
  for op in "${ops[@]}"; do
    read -r a valid b late < <(python3 - "$op" <<'EOF'
import json, sys
op = sys.argv[1]
name = {"barrier": "MPI_Barrier", "bcast": "MPI_Bcast", "allreduce": "MPI_Allreduce"}[op]
rows = [l.split() for l in open("repro.out") if l.split()[:1] == [name]]
# test count total_nrep valid_nrep median_sec
a = float(rows[0][4]) * 1e6
valid = rows[0][3] + "/" + rows[0][2]
p = [q for q in json.load(open("coll/mpilat-coll.json"))["points"] if q["operation"] == op and q["mode"] == "sync"][0]
print(f"{a:.4f} {valid} {p['stats']['median_us']:.4f} {p['late']}/{p['late'] + p['samples']}")
EOF
    )
    ratio=$(python3 -c "print(f'{$b / $a:.4f}')")
    ratios[$op]+="$ratio "
    printf '%-5s %-10s %14s %14s %8s %10s %10s\n' "$r" "$op" "$a" "$b" "$ratio" "$valid" "$late"
  done
done
for op in "${ops[@]}"; do
  # shellcheck disable=SC2086
  printf '%s\n' ${ratios[$op]} | sort -g | awk -v op="$op" -v np="$np" '{ r[NR] = $1 } END {
    printf "%s, %d ranks: median mpilat/ReproMPI over %d alternated rounds %.4f (%s..%s)\n", op, np, NR,
      (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2), r[1], r[NR] }'
done
