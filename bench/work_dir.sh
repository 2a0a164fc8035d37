# work_dir.sh: sourced by the driver-run benchmarks. `bench_work_dir NAME KEEP`: sets `work` to KEEP (made, and
# refused unless empty, so that a benchmark never mixes its runs with others') or, without KEEP, to a scratch
# folder that `bench_work_cleanup` removes (each benchmark's EXIT trap calls it).
bench_work_dir() {
  local name=$1 keep=$2
  if [ -n "$keep" ]; then
    mkdir -p "$keep"
    [ -z "$(ls -A "$keep")" ] || { echo "$name: $keep is not empty" >&2; exit 2; }
    work=$keep bench_scratch=
  else
    work=$(mktemp -d) bench_scratch=$work
  fi
}
bench_work_cleanup() { [ -z "${bench_scratch:-}" ] || rm -rf "$bench_scratch"; }
