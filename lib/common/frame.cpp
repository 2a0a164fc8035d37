#include "common/frame.hpp"

namespace lat {

MeasurementFrame::MeasurementFrame(MPI_Comm user_comm, double timeout_s) : comm_(user_comm, timeout_s) {
  for (int k = 0; k < comm_.size(); ++k)
    if (k != comm_.rank()) others_.push_back(k);
}

Waiting MeasurementFrame::result_wait(bool measuring, const char *what) const {
  return measuring ? Waiting{comm_.rank(), comm_.all_ranks(), what, comm_.timeout_s()} : Waiting{comm_.rank(), "", "", 0.0};
}

FailureListener &MeasurementFrame::listener() {
  if (!listener_) listener_ = std::make_unique<FailureListener>(comm_.get());
  return *listener_;
}

std::vector<char> MeasurementFrame::share_result(std::vector<char> bytes, int leader, bool measuring) {
  share_bytes_from_root(bytes, leader, comm_.get(), result_wait(measuring, "phase 'result': sharing the result"),
                        &listener());
  return bytes;
}

}  // namespace lat
