#!/bin/bash
# test_stops.sh DRIVER_DIR "MPIEXEC [flags]" TTY_CTRLC
# Stops as users make them (docs/batch.md, "Stopping a run"), for every MPI driver under the suite's mpiexec:
#   1. Ctrl-C at a terminal: the driver runs as the foreground job of a pseudo-terminal (TTY_CTRLC) and the
#      byte 0x03 is typed once it is measuring: the launcher's own SIGINT handling, as a person meets it;
#   2. SIGTERM to mpiexec itself (a script's `kill`, a batch system that signals only the launcher);
#   3. SIGUSR1 and SIGHUP to the ranks (Slurm's --signal warning; a closed session).
# Each time: the files are there, whole (no temporary left) and marked partial, and the launcher's exit
# status is one of those docs/batch.md lists for it (MPICH 4.0's hydra: 3 or 0; Open MPI 4.1's mpirun: 1).
set -u
bin=$1 mpiexec=$2 tty_ctrlc=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=checks.sh
. "$here/checks.sh"

# Open MPI's mpirun SIGKILLs the ranks odls_base_sigkill_timeout s after its SIGTERM; the suite sets 0 (for
# quick failures), a user has the default 1 s, in which the files are written: the default here.
mpiexec=${mpiexec//--mca odls_base_sigkill_timeout 0/}
if $mpiexec --version 2>&1 | grep -q HYDRA; then launcher=mpich; else launcher=openmpi; fi
# The statuses each launcher gives after a stop, as they are (docs/batch.md).
case $launcher in
  mpich) allowed_ctrlc="0 3" allowed_term="0 3" ;;
  openmpi) allowed_ctrlc="1" allowed_term="1" ;;
esac
allowed_signal="3"  # a signal to the ranks themselves: the drivers' own status passes through

# MPILAT_STOPS_DRIVERS: the drivers to stop (default all); scripts/test-all.sh gives Open MPI's stage two,
# the launcher's part, since each driver's own stop is the same code under any launcher.
# shellcheck source=mpi_drivers.sh
. "$here/mpi_drivers.sh"
read -r -a names <<< "${MPILAT_STOPS_DRIVERS:-${mpi_drivers[*]}}"

# stopped WHAT NAME DIR STATUS ALLOWED: the files of a stopped run, and the status.
stopped() {
  local what=$1 name=$2 dir=$3 status=$4 allowed=$5
  [[ " $allowed " == *" $status "* ]] && ok || bad "$what $name: status $status, not one of $allowed ($(tail -c 300 "$dir.log" | tr '\r' ' '))"
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['run']['partial'] is True" "$dir/$(json_of "$name")" 2> /dev/null \
    && ok || bad "$what $name: no $(json_of "$name") marked partial ($(ls -A "$dir" | tr '\n' ' '); $(tail -c 300 "$dir.log" | tr '\r' ' '))"
  ls -A "$dir" | grep -q '^\.mpilat-' && bad "$what $name: temporary files left" || ok
  # nodecomm finishes its first pass over the grid before it stops: every size has a point, and the fit is there.
  if [ "$name" = nodecomm ]; then
    python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
assert sorted({p['bytes'] for p in j['points'] if p['reps'] > 0}) == [8, 64, 512], j['points']
assert j['fit']['regimes'], j['fit']" "$dir/nodecomm.json" 2> /dev/null && ok || bad "$what nodecomm: not every size has a point, or no fit"
  fi
}
# ranks_of PID NAME: the processes named NAME below PID (the launcher's ranks, not anyone else's).
ranks_of() {
  local p
  for p in $(pgrep -P "$1"); do
    [ "$(cat "/proc/$p/comm" 2> /dev/null)" = "$2" ] && echo "$p"
    ranks_of "$p" "$2"
  done
}
# wait_for PATTERN FILE: up to 120 s for PATTERN to appear in FILE.
wait_for() {
  for _ in $(seq 1200); do
    grep -q "$1" "$2" 2> /dev/null && return 0
    sleep 0.1
  done
  return 1
}

# The four stops of one driver, one after another.
stop_driver() {
  local name=$1 launcher_pid rank sig
  [ -x "$bin/$name" ] || { bad "$name not built"; return; }
  # ---- 1. Ctrl-C at a terminal.
  mkdir "ctrlc_$name"
  # shellcheck disable=SC2086
  python3 "$tty_ctrlc" "mpilat: ${measuring[$name]}" 120 "ctrlc_$name.log" $mpiexec -n 2 "$bin/$name" ${long[$name]} --outdir "ctrlc_$name"
  stopped "Ctrl-C" "$name" "ctrlc_$name" $? "$allowed_ctrlc"
  # ---- 2. SIGTERM to mpiexec.
  mkdir "term_$name"
  # shellcheck disable=SC2086
  $mpiexec -n 2 "$bin/$name" ${long[$name]} --outdir "term_$name" > "term_$name.log" 2>&1 &
  launcher_pid=$!
  wait_for "mpilat: ${measuring[$name]}" "term_$name.log" || bad "SIGTERM $name: not measuring after 120 s"
  kill -TERM "$launcher_pid"
  wait "$launcher_pid"
  stopped "SIGTERM to mpiexec" "$name" "term_$name" $? "$allowed_term"
  # ---- 3. SIGUSR1 and SIGHUP to the ranks.
  for sig in USR1 HUP; do
    mkdir "${sig}_$name"
    # shellcheck disable=SC2086
    $mpiexec -n 2 "$bin/$name" ${long[$name]} --outdir "${sig}_$name" > "${sig}_$name.log" 2>&1 &
    launcher_pid=$!
    wait_for "mpilat: ${measuring[$name]}" "${sig}_$name.log" || bad "SIG$sig $name: not measuring after 120 s"
    for rank in $(ranks_of "$launcher_pid" "$name"); do kill "-$sig" "$rank"; done
    wait "$launcher_pid"
    stopped "SIG$sig to the ranks" "$name" "${sig}_$name" $? "$allowed_signal"
  done
}

# MPILAT_STOPS_JOBS drivers at a time (default 1; scripts/test-all.sh gives 2 in its MPICH stage: nothing here is
# timed, and MPICH's launcher kills nobody after its signal): each in a subshell, its checks counted there.
at_once=${MPILAT_STOPS_JOBS:-1}
if [ "$at_once" -le 1 ]; then
  for name in "${names[@]}"; do stop_driver "$name"; done
else
  running=0
  for name in "${names[@]}"; do
    (passes=0 fails=0; stop_driver "$name"; echo "$passes $fails" > "counts_$name") > "checks_$name.out" 2>&1 &
    running=$((running + 1))
    if [ "$running" -ge "$at_once" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
  for name in "${names[@]}"; do
    cat "checks_$name.out"
    if read -r p f < "counts_$name" 2> /dev/null; then passes=$((passes + p)) fails=$((fails + f)); else bad "$name: its stops did not finish"; fi
  done
fi
finish_checks "driver_stops ($launcher: ${names[*]})"
