#!/bin/bash
# test_memory_cgroup.sh DRIVER_DIR "MPIEXEC [flags]"
# A memory limit that is a cgroup's (Slurm's --mem, a container), not a ulimit (issue 45): past it the kernel's
# OOM killer ends the process (exit 137), nothing to catch. The test makes a memory cgroup of 512 MiB below
# this process's own (cgroup v1's memory controller, or cgroup v2 where the parent lets it), runs in it:
#   1. mpilat-compare on a JSON whose parse may take about 800 MB: refused before parsing, exit 1, naming the
#      file and the cgroup, nothing written; before, killed by the OOM killer.
#   2. mmpi --repeats that need about 640 MB of samples on rank 0: refused before measuring (exit 2, the
#      cgroup's room as the memory available), where the machine's MemAvailable would have let it run.
# Root only; skipped (77) where no memory cgroup can be made. The cgroup is removed at exit.
set -u
bin=$1 mpiexec=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=checks.sh
. "$here/checks.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: making a cgroup needs root"; exit 77; }

# This process's memory cgroup, v1 first (a hybrid layout keeps the memory controller there).
v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
v2=$(awk -F: '$1 == "0" && $2 == "" {print $3}' /proc/self/cgroup)
mount_of() { awk -v t="$1" -v o="$2" '{for (i = 7; $i != "-"; i++); if ($(i+1) == t && ("," $(i+3) ",") ~ o) print $5}' /proc/self/mountinfo | head -1; }
cg=
if [ -n "$v1" ] && m=$(mount_of cgroup ",memory,") && [ -n "$m" ] && [ -d "$m$v1" ]; then
  cg=$m${v1%/}/mpilat-test-$$
  mkdir "$cg" 2> /dev/null && echo $((512 << 20)) > "$cg/memory.limit_in_bytes" 2> /dev/null || cg=
elif [ -n "$v2" ] && m=$(mount_of cgroup2 "") && [ -n "$m" ] && grep -qw memory "$m${v2%/}/cgroup.subtree_control" 2> /dev/null; then
  cg=$m${v2%/}/mpilat-test-$$
  mkdir "$cg" 2> /dev/null && echo $((512 << 20)) > "$cg/memory.max" 2> /dev/null || cg=
fi
[ -n "$cg" ] || { echo "skipped: no memory cgroup can be made here (v1 '$v1', v2 '$v2')"; exit 77; }
# Gone at exit, after every process in it has ended (they are this test's children).
trap 'rmdir "$cg" 2> /dev/null; rm -rf "$work"' EXIT
in_cgroup() { bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' in_cgroup "$cg" "$@"; }

# 1. A JSON of 40 MB: the parse may take 20 bytes a byte, 800 MB, in a cgroup of 512 MiB.
python3 -c "open('dense.json', 'w').write('{\"format\": \"mpilat-latency\", \"junk\": [' + ','.join(['0'] * 20_000_000) + ']}')"
cp dense.json other.json
mkdir out
in_cgroup timeout -k 5 60 "$bin/mpilat-compare" dense.json -- other.json --noplot --outdir out > compare.out 2> compare.err
status=$?
[ "$status" = 1 ] && grep -q "dense.json: reading its [0-9]* bytes may take up to [0-9]* MB, more than the memory cgroup leaves ([0-9]* MB of its 512 MB, $cg;" compare.err \
  && [ -z "$(ls -A out)" ] && ok || bad "a JSON too large for the cgroup: exit $status ($(head -c 400 compare.err); $(ls -A out))"
rm -f dense.json other.json

# 2. A measurement whose samples would not fit: 80,000,000 repeats x 8 bytes x 1 pair = 640 MB on rank 0,
#    more than a cgroup of 512 MiB holds; the node's MemAvailable would let it start (and the OOM killer end it).
avail=$(awk '$1 == "MemAvailable:" {printf "%d", $2 / 1024}' /proc/meminfo)  # MiB
if [ "$avail" -gt 1024 ]; then
  in_cgroup timeout -k 5 60 $mpiexec -n 2 "$bin/mmpi" --repeats 80000000 -o out/mmpi.dat > mmpi.out 2>&1
  status=$?
  [ "$status" = 2 ] && grep -q "repeats 80000000 needs 640 MB of samples on rank 0, but only [0-9.]* MB of memory are available" mmpi.out \
    && [ -z "$(ls -A out)" ] && ok || bad "mmpi's samples beyond the cgroup: exit $status ($(head -c 400 mmpi.out))"
else
  echo "(MemAvailable is under 1 GiB: the cgroup is not the tighter limit, part 2 not run)"
fi
finish_checks memory_cgroup
