// measurement.hpp: the toy barrier run: every rank times loops of MPI_Barrier (the template capability,
// docs/architecture.md).
#pragma once

#include <mpi.h>

#include <tuple>

#include "mpilat.h"
#include "toy/options.hpp"

namespace lat {

struct ToyResult {
  lat_toy_options options{};
  lat_toy_summary summary{};
  /// What travels between ranks (lib/common/bytes.hpp): all of it.
  auto fields() { return std::tie(options, summary); }
};

/// lat_toy_measure(): collective over user_comm; the result on every rank.
ToyResult toy_measure(MPI_Comm user_comm, const lat_toy_options &opts);

}  // namespace lat

struct lat_toy_s {
  lat::ToyResult r;
};
