#include "common/communicator.hpp"

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "common/waits.hpp"

namespace lat {

void check_mpi(int rc, const char *call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw MpiError(std::string(call) + " failed: " + std::string(text, static_cast<size_t>(len)));
}

void require_mpi_initialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized) throw NotInitError("MPI is not initialised: call MPI_Init first");
  if (finalized) throw NotInitError("MPI is already finalised");
}

MPI_Comm create_member_comm(MPI_Comm comm, const std::vector<int> &members, int tag) {
  MPI_Group all, some;
  check_mpi(MPI_Comm_group(comm, &all), "MPI_Comm_group");
  const int rc_incl = MPI_Group_incl(all, static_cast<int>(members.size()), members.data(), &some);
  MPI_Group_free(&all);
  check_mpi(rc_incl, "MPI_Group_incl");
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = MPI_Comm_create_group(comm, some, tag, &made);
  MPI_Group_free(&some);
  check_mpi(rc, "MPI_Comm_create_group");
  return made;
}

void validate_user_comm(MPI_Comm comm) {
  require_mpi_initialized();
  if (comm == MPI_COMM_NULL) throw ArgError("comm must not be MPI_COMM_NULL");
  int inter = 0;
  check_mpi(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw ArgError("comm must be an intracommunicator, got an intercommunicator");
}

LibComm::LibComm(MPI_Comm user_comm, double timeout_s)
    : timeout_s_(check_timeout(timeout_s).empty() ? timeout_s : 0.0) {  // a bad value: agree_arguments says so
  validate_user_comm(user_comm);
  int user_rank = 0, user_size = 0;
  check_mpi(MPI_Comm_rank(user_comm, &user_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(user_comm, &user_size), "MPI_Comm_size");
  all_ranks_ = "ranks 0.." + std::to_string(user_size - 1);
  // Non-blocking, so that a rank that never calls in is reported instead of waited for.
  MPI_Request req;
  check_mpi(MPI_Comm_idup(user_comm, &comm_, &req), "MPI_Comm_idup");
  wait_yielding(req, {user_rank, all_ranks_.c_str(),
                      "phase 'start': every rank must call the same mpilat function", timeout_s_});
  int rc = MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(comm_, &rank_);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm_, &size_);
  if (rc != MPI_SUCCESS) {
    MPI_Comm_free(&comm_);
    check_mpi(rc, "MPI_Comm_set_errhandler/rank/size");
  }
}

LibComm::~LibComm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

}  // namespace lat
