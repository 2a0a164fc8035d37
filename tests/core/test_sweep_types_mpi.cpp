// test_sweep_types_mpi.cpp: the original mpptest's strided message (-vector, -vectortype) as
// lat::vector_message_type makes it, against hand-computed sizes and extents, and a real message between two
// ranks landing on every stride-th double with the gaps untouched. Run on 2 ranks.
#include <mpi.h>

#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "sweep/measurement.hpp"

namespace {

/// 800 bytes, stride 10: 100 doubles (800 bytes of data); the vector spans (100 - 1) x 10 + 1 doubles, the
/// resized double 10 doubles a piece; 803 bytes send the same 100 (the last 3 are not sent).
void sizes_and_extents_by_hand(void **) {
  for (const bool as_vector : {true, false}) {
    for (const int64_t size : {int64_t{800}, int64_t{803}}) {
      MPI_Datatype type;
      const int count = lat::vector_message_type(size, 10, as_vector, &type);
      assert_int_equal(count, as_vector ? 1 : 100);
      int type_bytes = 0;
      MPI_Type_size(type, &type_bytes);
      assert_int_equal(static_cast<int64_t>(type_bytes) * count, 800);
      MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
      MPI_Type_get_extent(type, &lb, &extent);
      MPI_Type_get_true_extent(type, &true_lb, &true_extent);
      assert_int_equal(lb, 0);
      assert_int_equal(extent, as_vector ? 99 * 80 + 8 : 80);
      assert_int_equal(true_extent, as_vector ? 99 * 80 + 8 : 8);
      MPI_Type_free(&type);
    }
  }
  MPI_Datatype none;
  assert_int_equal(lat::vector_message_type(7, 10, false, &none), 0);  // under one double: nothing sent
  MPI_Type_free(&none);
}

/// Rank 0 sends doubles 1, 2, 3, ... from every stride-th place of its buffer; rank 1's zeroed buffer gets
/// them at the same places and nothing in between.
void strided_message_lands_strided(void **) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  constexpr int kStride = 7, kDoubles = 50;
  for (const bool as_vector : {true, false}) {
    std::vector<double> buf(static_cast<size_t>(kStride * kDoubles), rank == 0 ? -1.0 : 0.0);
    if (rank == 0)
      for (int i = 0; i < kDoubles; ++i) buf[static_cast<size_t>(i * kStride)] = i + 1.0;
    MPI_Datatype type;
    const int count = lat::vector_message_type(kDoubles * 8, kStride, as_vector, &type);
    if (rank == 0) MPI_Send(buf.data(), count, type, 1, 5, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Recv(buf.data(), count, type, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int k = 0; k < kStride * kDoubles; ++k)
        assert_true(buf[static_cast<size_t>(k)] == (k % kStride == 0 ? k / kStride + 1.0 : 0.0));
    }
    MPI_Type_free(&type);
  }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setenv("CMOCKA_TEST_ABORT", "1", 1);  // a failing rank must not leave the other waiting
  const struct CMUnitTest tests[] = {cmocka_unit_test(sizes_and_extents_by_hand),
                                     cmocka_unit_test(strided_message_lands_strided)};
  const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
  MPI_Finalize();
  return failed;
}
