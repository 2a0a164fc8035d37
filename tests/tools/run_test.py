#!/usr/bin/env python3
"""run_test.py [--deadline S] [--quiet] COMMAND [ARGS...]: runs one test so that it ends whole.

The test runs in a process group of its own, and nothing of that group outlives it:
- --deadline S: after S seconds (below ctest's TIMEOUT, which kills with SIGKILL and so runs no trap) the
  group gets SIGTERM, so the test's traps take down what it started (a Slurm cluster, namespaced nodes),
  then SIGKILL 25 s later; exit 124, saying so.
- after the test, a process still in its group is named, killed, and fails a test that passed (exit 1).
- --quiet: the verdict needs a quiet machine. Other work's share of the CPUs while the test ran is the
  machine's busy time (/proc/stat: user, nice, system and steal, the time the host gave away) less
  the CPU time of the test's own processes (waited for: mpiexec, the ranks, the hogs a test makes). Above
  MPILAT_QUIET_LIMIT (default 0.15) this prints "machine busy: not judged ..." and exits 77, which ctest shows
  as Skipped and scripts/test-all.sh lists; under CI=true (or MPILAT_JUDGE_ALWAYS=1) the verdict stands.
SIGTERM and SIGINT to this wrapper are passed on to the group.
"""
import argparse
import os
import resource
import signal
import subprocess
import sys
import time

SKIP = 77
GRACE_S = 25.0


def busy_and_total():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    # user, nice, system and steal; not irq and softirq, which a test's own traffic causes (the cluster test's
    # shaped links) and rusage does not count as its time. guest and guest_nice are inside user and nice.
    busy = fields[0] + fields[1] + fields[2] + fields[7]
    return busy, sum(fields[:8])


def children_cpu_s():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def group_members(pgid):
    """(pid, command line) of every process in process group pgid."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            # the fields after the command name in parentheses: state ppid pgrp ...
            rest = stat[stat.rindex(")") + 2:].split()
            if int(rest[2]) != pgid:
                continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            found.append((int(name), cmd))
        except (OSError, ValueError, IndexError):
            continue
    return found


def signal_group(pgid, signo):
    try:
        os.killpg(pgid, signo)
    except ProcessLookupError:
        pass


def main():
    parser = argparse.ArgumentParser(add_help=True)
    parser.add_argument("--deadline", type=float, default=0.0)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if not args.command:
        parser.error("no command")
    limit = float(os.environ.get("MPILAT_QUIET_LIMIT", "0.15"))
    always = os.environ.get("CI") == "true" or os.environ.get("MPILAT_JUDGE_ALWAYS") == "1"
    tick = os.sysconf("SC_CLK_TCK")
    busy0, total0 = busy_and_total()
    own0 = children_cpu_s()
    start = time.monotonic()
    child = subprocess.Popen(args.command, start_new_session=True)
    pgid = child.pid
    signal.signal(signal.SIGTERM, lambda signo, _f: signal_group(pgid, signo))
    signal.signal(signal.SIGINT, lambda signo, _f: signal_group(pgid, signo))
    timed_out = False
    try:
        rc = child.wait(timeout=args.deadline if args.deadline > 0 else None)
    except subprocess.TimeoutExpired:
        timed_out = True
        print(f"run_test: deadline of {args.deadline:.0f} s reached: SIGTERM to the test's processes, SIGKILL "
              f"{GRACE_S:.0f} s later", flush=True)
        signal_group(pgid, signal.SIGTERM)
        try:
            child.wait(timeout=GRACE_S)
        except subprocess.TimeoutExpired:
            signal_group(pgid, signal.SIGKILL)
            child.wait()
        rc = 124
    # What is left of the group after its leader ended: given a moment to go, then named and killed.
    left = []
    for _ in range(20):
        left = group_members(pgid)
        if not left:
            break
        time.sleep(0.1)
    if left:
        print(f"run_test: {len(left)} process(es) of the test still running after it ended, killed:", flush=True)
        for pid, cmd in left:
            print(f"  {pid} {cmd[:200]}", flush=True)
        signal_group(pgid, signal.SIGKILL)
        if rc == 0:
            rc = 1
    if rc < 0:
        rc = 128 - rc
    if args.quiet and not timed_out:
        busy1, total1 = busy_and_total()
        own_ticks = (children_cpu_s() - own0) * tick
        others = max(0.0, (busy1 - busy0) - own_ticks) / max(1, total1 - total0)
        note = (f"other work used {100 * others:.0f} % of the CPUs during the test ({time.monotonic() - start:.1f} s; "
                f"limit {100 * limit:.0f} %)")
        if others > limit and not always:
            print(f"machine busy: not judged: {note}; exit status {rc} ignored", flush=True)
            return SKIP
        print(f"run_test: {note}" + ("; judged anyway (CI)" if others > limit else ""), flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
