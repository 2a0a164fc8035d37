// driver_finish.hpp: the end of a measuring C++ driver's run (mmpi, mpptest, queuelat, nodecomm, mpilat-coll),
// written once: a failed measurement reported, else the files written and the run's status agreed, MPI ended.
#pragma once

#include "driver_support.h"
#include "mpilat.h"

/// After the measuring call returned rc. A failure (neither LAT_SUCCESS nor LAT_ERR_INTERRUPTED) is reported
/// and ends MPI (driver_measurement_failed). Otherwise the writing rank calls `report(status)` (status:
/// DRIVER_PARTIAL where a stop cut the run short, else DRIVER_DONE), which writes the files, says what the
/// user must know and returns the run's status; every rank takes that status from the writing rank, and MPI
/// ends. `release()` frees the measurement's handle on every rank first (a failed call made none). Returns
/// the exit status.
template <class Report, class Release>
int finish_measurement(const char *program, int rc, int rank, int writer, Report &&report, Release &&release) {
  if (rc != LAT_SUCCESS && rc != LAT_ERR_INTERRUPTED) return driver_measurement_failed(program, rc, rank);
  int status = rc == LAT_ERR_INTERRUPTED ? DRIVER_PARTIAL : DRIVER_DONE;
  if (rank == writer) status = report(status);
  release();
  driver_bcast_int_politely_from(writer, &status);
  driver_finalize(status);
  return status;
}
