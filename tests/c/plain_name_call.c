/* plain_name_call.c: new code calling an entry point by its plain name, (lat_sweep_defaults)(...), which would
   bypass mpilat.h's macro and pass this header's struct to an entry point that reads 0.9's. Compiled by
   tests/tools/check_plain_name_refused.sh: refused without LAT_PLAIN_ENTRIES, accepted with it. */
#include "mpilat.h"

int main(void) {
  lat_sweep_options opts;
  return (lat_sweep_defaults)(&opts);
}
