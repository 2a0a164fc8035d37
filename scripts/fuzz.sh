#!/bin/bash
# fuzz.sh [SECONDS]: fuzzes each text reader (the latency options and namelist, the nodecomm table, the mmpi
# log, mpilat-compare's JSON) for SECONDS (default 120) with libFuzzer, then merges the
# inputs that found new coverage into tests/fuzz/corpus/<target>/ (commit them: ctest replays them). Then
# a quarter of SECONDS on inputs of 256 KiB to 1 MiB, from tests/fuzz/large_inputs.py's (not merged: ctest
# makes and replays those itself), each input within 30 s and 1 GiB.
# Findings (crash-*, timeout-*, oom-*) are left in build-fuzz/findings/<target>/; exit 1 if any.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
bash scripts/install-deps.sh --tests
cmake -S . -B build-fuzz -DMPILAT_TESTS=ON -DMPI_C_COMPILER=mpicc.mpich -DMPI_Fortran_COMPILER=mpif90.mpich \
  > build-fuzz.log 2>&1 || { cat build-fuzz.log; exit 1; }
cmake --build build-fuzz -j "$(nproc)" --target fuzz_latency_options fuzz_latency_namelist fuzz_nodecomm_table fuzz_mmpi_log fuzz_compare_json >> build-fuzz.log 2>&1 \
  || { cat build-fuzz.log; exit 1; }
found=0
# UCX (loaded with MPI) catches SIGSEGV itself, prints a backtrace and exits: libFuzzer must see the signal to
# write the input that caused it.
export UCX_HANDLE_ERRORS=none
python3 tests/fuzz/large_inputs.py build-fuzz/large
for target in latency_options latency_namelist nodecomm_table mmpi_log compare_json; do
  corpus=tests/fuzz/corpus/$target
  scratch=build-fuzz/scratch/$target findings=build-fuzz/findings/$target
  rm -rf "$scratch" && mkdir -p "$scratch" "$findings"
  echo "== fuzz_$target for $seconds s"
  # JSON needs room and its tokens; the others are short lines.
  extra=(-max_len=512)
  [ "$target" = compare_json ] && extra=(-max_len=8192 -dict=tests/fuzz/compare_json.dict)
  build-fuzz/tests/fuzz/fuzz_$target -max_total_time="$seconds" -timeout=10 "${extra[@]}" \
    -artifact_prefix="$findings/" "$scratch" "$corpus" 2>&1 | grep -E '^#[0-9]+ +(DONE|INITED)|ERROR|SUMMARY' || true
  build-fuzz/tests/fuzz/fuzz_$target -merge=1 "$corpus" "$scratch" 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' || true
  echo "== fuzz_$target on large inputs for $((seconds / 4)) s"
  rm -rf "$scratch-large" && mkdir -p "$scratch-large"
  build-fuzz/tests/fuzz/fuzz_$target -max_total_time=$((seconds / 4)) -timeout=30 -rss_limit_mb=1024 -max_len=1048576 \
    -len_control=0 -artifact_prefix="$findings/" "$scratch-large" "build-fuzz/large/$target" 2>&1 \
    | grep -E '^#[0-9]+ +(DONE|INITED)|ERROR|SUMMARY' || true
  if [ -n "$(ls -A "$findings")" ]; then
    echo "findings of fuzz_$target: $(ls "$findings")"
    found=1
  fi
done
exit $found
