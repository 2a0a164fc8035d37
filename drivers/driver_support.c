/* driver_support.c: the little the Fortran drivers need from POSIX and cannot say in standard Fortran. */
#include <unistd.h>

/* Progress lines are on by default only where a person is watching. */
int latency_stderr_is_terminal(void) { return isatty(STDERR_FILENO) ? 1 : 0; }
