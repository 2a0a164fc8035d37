#include "common/failure_notes.hpp"

#include <cstdio>
#include <cstdlib>
#include <list>
#include <mutex>

#include "common/communicator.hpp"
#include "common/error.hpp"

namespace lat {

namespace {
// Failure notes travel on the library's communicator under a tag of their own.
constexpr int kTagFailure = 0x4c41;  // "LA"
constexpr int kNoteBytes = 1024;
}  // namespace

FailureListener::FailureListener(MPI_Comm comm) : note_(kNoteBytes) {
  check_mpi(MPI_Irecv(note_.data(), kNoteBytes, MPI_CHAR, MPI_ANY_SOURCE, kTagFailure, comm, &req_),
            "MPI_Irecv (failure note)");
}

FailureListener::~FailureListener() {
  if (req_ == MPI_REQUEST_NULL) return;
  MPI_Cancel(&req_);
  MPI_Wait(&req_, MPI_STATUS_IGNORE);
}

void FailureListener::check() {
  if (req_ == MPI_REQUEST_NULL) return;
  int arrived = 0;
  check_mpi(MPI_Test(&req_, &arrived, MPI_STATUS_IGNORE), "MPI_Test (failure note)");
  if (!arrived) return;
  // The note is "<fault kind>\n<message>", NUL-terminated.
  note_.back() = '\0';
  char *text = nullptr;
  const long code = std::strtol(note_.data(), &text, 10);
  throw_fault(static_cast<Fault>(code), *text == '\n' ? text + 1 : text);
}

void report_failure(MPI_Comm comm, const std::vector<int> &to, Fault fault, const std::string &message) {
  // The buffers outlive the sends on purpose (the receivers may be slow, and this rank is about to
  // return an error): kept until exit, one small note per failed call.
  static std::mutex kept_lock;
  static std::list<std::vector<char>> kept;
  std::vector<char> *note = nullptr;
  {
    std::lock_guard<std::mutex> hold(kept_lock);
    note = &kept.emplace_back(kNoteBytes, '\0');
  }
  std::snprintf(note->data(), note->size(), "%d\n%s", static_cast<int>(fault), message.c_str());
  for (int r : to) {
    MPI_Request req;
    if (MPI_Isend(note->data(), kNoteBytes, MPI_CHAR, r, kTagFailure, comm, &req) == MPI_SUCCESS)
      MPI_Request_free(&req);
  }
}

void report_current_failure(MPI_Comm comm, const std::vector<int> &to) {
  const Fault fault = current_fault();
  if (fault == Fault::timeout || fault == Fault::mpi || fault == Fault::data || fault == Fault::unsupported) {
    try {
      throw;
    } catch (const std::exception &e) {
      report_failure(comm, to, fault, e.what());
    }
  }
  throw;
}

}  // namespace lat
