#!/bin/bash
# test_latency_robust.sh LATENCY "MPIEXEC [flags]" [MPPTEST [QUEUELAT [MMPI [NODECOMM]]]]
# What a batch job meets: SIGTERM at the time limit, a rank that stops answering, a rank killed, an output
# directory that is read-only or full. Checks exit statuses, messages and files; never a timing value. With
# MPPTEST, the size sweep meets SIGTERM and a stopped rank too; with QUEUELAT, the queue sweep SIGTERM; every
# driver given meets a killed rank and a full directory, and MMPI and NODECOMM a stopped rank.
# The read-only and full directories are tmpfs mounts: without the right to mount (not root), those
# cases are reported as skipped and the script exits 77 after the others.
set -u
latency=$1 mpiexec=$2 mpptest=${3:-} queuelat=${4:-} mmpi=${5:-} nodecomm=${6:-} coll=${7:-}
work=$(mktemp -d)
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2> /dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
fails=0 passes=0 skipped=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$work" || exit 1

# The rank processes of the job started as process $1 (mpiexec and its launcher's children), running
# program $2 (default latency).
ranks_of() {
  local pids=$1 program=${2:-latency} all="" next
  while [ -n "$pids" ]; do
    all="$all $pids"
    next=""
    for p in $pids; do next="$next $(pgrep -P "$p" | tr '\n' ' ')"; done
    pids=$(echo $next)
  done
  for p in $all; do [ "$(cat /proc/$p/comm 2> /dev/null)" = "$program" ] && echo "$p"; done
}

# Waits until the job's progress lines (in $1) show the trials running (or phase $2).
await_trials() {
  local k
  for k in $(seq 600); do
    grep -q "${2:-ping-pong trials}" "$1" 2> /dev/null && return
    sleep 0.1
  done
  bad "no progress line in $1 after 60 s"
}

# Starts `PROGRAM ARGS... --outdir NAME` on NP ranks in the background (job PID in $job), its output in
# NAME.stdout and NAME.stderr, and waits until its progress lines show PHASE.
start_job() {  # name np phase program args...
  local name=$1 np=$2 phase=$3 program=$4
  shift 4
  mkdir -p "$name"
  $mpiexec -n "$np" "$program" "$@" --outdir "$name" > "$name.stdout" 2> "$name.stderr" &
  job=$!
  await_trials "$name.stderr" "$phase"
}

# A long latency run, inside its trials.
start_long_run() {  # outdir np extra-args...
  local out=$1 np=$2
  shift 2
  start_job "$out" "$np" 'ping-pong trials' "$latency" --nr 1000 --npp 1 --no-estimate --ntrial 200000000 --progress "$@"
}

# The PID of MPI rank R of the job's PROGRAM processes, from the rank the launcher put in its environment
# (MPICH: PMI_RANK, Open MPI: OMPI_COMM_WORLD_RANK); PIDs need not be in rank order.
pid_of_rank() {  # program rank
  local p
  for p in $(ranks_of $job "$1"); do
    if tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -Eqx "(PMI_RANK|OMPI_COMM_WORLD_RANK)=$2"; then
      echo "$p"
      return
    fi
  done
}

# SIGSTOPs MPI rank R of the job's PROGRAM processes until the job ends (at most LIMIT seconds, status in
# $rc), then lets it go on.
stop_rank_until_end() {  # program rank limit
  local victim
  victim=$(pid_of_rank "$1" "$2")
  [ -n "$victim" ] || bad "no process of $1 with rank $2"
  kill -STOP "$victim"
  finish "$3"
  kill -CONT "$victim" 2> /dev/null
}

# Waits for the job, at most $1 seconds (then kills it: a hang is a failure); status in $rc.
finish() {
  local limit=$1 k
  for k in $(seq $((limit * 10))); do
    kill -0 "$job" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$job" 2> /dev/null; then
    bad "the job did not end within $limit s"
    for p in $(ranks_of $job); do kill -9 "$p"; done
    kill -9 "$job" 2> /dev/null
  fi
  wait "$job"
  rc=$?
}

# What Slurm's slurmstepd sends every task at a time limit or a scancel: SIGTERM, then SIGCONT and SIGTERM
# again 10 ms later. One request to stop, not two.
term_burst() {  # pids...
  local p
  for p; do kill -TERM "$p"; done
  sleep 0.01
  for p; do kill -CONT "$p"; kill -TERM "$p"; done
}

# ---- SIGTERM as Slurm sends it at the time limit: partial files, exit status 3 -------------------------
start_long_run term 2
term_burst $(ranks_of $job)
finish 60
[ "$rc" -eq 3 ] && ok || bad "SIGTERM: exit status $rc, expected 3 ($(cat term.stderr))"
for f in latency.output latency.summary.output latency.json; do [ -s "term/$f" ] && ok || bad "SIGTERM: no $f"; done
grep -Eq '^\*\*\* PARTIAL RESULTS: the run was stopped \(a stop request.*\) after [0-9]+ of 200000000 timing trials \*\*\*$' \
  term/latency.summary.output && ok || bad "SIGTERM: summary lacks the PARTIAL banner"
grep -q 'PARTIAL RESULTS' term/latency.output && ok || bad "SIGTERM: latency.output lacks the PARTIAL banner"
grep -q 'stopped early (signal 15)' term.stderr && ok || bad "SIGTERM: stderr does not say why"
python3 - term/latency.json <<'PY' && ok || bad "SIGTERM: latency.json does not say partial, how many of how many"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["partial"] is True and r["partial_cause"] == "stop request", r
assert 0 < r["ntrial_done"] < r["ntrial_requested"] == 200000000, r
PY

# ---- stopped before the first trial: in the timer calibration, in the npp estimate ------------------------
# The files say so plainly and hold what that phase measured: no table of zeros, no npp "given", no ntrial
# "chosen" for minutes that never ran.
before_trials() {  # name phase-in-progress phase-in-files json-phase args...
  local name=$1 progress=$2 phase=$3 json_phase=$4
  shift 4
  start_job "$name" 2 "$progress" "$latency" --progress --noplot "$@"
  term_burst $(ranks_of $job)
  finish 60
  [ "$rc" -eq 3 ] && ok || bad "$name: exit status $rc, expected 3 ($(cat "$name.stderr"))"
  grep -q "latency: stopped early (signal 15) during $phase, before any trial was measured" "$name.stderr" && ok ||
    bad "$name: stderr does not name the phase ($(tail -2 "$name.stderr"))"
  for f in latency.output latency.summary.output; do
    grep -q "^\*\*\* PARTIAL RESULTS: the run was stopped (a stop request.*) during $phase, before any timing trial was measured \*\*\*\$" \
      "$name/$f" && ok || bad "$name: $f lacks the banner naming $phase"
    grep -q '^NO TIMING TRIAL WAS MEASURED' "$name/$f" && ok || bad "$name: $f does not say no trial was measured"
    grep -Eq '^(minimum|median|average|maximum) time = 0\.0000$|^ntrial = |chosen for about|npp was given as|^value of npp used' \
      "$name/$f" && bad "$name: $f reports what did not happen: $(grep -Em3 '^(minimum|median) time = 0\.0000|^ntrial = |chosen for|npp was given|^value of npp' "$name/$f")" || ok
  done
  python3 - "$name/latency.json" "$json_phase" <<'PY' && ok || bad "$name: latency.json does not say where it stopped"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["run"]
assert r["partial"] is True and r["stopped_in"] == sys.argv[2] and r["ntrial_done"] == 0, r
assert j["timer"]["nr"] > 0, j["timer"]["nr"]
if sys.argv[2] == "npp estimate":
    assert j["npp"]["estimate_stopped"] is True and j["npp"]["npptrial"] > 0 and j["npp"]["median_ppt_us"] > 0, j["npp"]
    assert j["timer"]["nr"] == j["timer"]["nr_requested"]
else:
    assert j["timer"]["nr"] < j["timer"]["nr_requested"], j["timer"]
PY
  [ ! -e "$name/latency.png" ] && ok || bad "$name: a plot of no trials"
}
before_trials stop_calibration 'timer calibration' 'the timer calibration (part 1)' 'timer calibration' --nr 2000000000 --minutes 3
grep -q '^stopped after [0-9]* of nr = 2000000000 timer pairs' stop_calibration/latency.output && ok ||
  bad "stop_calibration: Part 1 does not say how many pairs of nr"
before_trials stop_estimate 'npp estimate' 'the npp estimate (part 2)' 'npp estimate' --nr 1000 --npptrial 2000000000 --minutes 3
grep -q '^median time of one ping pong (median_ppt) in microseconds = ' stop_estimate/latency.output && ok ||
  bad "stop_estimate: Part 2 lacks the median of the loops timed"

# ---- SIGINT to mpiexec (Ctrl-C at a terminal): forwarded, the same outcome --------------------------------
start_long_run int 2
kill -INT "$job"
finish 60
# (MPICH 4.0.2's mpiexec forwards SIGINT but then exits 0 whatever the ranks returned: the launcher's
# status is not asserted here; the files say partial.)
if [ -s int/latency.summary.output ]; then
  grep -q 'PARTIAL RESULTS' int/latency.summary.output && ok || bad "SIGINT: no PARTIAL banner"
else
  # A launcher that kills instead of forwarding leaves no file: never a half-written one.
  [ -z "$(ls -A int)" ] && ok || bad "SIGINT: files left: $(ls -A int)"
fi

# ---- a rank that stops answering (SIGSTOP), --timeout 2: an error naming ranks and phase, no hang -----------
# Idle rank 1 of 3 stops: the measurement ends, then the result cannot be shared. Rank 0 keeps it. (6 s of
# trials by the wall clock, --minutes 0.1: the stop comes at the first progress line, inside them. 1M trials
# took 3 to 4.5 s once, but 1.3 s in the host's fast phase, which ended before a progress line was printed.)
start_job stop_idle 3 'ping-pong trials' "$latency" --nr 1000 --npp 1 --minutes 0.1 --progress --timeout 2
stop_rank_until_end latency 1 120
[ "$rc" -ne 0 ] && ok || bad "stopped idle rank: exit status 0"
grep -Eq "rank 0: timeout: no answer from ranks 0\.\.2 within 2(\.[0-9]+)? s \(phase 'result'" stop_idle.stderr && ok ||
  bad "stopped idle rank: no message naming the ranks and the phase ($(cat stop_idle.stderr))"
[ -s stop_idle/latency.summary.output ] && ok || bad "stopped idle rank: rank 0 did not keep the measured result"

# The dest of 2 stops in the middle of the trials: whichever wait the source is in, the job ends with a
# message naming rank 1 and the phase; files, if any, are whole and marked partial.
start_long_run stop_dest 2 --timeout 2
stop_rank_until_end latency 1 60
[ "$rc" -ne 0 ] && ok || bad "stopped dest: exit status 0"
grep -Eq "rank 0: timeout: no answer from rank 1 within [0-9.]+ s \(phase '(trials|npp estimate)" stop_dest.stderr && ok ||
  bad "stopped dest: no message naming rank 1 and the phase ($(cat stop_dest.stderr))"
if [ -e stop_dest/latency.summary.output ]; then
  grep -q 'PARTIAL RESULTS: the run was stopped (a peer did not answer' stop_dest/latency.summary.output && ok ||
    bad "stopped dest: files not marked partial by timeout"
fi
ls -a stop_dest | grep -q '^\.mpilat-' && bad "stopped dest: temporary files left" || ok

# ---- a healthy long timing loop is not a stall: the watchdog allows 10 loops of npp x median_ppt ------------
# 2,000,000 ping-pongs a loop take ~0.5-1.5 s here, longer than --timeout 0.2; the run must finish.
mkdir long_loop
timeout 120 $mpiexec -n 2 "$latency" --nr 1000 --npptrial 50 --npp 2000000 --ntrial 3 --timeout 0.2 --noplot \
  --no-progress --outdir long_loop > long_loop.stdout 2> long_loop.stderr
rc=$?
[ "$rc" -eq 0 ] && ok || bad "long loop with --timeout 0.2: exit status $rc ($(cat long_loop.stderr))"
grep -q '^ntrial = 3$' long_loop/latency.summary.output && ok || bad "long loop: the three trials were not all measured"

# ---- the size sweep (mpptest): SIGTERM keeps the sizes measured; a stopped rank ends the job -------------
if [ -n "$mpptest" ]; then
  long_sweep=(-size 0 65536 64 -max_sizes 2000 -sample_reps 100000 -n_stable 0 -nr 1000 -noplot -gnuplot -progress)
  start_job sweep_term 2 'size sweep' "$mpptest" "${long_sweep[@]}"
  term_burst $(ranks_of $job mpptest)
  finish 60
  [ "$rc" -eq 3 ] && ok || bad "mpptest SIGTERM: exit status $rc, expected 3 ($(cat sweep_term.stderr))"
  python3 - sweep_term/mppout.json <<'PY' && ok || bad "mpptest SIGTERM: mppout.json does not say stopped"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["run"]["end"] == "stopped" and j["run"]["partial"] is True and j["run"]["measurements"] > 0, j["run"]
PY
  grep -q '^# PARTIAL: the sweep ended early (stopped)' sweep_term/mppout.gpl && ok || bad "mpptest SIGTERM: gpl not marked"

  start_job sweep_stop 2 'size sweep' "$mpptest" "${long_sweep[@]}" -timeout 2
  stop_rank_until_end mpptest 1 60
  [ "$rc" -ne 0 ] && ok || bad "mpptest stopped dest: exit status 0"
  grep -Eq "rank 0: timeout: no answer from (rank 1|the other ranks of the sweep) within [0-9.]+ s \(phase 'sweep" \
    sweep_stop.stderr && ok || bad "mpptest stopped dest: no message naming the rank and the phase ($(cat sweep_stop.stderr))"
  [ -z "$(ls -A sweep_stop)" ] && ok || bad "mpptest stopped dest: files written: $(ls -A sweep_stop)"
fi

# ---- the queue sweep (queuelat): SIGTERM ends it at a measurement boundary, queues emptied, exit 3 ------
if [ -n "$queuelat" ]; then
  long_queues=(--lengths 0:1000:100 --iters 2000 --reps 1000 --nr 1000 --noplot --progress)
  start_job queue_term 2 'queue sweep' "$queuelat" "${long_queues[@]}"
  term_burst $(ranks_of $job queuelat)
  finish 120
  [ "$rc" -eq 3 ] && ok || bad "queuelat SIGTERM: exit status $rc, expected 3 ($(cat queue_term.stderr))"
  grep -q 'PARTIAL RESULTS' queue_term/queuelat.txt && ok || bad "queuelat SIGTERM: table not marked partial"
  grep -q '^messages left unmatched after the sweep: 0$' queue_term/queuelat.txt && ok || bad "queuelat SIGTERM: queues not emptied"

  # Dest stops answering: with --timeout 2 the job ends with a message naming rank and phase, no files.
  start_job queue_stop 2 'queue sweep' "$queuelat" "${long_queues[@]}" --timeout 2
  stop_rank_until_end queuelat 1 60
  [ "$rc" -ne 0 ] && ok || bad "queuelat stopped dest: exit status 0"
  grep -Eq "rank 0: timeout: no answer from rank 1 within [0-9.]+ s \(phase 'queues" queue_stop.stderr && ok ||
    bad "queuelat stopped dest: no message naming rank 1 and the phase ($(cat queue_stop.stderr))"
  [ -z "$(ls -A queue_stop)" ] && ok || bad "queuelat stopped dest: files written: $(ls -A queue_stop)"
fi

# ---- output directories that cannot take the files ------------------------------------------------------------
if mkdir ro && mount -t tmpfs -o ro,size=1m tmpfs ro 2> /dev/null; then
  mounts+=("$work/ro")
  $mpiexec -n 2 "$latency" --quick --no-progress --outdir ro > ro.stdout 2> ro.stderr
  rc=$?
  [ "$rc" -eq 2 ] && ok || bad "read-only dir: exit status $rc, expected 2"
  grep -q 'outdir: cannot create files in output directory ro: Read-only file system' ro.stderr && ok || bad "read-only dir: message ($(cat ro.stderr))"
else
  echo "SKIP: read-only directory (cannot mount tmpfs here)"
  skipped=1
fi
# A directory with room for the probe file but not for the report: the run fails, the files that were
# there before are untouched, nothing new or temporary is left.
if mkdir full && mount -t tmpfs -o size=12k tmpfs full 2> /dev/null; then
  mounts+=("$work/full")
  for f in latency.output latency.summary.output latency.json; do echo "earlier run" > "full/$f"; done
  $mpiexec -n 2 "$latency" --quick --no-progress --outdir full > full.stdout 2> full.stderr
  rc=$?
  [ "$rc" -eq 1 ] && ok || bad "full disk: exit status $rc, expected 1 ($(cat full.stderr))"
  grep -qi 'no space left on device' full.stderr && ok || bad "full disk: message does not say why ($(cat full.stderr))"
  for f in latency.output latency.summary.output latency.json; do
    [ "$(cat "full/$f")" = "earlier run" ] && ok || bad "full disk: $f of the earlier run was changed"
  done
  [ "$(ls -A full | wc -l)" -eq 3 ] && ok || bad "full disk: files left: $(ls -A full)"
else
  echo "SKIP: full disk (cannot mount tmpfs here)"
  skipped=1
fi

# ---- every driver: a rank killed (SIGKILL) in the middle of a run ends the job, never a hang ----------------
# name program progress-phase args...: the launcher or the watchdog (--timeout 2) ends the job within 60 s, with
# an exit status that is not 0, and every file under its own name is whole (a JSON file parses). (Open MPI's
# launcher may SIGKILL the rank writing its partial files: its hidden temporary file then stays behind; the
# results are never half-written.)
killed_rank() {
  local name=$1 program=$2 phase=$3 victim f
  shift 3
  start_job "$name" 2 "$phase" "$program" "$@"
  victim=$(pid_of_rank "$(basename "$program")" 1)
  [ -n "$victim" ] && kill -KILL "$victim" || bad "$name: no rank 1 to kill"
  finish 60
  [ "$rc" -ne 0 ] && ok || bad "$name: exit status 0 after a rank was killed"
  for f in "$name"/*.json; do
    [ -e "$f" ] || continue
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$f" && ok || bad "$name: $f is not whole"
  done
}
killed_rank kill_latency "$latency" 'ping-pong trials' --nr 1000 --npp 1 --no-estimate --ntrial 200000000 --progress --timeout 2
[ -n "$mpptest" ] && killed_rank kill_mpptest "$mpptest" 'size sweep' "${long_sweep[@]}" -timeout 2
[ -n "$queuelat" ] && killed_rank kill_queuelat "$queuelat" 'queue sweep' "${long_queues[@]}" --timeout 2
long_pairs=(--repeats 100000000 --progress)
long_nodecomm=(--sizes 8,64,512 --reps 1000000 --noadaptive --noplot --progress)
[ -n "$mmpi" ] && killed_rank kill_mmpi "$mmpi" 'pair matrix' "${long_pairs[@]}" --timeout 2
[ -n "$nodecomm" ] && killed_rank kill_nodecomm "$nodecomm" 'nodecomm ' "${long_nodecomm[@]}" --timeout 2
long_coll=(--ops allreduce,barrier --sizes 8 --reps 1000000 --noplot --progress)
[ -n "$coll" ] && killed_rank kill_coll "$coll" 'collective rounds' "${long_coll[@]}" --timeout 2

# ---- mmpi and nodecomm: a rank that stops answering (SIGSTOP), --timeout 2: the watchdog names it --------------
stopped_rank() {  # name program phase args...
  local name=$1 program=$2 phase=$3
  shift 3
  start_job "$name" 2 "$phase" "$program" "$@" --timeout 2
  stop_rank_until_end "$(basename "$program")" 1 60
  [ "$rc" -ne 0 ] && ok || bad "$name: exit status 0 with a rank stopped"
  grep -Eq "rank 0: timeout: no answer from (rank 1|ranks [0-9.]+|the other ranks of the collective call) within [0-9.]+ s \(" "$name.stderr" && ok ||
    bad "$name: no message naming the silent rank and the phase ($(tail -3 "$name.stderr"))"
}
[ -n "$mmpi" ] && stopped_rank stop_mmpi "$mmpi" 'pair matrix' "${long_pairs[@]}"
[ -n "$nodecomm" ] && stopped_rank stop_nodecomm "$nodecomm" 'nodecomm ' "${long_nodecomm[@]}"
[ -n "$coll" ] && stopped_rank stop_coll "$coll" 'collective rounds' "${long_coll[@]}"

# ---- every driver: a directory that fills up while the files are written -----------------------------------------
# The error names the file; an earlier good result of the same names stays whole; nothing new or temporary.
full_dir() {  # name files-of-the-earlier-run program args...
  local name=$1 earlier=$2 program=$3 f
  shift 3
  mkdir "$name" && mount -t tmpfs -o size=12k tmpfs "$name" 2> /dev/null || { echo "SKIP: $name (cannot mount tmpfs)"; skipped=1; return; }
  mounts+=("$work/$name")
  for f in $earlier; do echo "earlier run" > "$name/$f"; done
  $mpiexec -n 2 "$program" "$@" --outdir "$name" > "$name.stdout" 2> "$name.stderr"
  rc=$?
  [ "$rc" -eq 1 ] && ok || bad "$name: exit status $rc, expected 1 ($(tail -3 "$name.stderr"))"
  grep -Eq "cannot write $name/[^:]+: No space left on device" "$name.stderr" && ok ||
    bad "$name: the message does not name the file and why ($(tail -3 "$name.stderr"))"
  for f in $earlier; do [ "$(cat "$name/$f")" = "earlier run" ] && ok || bad "$name: $f of the earlier run was changed"; done
  [ "$(ls -A "$name" | wc -l)" -eq "$(echo $earlier | wc -w)" ] && ok || bad "$name: files left: $(ls -A "$name")"
}
if [ "$(id -u)" = 0 ]; then
  [ -n "$mpptest" ] && full_dir full_mpptest "mppout.json mppout.csv" "$mpptest" -sizelist 0,64,128 -sample_reps 2 -n_stable 0 \
    -nr 4096 -noprogress
  [ -n "$queuelat" ] && full_dir full_queuelat "queuelat.txt queuelat.json" "$queuelat" --lengths 0:4:2 --iters 5 --reps 3 \
    --nr 1000 --noprogress
  [ -n "$mmpi" ] && full_dir full_mmpi "ammpi_2_64_10.dat ammpi_2_64_10.json" "$mmpi" --repeats 10 --noprogress
  [ -n "$nodecomm" ] && full_dir full_nodecomm "nodecomm.txt nodecomm.json" "$nodecomm" --quick --noprogress
  [ -n "$coll" ] && full_dir full_coll "mpilat-coll.txt mpilat-coll.json" "$coll" --quick --ops allreduce --sizes 8 --noprogress
fi

echo "driver_robust: $passes passed, $fails failed"
[ "$fails" -eq 0 ] || exit 1
[ "$skipped" -eq 0 ] || exit 77
