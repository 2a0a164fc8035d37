#!/bin/bash
# test_slurm_drivers.sh SOURCE_DIR DRIVERS_DIR MPIEXEC [TEMPLATE_DRIVERS_DIR]
# Every MPI driver under a real one-node Slurm (scripts/slurm-start.sh, stopped at exit by its PID files):
#   1. `srun --mpi=pmi2 -n 2 DRIVER <quick run>`: exit 0 and its files; with Slurm's default --mpi=none,
#      exit 2 on every task with a message saying to launch with --mpi=pmi2, and no file;
#   2. `sbatch --time=1` of a run longer than that, the batch script `exec srun ...`: Slurm ends it at the
#      limit with its own SIGTERM burst (TERM, CONT, TERM); the files are whole (no temporary file), marked
#      partial, and Slurm records the job as TIMEOUT with exit code 3, before the SIGKILL that follows
#      KillWait (30 s);
#   2b. `sbatch --signal=USR1@50` (Slurm's early warning): the run stops at its next safe point with its
#      partial files, exit 3, the job FAILED 3:0 before its limit;
#   3. `scancel` of a running job of each driver: the same, the job CANCELLED with exit code 3;
#   3b. `scancel --signal=USR1` and `--signal=HUP`: as 2b, and no UCX debug lines in the job's output;
#   4. MPICH's mpiexec inside an allocation (sbatch): a quick run of each driver.
# The jobs of each step run at once (the partition lets jobs share the 2 CPUs), so the time limit is
# waited for once. (Steps 3 to 4 during step 2's wait were tried: their jobs wait for the slots step 2's
# hold, and the test took longer.) Never a timing value. Exit 77 (skipped) when the daemons cannot start here, unless
# MPILAT_REQUIRE_SLURM=1 (scripts/test-all.sh sets it: CI must show these ran).
# TEMPLATE_DRIVERS_DIR: where template_capability left the template capability's driver (mpilat-toy, built
# in its copy of the tree) and that copy's table of MPI drivers: its row is run here with the tree's.
set -u
src=$1 drivers=$2 mpiexec=$3 template_drivers=${4:-}
# shellcheck source=../driver/checks.sh
. "$src/tests/driver/checks.sh"

# Ports of our own, free now: another Slurm (a developer's, a second suite) may be running.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*[x.getsockname()[1] for x in s])')
export MPILAT_SLURMCTLD_PORT=$ctld_port MPILAT_SLURMD_PORT=$slurmd_port
sdir=$work/slurm
trap 'bash "$src/scripts/slurm-stop.sh" "$sdir"; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM  # a stop (tests/tools/run_test.py at its deadline) ends here through the EXIT trap
bash "$src/scripts/slurm-start.sh" "$sdir" > start.out 2>&1
rc=$?
if [ "$rc" = 77 ]; then
  cat start.out
  [ "${MPILAT_REQUIRE_SLURM:-0}" = 1 ] && { echo "FAIL: Slurm could not start and MPILAT_REQUIRE_SLURM=1"; exit 1; }
  echo "skipped: the Slurm daemons cannot start on this machine"
  exit 77
fi
[ "$rc" = 0 ] || { cat start.out; echo "FAIL: slurm-start.sh exited $rc"; exit 1; }
# shellcheck source=/dev/null
. "$sdir/env"

# Every MPI driver: its quick run, its long run (beyond a minute; stops at its next safe point within a second
# or two), the progress line of its measurement and the files every run writes (tests/driver/mpi_drivers.sh).
# shellcheck source=../driver/mpi_drivers.sh
. "$src/tests/driver/mpi_drivers.sh"
names=()
declare -A program
for name in "${mpi_drivers[@]}"; do
  program[$name]=$drivers/$name
  [ -x "$drivers/$name" ] && names+=("$name") || echo "$name not built: left out"
done
# The template capability's driver, by its row of the copy's table (the recipe's "Slurm row"): its quick
# run in steps 1, 1b and 4 (srun, srun --mpi=none, mpiexec in an allocation). Not in the steps of long runs
# (2, 2b, 3, 3b: the time limit, scancel, the signals): their jobs already fill the partition's 8 slots and
# the 2 CPUs, and a seventh driver's long runs cost the test 50 to 120 s (195 to 266 s against 141 s); the
# toy's stops by signal are driver_stops' in template_capability, as every driver's.
waved=("${names[@]}")
if [ -n "$template_drivers" ] && [ -f "$template_drivers/mpi_drivers.sh" ]; then
  # shellcheck source=/dev/null
  . "$template_drivers/mpi_drivers.sh"
  for name in "${mpi_drivers[@]}"; do
    [ -n "${program[$name]:-}" ] && continue
    program[$name]=$template_drivers/$name
    [ -x "${program[$name]}" ] && names+=("$name") && echo "$name (the template capability's driver) taken in"
  done
elif [ "${MPILAT_REQUIRE_SLURM:-0}" = 1 ]; then
  bad "no template capability's driver in ${template_drivers:-(none given)} (template_capability leaves it there)"
else
  echo "no template capability's driver in ${template_drivers:-(none given)}: left out (template_capability leaves it)"
fi

# The job's state and exit code as Slurm recorded them, once the job has left the queue (completing
# included: its tasks have ended): "TIMEOUT 3:0". (jobcomp.txt is written when the state is set, before the
# tasks end, so its exit code is not the tasks'; scontrol's, kept MinJobAge seconds, is.)
job_record() {  # jobid
  local k
  for k in $(seq 1500); do
    [ -z "$(squeue -h -j "$1" -o %T 2> /dev/null)" ] && break
    sleep 0.2
  done
  scontrol show job "$1" 2> /dev/null | tr ' ' '\n' | awk -F= '$1 == "JobState" { s = $2 } $1 == "ExitCode" { e = $2 }
    END { print s " " e }'
}

# Every JSON file of DIR says partial; no temporary file is left; the files are there.
partial_files() {  # name dir what
  local name=$1 dir=$2 what=$3 f
  for f in ${files[$name]}; do [ -s "$dir/$f" ] && ok || bad "$what $name: no $f ($(ls -A "$dir" | tr '\n' ' '))"; done
  ls -A "$dir" | grep -q '^\.mpilat-' && bad "$what $name: temporary files left: $(ls -A "$dir" | tr '\n' ' ')" || ok
  for f in "$dir"/*.json; do
    [ -e "$f" ] || continue
    python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['run']['partial'] is True" "$f" && ok ||
      bad "$what $name: $f not marked partial"
  done
}

# The batch script of a long run: `exec srun` so that the job's exit code is the drivers'.
long_script() {  # name dir
  printf '#!/bin/bash\nexec srun --mpi=pmi2 -n 2 %q %s --outdir %q\n' "${program[$1]}" "${long[$1]}" "$2" > "$2.sh"
}
submit() {  # name dir sbatch-options... : the job id
  local name=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  long_script "$name" "$dir"
  sbatch --parsable -n 2 -o "$dir.log" "$@" "$dir.sh" 2> "$dir.sbatch.err" || bad "sbatch $name: $(cat "$dir.sbatch.err")"
}

# Each step's end, for docs/testing.md's times.
step_done() { echo "slurm_drivers: $1 done at ${SECONDS} s"; }

# ---- 1. srun launches a quick run of each driver, all at once ----------------------------------------------
declare -A srun_pid none_pid
for name in "${names[@]}"; do
  mkdir "srun_$name"
  timeout 300 srun --mpi=pmi2 -n 2 "${program[$name]}" ${quick[$name]} --outdir "srun_$name" > "srun_$name.out" 2>&1 &
  srun_pid[$name]=$!
done
for name in "${names[@]}"; do
  wait "${srun_pid[$name]}" && ok || bad "srun $name: exit $? ($(tail -3 "srun_$name.out"))"
  for f in ${files[$name]//100000000/10}; do [ -s "srun_$name/$f" ] && ok || bad "srun $name: no $f"; done
done
step_done "1. srun"

# ---- 1b. Slurm's default --mpi=none: each task a job of one process; exit 2, saying how to launch ---------
for name in "${names[@]}"; do
  mkdir "none_$name"
  timeout 120 srun --mpi=none -n 2 "${program[$name]}" ${quick[$name]} --outdir "none_$name" > "none_$name.out" 2>&1 &
  none_pid[$name]=$!
done
for name in "${names[@]}"; do
  wait "${none_pid[$name]}"
  rc=$?
  [ "$rc" = 2 ] && ok || bad "srun --mpi=none $name: exit $rc, not 2 ($(tail -3 "none_$name.out"))"
  grep -q "^$name: Slurm started 2 tasks but MPI sees 1 process in this one: .*srun --mpi=pmi2" "none_$name.out" && ok ||
    bad "srun --mpi=none $name: no hint ($(head -3 "none_$name.out"))"
  [ -z "$(ls -A "none_$name")" ] && ok || bad "srun --mpi=none $name: files written: $(ls -A "none_$name")"
done
step_done "1b. srun --mpi=none"

# ---- 2. the time limit: every driver's job at once, --time=1 ------------------------------------------------
# With them, 2b: Slurm's early warning, sbatch --signal=USR1@50: slurmctld sends it on its first check at
# least 10 s into the job (checks come every 30 s, so 10-40 s in), long before the limit.
declare -A timeout_job warned_job
for name in "${waved[@]}"; do timeout_job[$name]=$(submit "$name" "limit_$name" --time=1); done
for name in "${waved[@]}"; do warned_job[$name]=$(submit "$name" "warned_$name" --time=1 --signal=USR1@50); done
for name in "${waved[@]}"; do
  record=$(job_record "${timeout_job[$name]}")
  [ "$record" = "TIMEOUT 3:0" ] && ok || bad "time limit $name: Slurm recorded '$record', not 'TIMEOUT 3:0' ($(tail -3 "limit_$name.log"))"
  partial_files "$name" "limit_$name" "time limit"
  grep -q 'CANCELLED AT .* DUE TO TIME LIMIT' "limit_$name.log" && ok || bad "time limit $name: not ended by the time limit"
  grep -q 'KILLED\|Killed' "limit_$name.log" && bad "time limit $name: killed before it ended: $(grep -i killed "limit_$name.log")" || ok
done

# A warned job stops at its next safe point with its partial files: its tasks exit 3, which Slurm records as
# FAILED 3:0 (not TIMEOUT: it ended before the limit).
for name in "${waved[@]}"; do
  record=$(job_record "${warned_job[$name]}")
  [ "$record" = "FAILED 3:0" ] && ok || bad "--signal=USR1@50 $name: Slurm recorded '$record', not 'FAILED 3:0' ($(tail -3 "warned_$name.log"))"
  partial_files "$name" "warned_$name" "--signal=USR1@50"
  grep -q "signal 10" "warned_$name.log" && ok || bad "--signal=USR1@50 $name: no 'signal 10' in the log ($(tail -3 "warned_$name.log"))"
done

step_done "2. the time limit and 2b. its warning"

# ---- 3. scancel of a running job: the same, CANCELLED with exit code 3 ------------------------------------
declare -A cancel_job
for name in "${waved[@]}"; do cancel_job[$name]=$(submit "$name" "cancel_$name"); done
# Each job cancelled once its progress lines show it measuring (they come every 2 s).
for name in "${waved[@]}"; do
  for _ in $(seq 1200); do
    grep -q "mpilat: ${measuring[$name]}" "cancel_$name.log" 2> /dev/null && break
    sleep 0.1
  done
  grep -q "mpilat: ${measuring[$name]}" "cancel_$name.log" 2> /dev/null || bad "scancel $name: not measuring after 120 s"
  scancel "${cancel_job[$name]}"
done
for name in "${waved[@]}"; do
  record=$(job_record "${cancel_job[$name]}")
  [ "$record" = "CANCELLED 3:0" ] && ok || bad "scancel $name: Slurm recorded '$record', not 'CANCELLED 3:0' ($(tail -3 "cancel_$name.log"))"
  partial_files "$name" "cancel_$name" scancel
done

step_done "3. scancel"

# ---- 3b. scancel --signal=USR1 (the warning by hand) and --signal=HUP of a running job: the same stop, the
# job FAILED 3:0 (it ended itself), and no page of UCX debug lines (UCX prints one on SIGHUP unless replaced).
# One signal's jobs at a time: the partition runs 8 jobs at once (OverSubscribe=FORCE:8), and of 12 the last
# 4 waited for the scheduler's next pass after others ended: 17 to 64 s for the step.
for kind in usr1 hup; do
  declare -A signal_job=()
  for name in "${waved[@]}"; do signal_job[$name]=$(submit "$name" "${kind}_$name"); done
  for name in "${waved[@]}"; do
    for _ in $(seq 1200); do
      grep -q "mpilat: ${measuring[$name]}" "${kind}_$name.log" 2> /dev/null && break
      sleep 0.1
    done
    grep -q "mpilat: ${measuring[$name]}" "${kind}_$name.log" 2> /dev/null || bad "scancel --signal $kind $name: not measuring after 120 s"
    scancel --signal="${kind^^}" "${signal_job[$name]}"
  done
  for name in "${waved[@]}"; do
    record=$(job_record "${signal_job[$name]}")
    [ "$record" = "FAILED 3:0" ] && ok || bad "scancel --signal=$kind $name: Slurm recorded '$record', not 'FAILED 3:0' ($(tail -3 "${kind}_$name.log"))"
    partial_files "$name" "${kind}_$name" "scancel --signal=$kind"
    grep -qi "ucs\|ucp_\|uct_" "${kind}_$name.log" && bad "scancel --signal=$kind $name: UCX lines: $(grep -ci 'ucs' "${kind}_$name.log")" || ok
  done
done

step_done "3b. scancel --signal"

# ---- 4. MPICH's mpiexec inside the allocation: every driver's job at once -----------------------------------
if $mpiexec --version 2>&1 | grep -q HYDRA; then
  declare -A mpiexec_job
  for name in "${names[@]}"; do
    mkdir "mpiexec_$name"
    printf '#!/bin/bash\nexec %s -n 2 %q %s --outdir %q\n' "$mpiexec" "${program[$name]}" "${quick[$name]}" "mpiexec_$name" \
      > "mpiexec_$name.sh"
    mpiexec_job[$name]=$(sbatch --parsable -n 2 -o "mpiexec_$name.log" "mpiexec_$name.sh" 2> "mpiexec_$name.sbatch.err") ||
      bad "sbatch mpiexec $name: $(cat "mpiexec_$name.sbatch.err")"
  done
  for name in "${names[@]}"; do
    record=$(job_record "${mpiexec_job[$name]}")
    [ "$record" = "COMPLETED 0:0" ] && ok ||
      bad "mpiexec in an allocation, $name: Slurm recorded '$record', not 'COMPLETED 0:0' ($(tail -3 "mpiexec_$name.log"))"
    for f in ${files[$name]//100000000/10}; do [ -s "mpiexec_$name/$f" ] && ok || bad "mpiexec $name: no $f"; done
  done
else
  echo "mpiexec inside the allocation left out: the launcher is not MPICH's hydra"
fi
step_done "4. mpiexec in an allocation"
finish_checks slurm_drivers
