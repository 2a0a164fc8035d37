#!/bin/bash
# pair_matrix.sh [MMPI] [REPEATS]: wall time of the all-pairs matrix against the number of ranks, N = 2..8,
# both schedules, on this machine; then the model of docs/method.md ("Pair matrix: wall time") fitted to
# these runs and its prediction of each run beside the measurement. Prints a table; asserts nothing.
#   wall = setup + (repeats + 1) * steps(N) * step(N),   step(N) = a + b * log2(N)
#   steps(N) = N(N-1)/2 (sequential) or N-1 / N (rounds, even / odd N)
set -eu
mmpi=${1:-build/drivers/mmpi}
repeats=${2:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# mmpi, $repeats repeats, 64-byte messages, $(nproc) processors; wait: auto (yield when N > processors)"
for n in 2 3 4 5 6 7 8; do
  for schedule in sequential rounds; do
    mpiexec -n $n "$mmpi" --repeats "$repeats" --schedule $schedule --noprogress -o "$work/$schedule-$n.dat" > /dev/null 2>&1
  done
done
python3 - "$work" "$repeats" <<'PY'
import glob, json, math, os, sys
work, repeats = sys.argv[1], int(sys.argv[2])
runs = []
for f in glob.glob(os.path.join(work, "*.json")):
    j = json.load(open(f))
    m = j["method"]
    runs.append((j["run"]["nprocs"], m["schedule"], m["steps_per_repeat"], j["run"]["wall_s"], m["wait"]))
runs.sort()

def solve2(rows, ys):  # least squares of ys on the 2 columns of rows
    a11 = sum(r[0] * r[0] for r in rows); a12 = sum(r[0] * r[1] for r in rows); a22 = sum(r[1] * r[1] for r in rows)
    v1 = sum(r[0] * y for r, y in zip(rows, ys)); v2 = sum(r[1] * y for r, y in zip(rows, ys))
    d = a11 * a22 - a12 * a12
    return (v1 * a22 - v2 * a12) / d, (a11 * v2 - a12 * v1) / d

print("%3s %-10s %6s %6s %9s %9s %9s" % ("N", "schedule", "wait", "steps", "wall_s", "model_s", "model/run"))
for schedule in ("sequential", "rounds"):
    # The yielding runs (N > processors): wall = setup + steps * (a + b log2 N), steps = (repeats + 1) * steps/pass.
    # The setup (communicator, places, calibration, gathering) is taken as the 2-rank run's whole time.
    t0 = min(w for n, sc, _, w, _ in runs if sc == schedule and n == 2)
    fit = [r for r in runs if r[1] == schedule and r[4] == "yield"]
    rows = [((repeats + 1) * s, (repeats + 1) * s * math.log2(n)) for n, _, s, _, _ in fit]
    a, b = solve2(rows, [w - t0 for *_, w, _ in fit])
    worst = 0.0
    for n, sched, s, w, wait in [r for r in runs if r[1] == schedule]:
        model = t0 + (repeats + 1) * s * (a + b * math.log2(n)) if wait == "yield" else t0
        if wait == "yield": worst = max(worst, abs(model / w - 1))
        print("%3d %-10s %6s %6d %9.3f %9.3f %9.2f" % (n, sched, wait, (repeats + 1) * s, w, model, model / w))
    print("# %s, yielding: setup %.3f s, step(N) = %.0f us + %.0f us * log2(N); largest error %.0f %%"
          % (schedule, t0, 1e6 * a, 1e6 * b, 100 * worst))
PY
