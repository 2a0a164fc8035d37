// queue.cpp: the C shims of the queue-depth sweep, its result handle and its files.
#include "queue/report.hpp"
#include "queue/measurement.hpp"
#include "guard.hpp"
#include "queue/options.hpp"

namespace {

const lat_queue_s &handle(lat_queue queue) { return lat::deref(queue, "queue"); }

}  // namespace

extern "C" {

int lat_impl_queue_check(const lat_queue_options *opts, int nprocs, int64_t nlengths, const int64_t *lengths,
                    int64_t nfractions, const double *fractions_percent, int64_t nsizes, const int64_t *sizes,
                    const lat_timer_result *timer) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_no_complaint(lat::check_queue_options(*opts, nlengths, lengths, nfractions, fractions_percent, nsizes,
                                                       sizes, nprocs, opts->source, timer));
    return LAT_SUCCESS;
  });
}

int lat_impl_queue_sweep(MPI_Comm comm, const lat_queue_options *opts, int64_t nlengths, const int64_t *lengths,
                    int64_t nfractions, const double *fractions_percent, int64_t nsizes, const int64_t *sizes,
                    const lat_timer_result *timer, lat_queue *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = nullptr;
    lat::require_nonnull(opts, "opts");
    auto *h = lat::new_handle<lat_queue_s>(
        lat::queue_sweep(comm, *opts, nlengths, lengths, nfractions, fractions_percent, nsizes, sizes, timer));
    *result = h;
    return lat::interrupted_code(h->r.summary.partial != 0, "queue sweep", "the result holds the points measured");
  });
}

int lat_write_queue_files(const char *outdir, const char *command_line, lat_queue queue, int render) {
  return lat::guard([&] {
    const lat_queue_s &h = handle(queue);
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    lat::write_queue_files(outdir ? outdir : "", command_line ? command_line : "", h.r, render == 1);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
