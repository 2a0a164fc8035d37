/* fuzz_latency_parameters.c: libFuzzer targets for the latency driver's parameter reader
   (drivers/latency_parameters.F90). Built twice:
   - fuzz_latency_options: the input is a command line, one argument per line (or NUL-separated);
   - fuzz_latency_namelist (FUZZ_NAMELIST): the input is the file given to --input.
   A crash, a hang, a Fortran runtime error or an error stop is a finding; a clean error is not. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* tests/fuzz/parse_glue.F90: parses NUL-separated arguments for a job of 4 processes. */
void fuzz_parse_latency(const char *args, size_t n);

#ifdef FUZZ_NAMELIST
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(path, sizeof path, "/tmp/mpilat-fuzz-%ld.nml", (long)getpid());
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) abort();
  if (size > 0 && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  char args[96];
  const int n = snprintf(args, sizeof args, "--input%c%s", '\0', path);
  fuzz_parse_latency(args, (size_t)n);
  return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_parse_latency((const char *)data, size);
  return 0;
}
#endif
