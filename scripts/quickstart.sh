#!/bin/bash
# quickstart.sh: set everything up and run the main job: the latency driver with quick defaults on
# 2 ranks. The files land in ./results (latency.output, latency.summary.output, latency.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMPILAT_TESTS=OFF > build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j "$(nproc)" >> build.log 2>&1 || { cat build.log; exit 1; }
mkdir -p results
mpiexec -n 2 build/drivers/latency --quick --outdir results
echo
cat results/latency.summary.output
