#!/bin/bash
# slurm-start.sh DIR: a one-node Slurm on this machine for the tests and for trying batch jobs by hand.
# Installs Debian's slurm-wlm and munge (through install-deps.sh --tests), writes a munge key and a
# slurm.conf into DIR, and starts munged, slurmctld and slurmd with their state, spool, logs, sockets and
# PID files all in DIR (nothing in /etc, /var or /run is touched; no systemd). DIR/env holds the
# environment a client needs (SLURM_CONF); stop them with scripts/slurm-stop.sh DIR, which ends exactly
# the daemons started here, by their PID files.
#
# The partition "mpilat" has this machine's CPUs and lets jobs share them (OverSubscribe=FORCE), so that
# several short test jobs run at once; KillWait is Slurm's default, 30 s. A finished job's state and exit
# code stay in `scontrol show job` for MinJobAge (600 s); DIR/jobcomp.txt lists the jobs' ends too. A job
# that waits for a slot starts within a second or two of one being free (the schedulers' passes every 1 and
# 2 s, not Slurm's 30 and 60: the tests' jobs waited up to a minute).
#
# Exits 0 when the partition is idle and a one-task srun ran; 77 when the daemons cannot start here (the
# reason on stderr, their logs in DIR); 1 on any other failure.
set -u
dir=${1:?usage: slurm-start.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
  bash "$here/install-deps.sh" --tests > "$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
fi
for c in munged slurmctld slurmd srun sbatch scancel scontrol; do
  command -v "$c" > /dev/null || { echo "slurm-start.sh: $c not found after the install" >&2; exit 77; }
done

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
# A key of our own: the daemons of this folder trust each other, not the machine's munge.
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
cat > "$dir/slurm.conf" <<EOF
# Written by scripts/slurm-start.sh: a one-node Slurm in $dir
ClusterName=mpilat
SlurmctldHost=$host
SlurmctldPort=${MPILAT_SLURMCTLD_PORT:-6817}
SlurmdPort=${MPILAT_SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2
MpiDefault=none
ReturnToService=2
KillWait=30
MinJobAge=600
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=mpilat Nodes=$host Default=YES MaxTime=INFINITE OverSubscribe=FORCE:8 State=UP
EOF
echo "export SLURM_CONF=$dir/slurm.conf" > "$dir/env"
export SLURM_CONF=$dir/slurm.conf

cannot() {  # why: the daemons cannot run here
  echo "slurm-start.sh: $1 (logs in $dir)" >&2
  bash "$here/slurm-stop.sh" "$dir" > /dev/null 2>&1
  exit 77
}

munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force > "$dir/munge/start.log" 2>&1 ||
  cannot "munged did not start: $(cat "$dir/munge/start.log")"
slurmctld -f "$dir/slurm.conf" -i > "$dir/slurmctld.start.log" 2>&1 ||
  cannot "slurmctld did not start: $(cat "$dir/slurmctld.start.log")"
slurmd -f "$dir/slurm.conf" > "$dir/slurmd.start.log" 2>&1 || cannot "slurmd did not start: $(cat "$dir/slurmd.start.log")"

# Ready when the node is idle and a job step runs.
for _ in $(seq 300); do
  state=$(sinfo -h -N -o '%T' 2> /dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.1
done
[ "$state" = idle ] || cannot "the node did not become idle within 30 s (state: '${state:-none}')"
timeout 60 srun -n 1 true > "$dir/first_srun.log" 2>&1 || cannot "a first srun failed: $(cat "$dir/first_srun.log")"
echo "slurm-start.sh: Slurm running in $dir (partition mpilat, node $host, $cpus CPUs); source $dir/env"
