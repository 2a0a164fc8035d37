/* swap_after_stat.c: an LD_PRELOAD shim for the hostile-input tests (issue 45): right after the $SWAP_AT-th
   (default 1st) stat() of a path ending in $SWAP_AFTER_STAT returns, $SWAP_WITH (a FIFO made by the test) is
   renamed over that path, once.
   The program has checked a regular file and then opens a FIFO: the race of a name swapped after its check,
   made to happen every time. With $SWAP_GROW_TO (bytes) instead of $SWAP_WITH, the file itself grows to that
   size there (sparse: truncate): a file that grows after its size was checked. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void swap_after(const char *path) {
  static int seen = 0;
  const char *suffix = getenv("SWAP_AFTER_STAT"), *with = getenv("SWAP_WITH"), *at = getenv("SWAP_AT");
  const char *grow_to = getenv("SWAP_GROW_TO");
  if (suffix == NULL || (with == NULL && grow_to == NULL) || path == NULL) return;
  const size_t n = strlen(path), m = strlen(suffix);
  if (n < m || strcmp(path + n - m, suffix) != 0) return;
  if (++seen != (at ? atoi(at) : 1)) return;
  if (grow_to != NULL) {
    if (truncate(path, strtoll(grow_to, NULL, 10)) != 0) perror("swap_after_stat: truncate");
  } else if (rename(with, path) != 0) {
    perror("swap_after_stat: rename");
  }
}

int stat(const char *restrict path, struct stat *restrict st) {
  static int (*real)(const char *restrict, struct stat *restrict) = NULL;
  if (real == NULL) real = (int (*)(const char *restrict, struct stat *restrict))dlsym(RTLD_NEXT, "stat");
  const int rc = real(path, st);
  swap_after(path);
  return rc;
}

int stat64(const char *restrict path, struct stat64 *restrict st) {
  static int (*real)(const char *restrict, struct stat64 *restrict) = NULL;
  if (real == NULL) real = (int (*)(const char *restrict, struct stat64 *restrict))dlsym(RTLD_NEXT, "stat64");
  const int rc = real(path, st);
  swap_after(path);
  return rc;
}
