/* input_snapshot.c: latency_input_snapshot, a private copy of a user's input as it was when it was read, so
   that a reader which opens a file by its name (gfortran's open) reads what was checked: a name swapped for a
   FIFO after lat_check_input_file would block such an open for ever (issue 45). The file is read by the
   library's one rule (lat_read_input); this file only writes the copy. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpilat.h"

/* Copies path, read by lat_read_input (a regular file on what was opened, bounded by the bytes read), into a
   new file of $TMPDIR (or /tmp) readable by this user only; its name goes to copy (copy_size bytes with the
   NUL). 0 on success; otherwise nonzero, nothing left behind, and why (why_size bytes) says what went wrong,
   naming the file where the library did. */
int latency_input_snapshot(const char *path, char *copy, int copy_size, char *why, int why_size) {
  const char *tmp = getenv("TMPDIR");
  if (tmp == NULL || *tmp == '\0') tmp = "/tmp";
  lat_input input = NULL;
  int64_t nbytes = 0;
  char *bytes = NULL;
  int rc = lat_read_input(path, &input);
  if (rc == LAT_SUCCESS) rc = lat_input_size(input, &nbytes);
  if (rc == LAT_SUCCESS && (bytes = malloc((size_t)nbytes + 1)) == NULL) {
    lat_input_free(&input);
    snprintf(why, (size_t)why_size, "%s: no memory for its %lld bytes", path, (long long)nbytes);
    return 1;
  }
  if (rc == LAT_SUCCESS) rc = lat_input_get(input, nbytes, bytes);
  if (rc != LAT_SUCCESS) snprintf(why, (size_t)why_size, "%s", lat_last_error_message()); /* before a call clears it */
  lat_input_free(&input);
  if (rc != LAT_SUCCESS) {
    free(bytes);
    return 1;
  }
  if (snprintf(copy, (size_t)copy_size, "%s/mpilat-input-XXXXXX", tmp) >= copy_size) {
    free(bytes);
    snprintf(why, (size_t)why_size, "TMPDIR is too long a name");
    return 1;
  }
  const int out = mkostemp(copy, O_CLOEXEC);
  if (out < 0) {
    const int err = errno;
    free(bytes);
    snprintf(why, (size_t)why_size, "cannot make a private copy in %s: %s", tmp, strerror(err));
    return 1;
  }
  int err = 0;
  for (int64_t done = 0; done < nbytes && err == 0;) {
    const ssize_t n = write(out, bytes + done, (size_t)(nbytes - done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) err = n < 0 ? errno : EIO;
    else done += n;
  }
  free(bytes);
  if (close(out) != 0 && err == 0) err = errno;
  if (err != 0) {
    unlink(copy);
    snprintf(why, (size_t)why_size, "cannot write its private copy: %s", strerror(err));
    return 1;
  }
  return 0;
}
