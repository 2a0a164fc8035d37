/* input_snapshot.c: latency_input_snapshot, a private copy of a user's input as it was when it was opened, so
   that a reader which opens a file by its name (gfortran's open) reads what was checked: a name swapped for a
   FIFO after lat_check_input_file would block such an open for ever (issue 45). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpilat_constants.h"

/* Copies path, opened without waiting (O_NONBLOCK) and found a regular file on the descriptor itself, into a
   new file of $TMPDIR (or /tmp) readable by this user only; its name goes to copy (copy_size bytes with the
   NUL). 0 on success; otherwise nonzero, nothing left behind, and why (why_size bytes) says what went wrong. */
int latency_input_snapshot(const char *path, char *copy, int copy_size, char *why, int why_size) {
  const char *tmp = getenv("TMPDIR");
  if (tmp == NULL || *tmp == '\0') tmp = "/tmp";
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = fd < 0 ? errno : 0;
    if (fd >= 0) close(fd);
    snprintf(why, (size_t)why_size, "%s", err ? strerror(err) : "not a regular file any more (replaced after it was checked)");
    return 1;
  }
  if (snprintf(copy, (size_t)copy_size, "%s/mpilat-input-XXXXXX", tmp) >= copy_size) {
    close(fd);
    snprintf(why, (size_t)why_size, "TMPDIR is too long a name");
    return 1;
  }
  const int out = mkostemp(copy, O_CLOEXEC);
  if (out < 0) {
    const int err = errno;
    close(fd);
    snprintf(why, (size_t)why_size, "cannot make a private copy in %s: %s", tmp, strerror(err));
    return 1;
  }
  char chunk[65536];
  long long total = 0;
  const char *failed = NULL;
  int err = 0;
  for (ssize_t n; (n = read(fd, chunk, sizeof chunk)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      failed = "cannot be read";
      break;
    }
    total += n;
    if (total > LAT_MAX_INPUT_BYTES) {
      failed = "grew beyond what an input may hold while it was read";
      break;
    }
    if (write(out, chunk, (size_t)n) != n) {
      err = errno;
      failed = "cannot write its private copy";
      break;
    }
  }
  close(fd);
  if (close(out) != 0 && failed == NULL) {
    err = errno;
    failed = "cannot write its private copy";
  }
  if (failed != NULL) {
    unlink(copy);
    if (err) snprintf(why, (size_t)why_size, "%s: %s", failed, strerror(err));
    else snprintf(why, (size_t)why_size, "%s", failed);
    return 1;
  }
  return 0;
}
