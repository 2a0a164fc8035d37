#!/bin/bash
# slurm-stop.sh DIR: cancels the jobs of the cluster that scripts/slurm-start.sh DIR started and stops its
# daemons, and only those: each by the PID file it wrote in DIR, SIGTERM first, SIGKILL after 10 s. Leaves
# DIR (its logs) in place.
set -u
dir=${1:?usage: slurm-stop.sh DIR}
stop_pidfile() {  # pidfile name
  local f=$1 name=$2 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  # Only a process that is still the daemon named (a PID file outlives its process; PIDs are reused).
  [ "$(cat "/proc/$pid/comm" 2> /dev/null)" = "$name" ] || return 0
  kill -TERM "$pid" 2> /dev/null
  for _ in $(seq 100); do
    kill -0 "$pid" 2> /dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2> /dev/null
}
# Jobs first: stopping slurmd does not end a job's slurmstepd and tasks, which would run on (seen: 28 minutes
# after a killed test). Every job of this cluster (its own slurm.conf) is cancelled and waited for.
if [ -s "$dir/slurm.conf" ] && [ -s "$dir/slurmctld.pid" ] &&
   [ "$(cat "/proc/$(cat "$dir/slurmctld.pid")/comm" 2> /dev/null)" = slurmctld ]; then
  export SLURM_CONF=$dir/slurm.conf
  scancel --user="$(id -un)" 2> /dev/null
  for _ in $(seq 100); do
    [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
    sleep 0.2
  done
fi
stop_pidfile "$dir/slurmd.pid" slurmd
stop_pidfile "$dir/slurmctld.pid" slurmctld
stop_pidfile "$dir/munge/munged.pid" munged
exit 0
