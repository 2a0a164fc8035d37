#!/bin/bash
# test_run_test.sh RUN_TEST MPPTEST "MPIEXEC [flags]": tests/tools/run_test.py as ctest uses it, with the
# real events: an MPI job still measuring at the deadline (stopped, the test's trap run, no rank left); a
# process a test leaves behind (named, killed, the test failed); other work on the CPUs during a quiet test
# (not judged, exit 77; judged under CI=true); the test's own load (judged).
set -u
run_test=$1 mpptest=$2 mpiexec=$3
# shellcheck source=../driver/checks.sh
. "$(dirname "$0")/../driver/checks.sh"
marker="run-test-$$-$RANDOM"

# ---- the deadline: SIGTERM to the group (the trap runs), nothing left
python3 "$run_test" --deadline 3 bash -c "trap 'touch trapped; exit 1' TERM
  $mpiexec -n 2 '$mpptest' -size 0 65536 64 -max_sizes 2000 -sample_reps 100000 -n_stable 0 -noplot -noprogress \
    -outbase '$marker' > /dev/null 2>&1 &
  wait" > deadline.out 2>&1
rc=$?
[ "$rc" = 124 ] && ok || bad "deadline: exit $rc, not 124: $(cat deadline.out)"
grep -q 'deadline of 3 s reached' deadline.out && ok || bad "deadline: not said: $(cat deadline.out)"
[ -e trapped ] && ok || bad "deadline: the test's TERM trap did not run"
sleep 0.5
pgrep -f -- "$marker" > left.txt && bad "deadline: left running: $(cat left.txt)" || ok

# ---- a process left behind by a test that passed: named, killed, the test failed
python3 "$run_test" bash -c "bash -c 'sleep 300; : $marker-orphan' & exit 0" > orphan.out 2>&1
rc=$?
[ "$rc" = 1 ] && ok || bad "left behind: exit $rc, not 1"
grep -q "still running after it ended" orphan.out && grep -q "$marker-orphan" orphan.out && ok \
  || bad "left behind: not named: $(cat orphan.out)"
pgrep -f -- "$marker-orphan" > /dev/null && bad "left behind: still running" || ok

# ---- quiet: other work on a CPU while the test runs is not judged (77), unless CI=true
( timeout 3 sh -c 'while :; do :; done' ) &
hog=$!
sleep 0.2
CI=false python3 "$run_test" --quiet sh -c 'sleep 2; exit 5' > busy.out 2>&1
rc=$?
[ "$rc" = 77 ] && grep -q '^machine busy: not judged: other work used' busy.out && ok \
  || bad "busy: exit $rc, not 77: $(cat busy.out)"
wait $hog
( timeout 3 sh -c 'while :; do :; done' ) &
hog=$!
sleep 0.2
CI=true python3 "$run_test" --quiet sh -c 'sleep 2; exit 5' > ci.out 2>&1
rc=$?
[ "$rc" = 5 ] && grep -q 'judged anyway (CI)' ci.out && ok || bad "busy under CI=true: exit $rc, not 5: $(cat ci.out)"
wait $hog
# The test's own load is its own: a CPU hog inside the test (half of this machine's 2 CPUs) is judged.
CI=false MPILAT_QUIET_LIMIT=0.3 python3 "$run_test" --quiet sh -c 'timeout 2 sh -c "while :; do :; done"; exit 6' > own.out 2>&1
rc=$?
[ "$rc" = 6 ] && ok || bad "own load: exit $rc, not 6 (judged): $(cat own.out)"

finish_checks "run_test"
