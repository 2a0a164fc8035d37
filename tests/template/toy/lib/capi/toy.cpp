// toy.cpp: the C shim of the toy barrier run's files (its check, measurement and accessors are generated:
// lib/generated/capi_entries.cpp, capi_handles.cpp).
#include "guard.hpp"
#include "toy/report.hpp"

extern "C" {

int lat_write_toy_files(const char *outdir, const char *command_line, lat_toy toy) {
  return lat::guard([&] {
    lat::write_toy_files(outdir ? outdir : "", command_line ? command_line : "", lat::deref(toy, "toy").r);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
