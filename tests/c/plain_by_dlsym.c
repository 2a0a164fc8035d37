/* plain_by_dlsym.c LIBRARY: the shared library reached at run time, as an FFI or a plugin loader does: a plain
   entry point (it takes 0.9's structs) is not found by dlsym, only by its release's version (dlvsym, what a
   program linked against 0.9 binds to); its sized entry and a function without structs are found by name.
   Exit 0 when all hold, 1 with a line per failure. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: plain_by_dlsym LIBRARY\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  int failed = 0;
  const char *plain[] = {"lat_sweep_defaults", "lat_pingpong_stats", "lat_collective_check"};
  for (int k = 0; k < 3; ++k) {
    if (dlsym(lib, plain[k]) != NULL) printf("FAIL: dlsym finds the plain entry %s\n", plain[k]), failed = 1;
    if (dlvsym(lib, plain[k], "MPILAT_0.9") == NULL) printf("FAIL: %s@MPILAT_0.9 not found\n", plain[k]), failed = 1;
  }
  if (dlsym(lib, "lat_sweep_defaults_sized") == NULL) printf("FAIL: lat_sweep_defaults_sized not found\n"), failed = 1;
  if (dlsym(lib, "lat_strerror") == NULL) printf("FAIL: lat_strerror not found\n"), failed = 1;
  if (dlsym(lib, "lat_impl_sweep_defaults") != NULL) printf("FAIL: lat_impl_sweep_defaults exported\n"), failed = 1;
  dlclose(lib);
  if (!failed) printf("plain_by_dlsym: plain entries only by version, the rest by name\n");
  return failed;
}
