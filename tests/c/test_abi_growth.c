/* test_abi_growth.c: how the ABI grows (docs/api.md, "How the ABI grows"), through the sized entry points a
   caller's header reaches by its macros: a struct longer than this library's (a newer header) is accepted
   when its extra bytes are 0 and refused, naming the byte, when one is set; an output struct longer than
   ours gets its extra bytes zeroed; a size below the first extensible ABI's is refused; the entry points
   without _sized (a program built against 0.9) give what the macros give. The shorter struct of an older
   header, completed with the defaults, is tested on the template itself (tests/core, abi_sized). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* This test calls the plain entry points on purpose, as a 0.9 program does (docs/api.md). */
#define LAT_PLAIN_ENTRIES
#include "mpilat.h"

/* A newer header's lat_sweep_options: ours and 16 bytes of fields this library does not know. */
typedef struct {
  lat_sweep_options known;
  int64_t newer[2];
} newer_sweep_options;

static void longer_struct_with_zero_tail_accepted(void **state) {
  (void)state;
  newer_sweep_options o;
  memset(&o, 0x5a, sizeof o);
  assert_int_equal(lat_sweep_defaults_sized(&o.known, sizeof o), LAT_SUCCESS);
  assert_true(o.newer[0] == 0 && o.newer[1] == 0); /* written: the unknown fields zeroed */
  lat_sweep_options ours;
  assert_int_equal(lat_sweep_defaults(&ours), LAT_SUCCESS);
  assert_memory_equal(&o.known, &ours, sizeof ours);
  assert_int_equal(lat_sweep_check_sized(&o.known, sizeof o, 2, 0, NULL, NULL, 0), LAT_SUCCESS);
}

static void longer_struct_with_a_field_set_refused(void **state) {
  (void)state;
  newer_sweep_options o;
  memset(&o, 0, sizeof o);
  assert_int_equal(lat_sweep_defaults_sized(&o.known, sizeof o), LAT_SUCCESS);
  o.newer[1] = 3;
  assert_int_equal(lat_sweep_check_sized(&o.known, sizeof o, 2, 0, NULL, NULL, 0), LAT_ERR_UNSUPPORTED);
  char want[64];
  snprintf(want, sizeof want, "opts: byte %zu of the caller's %zu-byte struct is set",
           offsetof(newer_sweep_options, newer[1]), sizeof o);
  assert_non_null(strstr(lat_last_error_message(), want));
  assert_non_null(strstr(lat_last_error_message(), "a field of a newer mpilat.h"));
}

static void size_below_the_first_extensible_abi_refused(void **state) {
  (void)state;
  lat_sweep_options o;
  assert_int_equal(lat_sweep_defaults(&o), LAT_SUCCESS);
  assert_int_equal(lat_sweep_check_sized(&o, 8, 2, 0, NULL, NULL, 0), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "opts: a struct of 8 bytes, smaller than its 208 bytes in 0.9"));
  lat_sweep_options before = o;
  assert_int_equal(lat_sweep_defaults_sized(&o, 0), LAT_ERR_ARG);
  assert_memory_equal(&o, &before, sizeof o); /* nothing written */
  /* NULL stays NULL, whatever the size: the function's own refusal. */
  assert_int_equal(lat_sweep_check_sized(NULL, 0, 2, 0, NULL, NULL, 0), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "opts must not be NULL"));
}

static void longer_output_struct_zeroed_beyond_ours(void **state) {
  (void)state;
  lat_compare_options co;
  assert_int_equal(lat_compare_defaults(&co), LAT_SUCCESS);
  const double a[5] = {1.00, 1.01, 0.99, 1.005, 0.995}, b[5] = {1.05, 1.06, 1.04, 1.055, 1.045};
  lat_compare_result ours;
  assert_int_equal(lat_compare_launches(5, a, 5, b, &co, &ours), LAT_SUCCESS);
  struct {
    lat_compare_result known;
    double newer[3];
  } longer;
  memset(&longer, 0xab, sizeof longer);
  assert_int_equal(lat_compare_launches_sized(5, a, 5, b, &co, sizeof co, &longer.known, sizeof longer), LAT_SUCCESS);
  assert_memory_equal(&longer.known, &ours, sizeof ours);
  for (int i = 0; i < 3; ++i) assert_true(longer.newer[i] == 0.0);
}

/* The end of lat_pingpong_options in 0.9 (API 9; its last field then: minutes): what a program built against
   0.9 and 0.10 have, and all the entry point without _sized may write. */
#define PINGPONG_OPTIONS_0_10 (offsetof(lat_pingpong_options, minutes) + sizeof(double))

static void plain_entry_points_give_what_the_macros_give(void **state) {
  (void)state;
  lat_pingpong_options by_macro, plain;
  memset(&by_macro, 0, sizeof by_macro);
  memset(&plain, 0xff, sizeof plain);
  assert_int_equal(lat_pingpong_defaults(&by_macro), LAT_SUCCESS);
  assert_int_equal((lat_pingpong_defaults)(&plain), LAT_SUCCESS); /* parentheses: the function, not the macro */
  assert_memory_equal(&by_macro, &plain, PINGPONG_OPTIONS_0_10);
  for (size_t i = PINGPONG_OPTIONS_0_10; i < sizeof plain; ++i) /* fields added since: not the old caller's */
    assert_int_equal(((unsigned char *)&plain)[i], 0xff);
  plain.ntrial = 0;
  assert_int_equal((lat_pingpong_check)(&plain, 2, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "ntrial must be >= 1, got 0"));
}

/* lat_sweep_options of 0.9 (tests/data/abi_layout.txt): 208 bytes, its last field (logscale) ending at 204;
   0.10's bisect_distance sits at 204, in what was 0.9's tail padding. */
#define SWEEP_OPTIONS_0_9_SIZE 208
#define SWEEP_OPTIONS_0_9_END 204

/* A 0.9 caller whose struct has garbage in its tail padding (C leaves padding unspecified after a member-wise
   copy) is read only to its last field: the fields 0.10 put there get their defaults, never the garbage
   (it was refused: "bisect_distance is a bisection's (bisect = 1), got 1"). */
static void older_struct_padding_never_read(void **state) {
  (void)state;
  lat_sweep_options defaults;
  assert_int_equal(lat_sweep_defaults(&defaults), LAT_SUCCESS);
  assert_int_equal(offsetof(lat_sweep_options, bisect_distance), SWEEP_OPTIONS_0_9_END);
  unsigned char older[SWEEP_OPTIONS_0_9_SIZE];
  memcpy(older, &defaults, SWEEP_OPTIONS_0_9_END);
  memset(older + SWEEP_OPTIONS_0_9_END, 1, SWEEP_OPTIONS_0_9_SIZE - SWEEP_OPTIONS_0_9_END);
  const int64_t sizes[2] = {0, 1024};
  assert_int_equal(lat_sweep_check_sized((const lat_sweep_options *)(const void *)older, sizeof older, 2, 2, sizes, NULL, 0),
                   LAT_SUCCESS);
  /* Every extensible struct of this release ends with a field (explicit reserved space, refused unless 0). */
  assert_int_equal(sizeof(lat_sweep_options), offsetof(lat_sweep_options, reserved_end) + sizeof(int));
  assert_int_equal(sizeof(lat_timer_options), offsetof(lat_timer_options, reserved_end) + sizeof(int));
  lat_sweep_options set = defaults;
  set.reserved_end = 1;
  assert_int_equal(lat_sweep_check(&set, 2, 2, sizes, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "reserved_end"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(longer_struct_with_zero_tail_accepted),
      cmocka_unit_test(longer_struct_with_a_field_set_refused),
      cmocka_unit_test(size_below_the_first_extensible_abi_refused),
      cmocka_unit_test(longer_output_struct_zeroed_beyond_ours),
      cmocka_unit_test(plain_entry_points_give_what_the_macros_give),
      cmocka_unit_test(older_struct_padding_never_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
