// fuzz_readers.cpp: libFuzzer targets for the text readers of the library, through the C ABI as a user
// calls them: the nodecomm table (lat_read_nodecomm_table, FUZZ_NODECOMM_TABLE) and the mmpi log
// (lat_read_mmpi_log, FUZZ_MMPI_LOG). The input is the file. A crash, a hang, a sanitizer report or an
// error code other than the documented ones is a finding; LAT_ERR_DATA for a malformed file is not.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mpilat.h"

namespace {

char path[64];

void write_input(const uint8_t *data, size_t size) {
  FILE *f = std::fopen(path, "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

void expect(int rc) {
  if (rc != LAT_SUCCESS && rc != LAT_ERR_DATA) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  std::snprintf(path, sizeof path, "/tmp/mpilat-fuzz-reader-%ld", static_cast<long>(getpid()));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  write_input(data, size);
#ifdef FUZZ_NODECOMM_TABLE
  int64_t n = 0, missing = 0;
  const int rc = lat_read_nodecomm_table(path, 1.0, 0, nullptr, &n, &missing);
  expect(rc);
  if (rc == LAT_SUCCESS) {
    std::vector<lat_maxrate_obs> obs(static_cast<size_t>(n));
    expect(lat_read_nodecomm_table(path, 1.0, n, obs.data(), &n, &missing));
    // What was read is a fit's input: the fit refuses or fits, never crashes.
    lat_fit_options o;
    lat_fit_defaults(&o);
    lat_maxrate_fit fit = nullptr;
    const int frc = lat_fit_maxrate(&o, n, obs.data(), &fit);
    if (frc != LAT_SUCCESS && frc != LAT_ERR_ARG) std::abort();
    lat_maxrate_free(&fit);
  }
#else
  lat_pairs pairs = nullptr;
  const int rc = lat_read_mmpi_log(path, &pairs);
  expect(rc);
  if (rc == LAT_SUCCESS) {
    lat_pair_summary s;
    if (lat_pairs_get_summary(pairs, &s) != LAT_SUCCESS) std::abort();
  }
  lat_pairs_free(&pairs);
#endif
  return 0;
}
