/* bare_sort.h: the one comparison the bare loops sort their times with (qsort, ascending doubles). */
#ifndef MPILAT_BENCH_BARE_SORT_H
#define MPILAT_BENCH_BARE_SORT_H

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#endif
