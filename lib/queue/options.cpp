#include "queue/options.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"
#include "timer/options.hpp"

namespace lat {

lat_queue_options queue_defaults() {
  lat_queue_options o;
  spec_defaults(o);
  return o;
}

QueueGrid grid_of(const lat_queue_options &o, int64_t nl, const int64_t *lengths, int64_t nf, const double *fractions,
                  int64_t ns, const int64_t *sizes) {
  QueueGrid g;
  if (nl > 0 && lengths) g.lengths.assign(lengths, lengths + nl);
  else for (int64_t l = 0; l <= 1000; l += 100) g.lengths.push_back(l);
  if (o.mode == LAT_QUEUE_UNEXPECTED) g.fractions = {100.0};
  else if (nf > 0 && fractions) g.fractions.assign(fractions, fractions + nf);
  else g.fractions = {0.0, 25.0, 50.0, 75.0, 100.0};
  if (ns > 0 && sizes) g.sizes.assign(sizes, sizes + ns);
  else g.sizes = {0};
  return g;
}

std::string check_queue_options(const lat_queue_options &o, int64_t nl, const int64_t *lengths, int64_t nf,
                                const double *fractions, int64_t ns, const int64_t *sizes, int size, int rank,
                                const lat_timer_result *cal) {
  if (nl < 0 || nf < 0 || ns < 0) return "nlengths, nfractions and nsizes must be >= 0 (0: the defaults)";
  if (nl > 0 && lengths == nullptr) return "lengths must not be NULL when nlengths > 0";
  if (nf > 0 && fractions == nullptr) return "fractions_percent must not be NULL when nfractions > 0";
  if (ns > 0 && sizes == nullptr) return "sizes must not be NULL when nsizes > 0";
  for (int64_t k = 0; k < nl; ++k)
    if (lengths[k] < 0 || lengths[k] > kMaxQueueLength)
      return "lengths[" + std::to_string(k) + "] must be in 0.." + std::to_string(kMaxQueueLength) + ", got " +
             std::to_string(lengths[k]);
  for (int64_t k = 0; k < nf; ++k)
    if (!(fractions[k] >= 0.0 && fractions[k] <= 100.0))
      return got("fractions_percent[" + std::to_string(k) + "] must be in 0..100", fractions[k]);
  for (int64_t k = 0; k < ns; ++k)
    if (sizes[k] < 0 || sizes[k] > INT_MAX)
      return "sizes[" + std::to_string(k) + "] must be in 0.." + std::to_string(INT_MAX) + " bytes, got " +
             std::to_string(sizes[k]);
  if (nl * std::max<int64_t>(nf, 1) * std::max<int64_t>(ns, 1) > kMaxQueuePoints)
    return "the grid has more than " + std::to_string(kMaxQueuePoints) + " points";
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  // The work of the grid, before anything is posted: every measurement posts its queue and walks it iters
  // times (at most), at ~10 ns an entry; beyond kMaxQueueWork a run would take hours.
  const QueueGrid g = grid_of(o, nl, lengths, nf, fractions, ns, sizes);
  double entries = 0.0;
  for (int64_t l : g.lengths) entries += static_cast<double>(l);
  const double work = entries * static_cast<double>(o.iters + 1) * static_cast<double>(g.fractions.size()) *
                      static_cast<double>(g.sizes.size()) * static_cast<double>(o.reps);
  if (work > kMaxQueueWork) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "the grid would handle about %.2g queue entries (the lengths' sum x (iters + 1) x fractions x "
                  "sizes x reps), more than %.0e (about 20 minutes at 10 ns an entry): give fewer or shorter "
                  "lengths, or fewer iters or reps", work, kMaxQueueWork);
    return text;
  }
  if (std::string bad = check_pair_of_ranks("queue sweep", o.source, o.dest, size); !bad.empty()) return bad;
  return rank == o.source ? check_calibration(cal, o.timer, o.nr) : "";
}

std::vector<Shared> queue_shared_values(const lat_queue_options &o, int64_t nl, int64_t nf, int64_t ns,
                                        const QueueGrid &g) {
  std::vector<Shared> shared = spec_shared_values(o);
  shared.insert(shared.end(), {Shared::integer("nlengths", nl), Shared::integer("nfractions", nf), Shared::integer("nsizes", ns),
          Shared::weighted_sum("lengths (weighted sum)", g.lengths.data(), g.lengths.size()),
          Shared::weighted_sum("fractions (weighted sum)", g.fractions.data(), g.fractions.size()),
          Shared::weighted_sum("sizes (weighted sum)", g.sizes.data(), g.sizes.size())});
  return shared;
}

}  // namespace lat
