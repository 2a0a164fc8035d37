// queue.cpp: the C shim of the queue-depth sweep's files (its check and measurement:
// lib/generated/capi_entries.cpp).
#include "queue/report.hpp"
#include "queue/measurement.hpp"
#include "guard.hpp"
#include "queue/options.hpp"

namespace {

const lat_queue_s &handle(lat_queue queue) { return lat::deref(queue, "queue"); }

}  // namespace

extern "C" {

int lat_write_queue_files(const char *outdir, const char *command_line, lat_queue queue, int render) {
  return lat::guard([&] {
    const lat_queue_s &h = handle(queue);
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    lat::write_queue_files(outdir ? outdir : "", command_line ? command_line : "", h.r, render == 1);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
