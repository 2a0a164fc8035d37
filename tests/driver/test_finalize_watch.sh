#!/bin/bash
# test_finalize_watch.sh DRIVER_DIR "MPIEXEC [flags]" HOLD_FINALIZE_LIBRARY [mpich|openmpi]
# The drivers' MPI_Finalize watch (drivers/driver_support.h, driver_finalize; issue 45): MPI_Finalize held by a
# preloaded library (tests/driver/hold_finalize.c), as UCX's TCP teardown holds it between nodes; the watch's
# 10 s shortened to 4 s (MPILAT_FINALIZE_WATCH_S). Rank 1 leaves the barrier before MPI_Finalize 2 s after
# rank 0, as ranks on two nodes do, so the watches end the ranks 2 s apart; once rank 1 is held 3 s only and
# enters MPI_Finalize's PMI barrier after rank 0's watch. The watch ends the held ranks with the run's
# status, and MPICH's launcher reports it: 0 for a run that measured (its files whole), 2 for a refused one.
# Before the watch ended PMI (its barrier, its finalize), hydra took the first rank to end for a dead one and
# killed the other (and reported 1 or 255 where that one had ended first), or reported 255 when a rank that
# had finalized was still owed the barrier's answer. Under Open MPI (the suite's stage 2) the watch ends PMIx
# (PMIx_Finalize), without which mpirun reports 1 for a rank "exiting improperly"; the case of a PMI barrier
# entered late is hydra's (MPICH) only. The measured runs are mpptest's (stage 2 builds latency and mpptest).
set -u
bin=$1 mpiexec=$2 hold=$3 flavor=${4:-mpich}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=checks.sh
. "$here/checks.sh"

# run NAME HELD COMMAND...: 2 ranks under the preloaded library holding MPI_Finalize on HELD ("all" or a rank;
# MPILAT_HOLD_FINALIZE_S and MPILAT_LATE_S from the environment); rc, NAME/err and the seconds taken.
run() {
  local name=$1 held=$2
  shift 2
  mkdir -p "$name"
  local t0=$SECONDS
  # verify_asan_link_order=0: a sanitized driver (stage 2) with a library preloaded before ASan's runtime.
  timeout -k 5 90 $mpiexec -n 2 env LD_PRELOAD="$hold" MPILAT_HOLD_FINALIZE="$held" MPILAT_LATE_RANK=1 \
    MPILAT_FINALIZE_WATCH_S=4 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@" \
    > "$name/stdout" 2> "$name/err" < /dev/null
  rc=$? took=$((SECONDS - t0))
}
# ended_by_watch NAME STATUS WHAT [WATCHES]: exit STATUS, the watch's words on stderr (WATCHES ranks', default
# 2), after the watch's 4 s (its 10 s shortened for the test: MPILAT_FINALIZE_WATCH_S) and within a margin.
ended_by_watch() {
  [ "$rc" = "$2" ] && ok || bad "$3: exit $rc, expected $2 ($(tail -5 "$1/err"))"
  # Both ranks ended by their own watch: before, the launcher killed the late one when the first one's PMI
  # socket closed unfinalized (hydra ends the job's other processes then), and its words were lost.
  [ "$(grep -c "MPI_Finalize did not return within 4 s.*exiting with status $2" "$1/err")" = "${4:-2}" ] && ok \
    || bad "$3: not ${4:-2} ranks' watches said they ended the run ($(tail -3 "$1/err"))"
  [ "$took" -ge 4 ] && [ "$took" -lt 40 ] && ok || bad "$3: took $took s (the watch waits 4 s)"
}

# A run that measured (a few seconds of mpptest).
measured=("$bin/mpptest" -sizelist 0,64 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress -outdir)
# Rank 1 held (rank 0 in MPI_Finalize waits for it in PMI's barrier): exit 0, the files whole.
run one_held 1 "${measured[@]}" one_held/out
ended_by_watch one_held 0 "mpptest, rank 1 held in MPI_Finalize"
python3 -c "import json, sys; json.load(open(sys.argv[1]))" one_held/out/mppout.json 2> /dev/null && ok \
  || bad "mpptest, rank 1 held: its JSON is not whole ($(ls one_held/out 2>&1))"
if [ "$flavor" = mpich ]; then
  # Rank 1 held 3 s, its barrier 3 s late: rank 0's watch ends it (at 4 s) while it waits in PMI's barrier,
  # and rank 1 enters that barrier 2 s later, 1 s before its own watch (a teardown that came loose). The watch
  # waits for the barrier's answer before PMI's finalize: a rank that finalized first made the launcher's
  # answer to the barrier fail (exit 255).
  MPILAT_HOLD_FINALIZE_S=3 MPILAT_LATE_S=3 run released 1 "${measured[@]}" released/out
  [ "$rc" = 0 ] && ok || bad "mpptest, rank 1 in PMI's barrier after rank 0's watch: exit $rc, expected 0 ($(tail -3 released/err))"
fi
# Every rank held.
run all_held all "${measured[@]}" all_held/out
ended_by_watch all_held 0 "mpptest, every rank held in MPI_Finalize"
# A refused run (the Fortran driver; a bad value): its status 2 is the launcher's.
run refused all "$bin/latency" --npp -1 --outdir refused/out
# Open MPI's mpirun ends the job's other ranks when one exits non-zero (its rule; the late rank is still
# waiting in its watch then): one watch speaks.
watches=2
[ "$flavor" = openmpi ] && watches=1
ended_by_watch refused 2 "latency --npp -1, every rank held" "$watches"
grep -q "npp must be >= 0" refused/err && ok || bad "latency --npp -1: no message naming the value"
# Nothing left running: the held ranks ended by the watch, not by the time limit.
sleep 1
pgrep -f "MPILAT_HOLD_FINALIZE|$work" > /dev/null && bad "processes left: $(pgrep -af "$work")" || ok
finish_checks finalize_watch
