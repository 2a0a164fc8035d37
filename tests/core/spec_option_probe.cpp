// spec_option_probe.cpp: drivers/spec_cli.hpp's spec_option, as tests/tools/check_spec_option.sh uses it:
// "--iters 1234" parsed into lat_queue_options.iters through the option the spec names for the driver given
// as argv[1]; with LAT_TEST_NO_OPTION, a field the spec gives no cli_help (mmpi's nr: no option sets it),
// which must not compile.
#include <cstdio>

#include "spec_cli.hpp"

int main(int argc, char **argv) {
  CLI::App app{"spec_option_probe"};
  lat_queue_options o{};
#ifdef LAT_TEST_NO_OPTION
  lat_pair_options pairs{};
  spec_option<&lat_pair_options::nr>(app, "mmpi", pairs);
#endif
  spec_option<&lat_queue_options::iters>(app, argc > 1 ? argv[1] : "queuelat", o);
  std::puts("spec_option returned");
  std::fflush(stdout);
  const char *args[] = {"probe", "--iters", "1234"};
  app.parse(3, args);
  std::printf("iters = %lld\n", static_cast<long long>(o.iters));
  return o.iters == 1234 ? 0 : 1;
}
