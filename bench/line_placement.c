/* line_placement: whether where a cache line lands sets a launch's level (docs/method.md, "Precision"). No
   MPI: two processes (fork) ping-pong a flag through one 64-byte line of a shared mapping of 64 pages, 12
   batches of 20,000 timed loops of 4 round trips; each batch's median one-way time is printed (us). MODE
   `same`: every batch through the same line (page 0, offset 0); `page`: a random page, offset 0; `line`:
   page 0, a random offset; `both`: a random page and offset. Launched several times, `same` shows whether a
   launch's batches agree while launches differ; the others whether a new line spreads the batches as new
   launches do. Both processes spin: run it on a machine with two free processors.
   usage: line_placement same|page|line|both */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bare_sort.h"

enum { kPages = 64, kPage = 4096, kLine = 64, kBatches = 12, kTrials = 20000, kRoundTrips = 4 };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  const int new_page = !strcmp(mode, "page") || !strcmp(mode, "both"), new_line = !strcmp(mode, "line") || !strcmp(mode, "both");
  if (!new_page && !new_line && strcmp(mode, "same") != 0) {
    fprintf(stderr, "line_placement: MODE must be same, page, line or both, got '%s'\n", mode);
    return 2;
  }
  /* ctl[0]: the batch's line (its byte offset + 1; -1 ends), ctl[1]: the echo's word that the batch is done. */
  _Atomic long *ctl = mmap(NULL, kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  char *pool = mmap(NULL, (size_t)kPages * kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (ctl == MAP_FAILED || pool == MAP_FAILED) {
    perror("line_placement: mmap");
    return 1;
  }
  memset(pool, 0, (size_t)kPages * kPage);  /* every page present before anything is timed */
  const pid_t echo = fork();
  if (echo < 0) {
    perror("line_placement: fork");
    return 1;
  }
  if (echo == 0) {
    for (;;) {
      long at;
      while ((at = atomic_load(&ctl[0])) == 0) {}
      if (at < 0) _exit(0);
      _Atomic long *flag = (_Atomic long *)(pool + at - 1);
      for (long k = 0; k < (long)kTrials * kRoundTrips; ++k) {
        while (atomic_load(flag) != 2 * k + 1) {}
        atomic_store(flag, 2 * k + 2);
      }
      atomic_store(&ctl[0], 0);
      atomic_store(&ctl[1], 1);
    }
  }
  srand((unsigned)getpid());
  double *t = malloc(kTrials * sizeof *t);
  printf("line_placement %s: batch medians, one way (us):", mode);
  for (int b = 0; b < kBatches; ++b) {
    const long at = (new_page ? (long)(rand() % kPages) * kPage : 0) + (new_line ? (long)(rand() % (kPage / kLine)) * kLine : 0);
    _Atomic long *flag = (_Atomic long *)(pool + at);
    atomic_store(flag, 0);
    atomic_store(&ctl[1], 0);
    atomic_store(&ctl[0], at + 1);
    for (long k = 0, j = 0; k < kTrials; ++k) {
      const double t1 = now_s();
      for (int i = 0; i < kRoundTrips; ++i, ++j) {
        atomic_store(flag, 2 * j + 1);
        while (atomic_load(flag) != 2 * j + 2) {}
      }
      t[k] = (now_s() - t1) * 1e6 / (2.0 * kRoundTrips);
    }
    while (atomic_load(&ctl[1]) == 0) {}
    qsort(t, kTrials, sizeof *t, by_value);
    printf(" %.4f", t[kTrials / 2]);
  }
  printf("\n");
  atomic_store(&ctl[0], -1);
  waitpid(echo, NULL, 0);
  free(t);
  return 0;
}
