#!/bin/bash
# bench/compare.sh [BUILD_DIR]: what mpilat-compare costs on the issue's case: two groups of 5 latency.json
# files of 2^23 trials each (tables as a 1 ns clock gives them at npp = 3, a body of 5 % and a long tail:
# ~1,600 distinct times, more than the 226 of a `latency --quick` run here), 10,000 bootstrap resamples, the
# picture drawn. Prints the wall time of 5 runs. Target: under 1 s (issue 17).
# bench/compare.sh BUILD_DIR large OTHER_COMPARE: two files of 3,000,000 table rows (47 MB each, the size that
# was still being parsed after 60 s in issue 45), this build's mpilat-compare and OTHER_COMPARE (another
# build's) alternated five times: wall time and peak memory of each, and whether their files agree.
set -euo pipefail
build=${1:-build-test}
compare=$(realpath "$build/drivers/mpilat-compare")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if [ "${2:-}" = large ]; then
  other=$(realpath "$3")
  python3 - <<'PY'
import json, random
rng = random.Random(1)
for name in ('big.json', 'big2.json'):
    rows = [[round(0.2 + i * 1e-6, 9), rng.randint(1, 50)] for i in range(3_000_000)]
    json.dump({"format": "mpilat-latency", "format_version": 1, "run": {"mpi_library_version": "synthetic"},
               "message": {"bytes": 8}, "timer": {"name": "mpi_wtime"}, "npp": {"used": 3},
               "pingpong": {"all": {"median_us": 0.25}, "frequencies": rows}}, open(name, 'w'))
PY
  for run in 1 2 3 4 5; do
    for which in this other; do
      bin=$compare; [ "$which" = other ] && bin=$other
      /usr/bin/time -f "run $run $which: %e s, %M KB" "$bin" big.json -- big2.json --outdir "out_$which" --noplot 2>&1 >/dev/null | tail -1
    done
  done
  cmp -s out_this/compare.csv out_other/compare.csv && echo "compare.csv: the same" || echo "compare.csv: DIFFERS"
  exit 0
fi
python3 - <<'PY'
import json, math, random
rng = random.Random(5)
step = 0.001 / 6
for group, scale in (("a", 1.0), ("b", 1.05)):
    for i in range(5):
        m = 0.2 * scale * (1 + rng.gauss(0, 0.01))
        # 2^23 trials as a table: a lognormal body (sd 5 %) binned on the clock's grid, and a tail of 0.1 %.
        table = {}
        total = 1 << 23
        for k in range(-40000, 40000):
            t = m * math.exp(0.05 * k / 4000)
            w = math.exp(-0.5 * (k / 4000) ** 2)
            table[round(t / step) * step] = table.get(round(t / step) * step, 0) + w
        norm = total * 0.999 / sum(table.values())
        rows = {t: int(round(c * norm)) for t, c in table.items() if round(c * norm) > 0}
        for k in range(1000):
            t = round(m * (2 + 50 * k / 1000) / step) * step
            rows[t] = rows.get(t, 0) + total // 1000 // 1000 + 1
        j = {"format": "mpilat-latency", "format_version": 1, "run": {"mpi_library_version": "synthetic"},
             "message": {"bytes": 8}, "timer": {"name": "mpi_wtime"}, "npp": {"used": 3},
             "pingpong": {"all": {"median_us": m}, "frequencies": [[t, c] for t, c in sorted(rows.items())]}}
        json.dump(j, open(f"{group}{i}.json", "w"))
PY
echo "files: $(ls a*.json b*.json | wc -l), trials each: $(python3 -c "import json; print(sum(c for _, c in json.load(open('a0.json'))['pingpong']['frequencies']))"), distinct times each: $(python3 -c "import json; print(len(json.load(open('a0.json'))['pingpong']['frequencies']))")"
for run in 1 2 3 4 5; do
  start=$(date +%s.%N)
  "$compare" a*.json -- b*.json --resamples 10000 --outdir . > out.txt 2>&1
  end=$(date +%s.%N)
  printf 'run %d: %.3f s\n' "$run" "$(echo "$end - $start" | bc)"
done
grep '^latency median' out.txt
