// stop.hpp: the stop request set by lat_request_stop() (from a signal handler) and read between trials.
#pragma once

namespace lat {
bool stop_requested() noexcept;
void request_stop() noexcept;
void clear_stop() noexcept;
}  // namespace lat
