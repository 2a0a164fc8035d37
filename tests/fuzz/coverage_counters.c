/* coverage_counters.c: coverage of the Fortran code for libFuzzer. GCC instruments with
   -fsanitize-coverage=trace-pc only, which libFuzzer no longer reads; this counts each call site into
   the section libFuzzer reads as extra counters. (The build makes libFuzzer's own definition of the
   hook weak, so this one is used.) */
#include <stdint.h>

__attribute__((section("__libfuzzer_extra_counters"))) static uint8_t counters[1 << 16];

void __sanitizer_cov_trace_pc(void) {
  const uintptr_t pc = (uintptr_t)__builtin_return_address(0);
  counters[(pc ^ (pc >> 16)) & 0xffff]++;
}
