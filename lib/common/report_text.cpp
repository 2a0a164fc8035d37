#include "common/report_text.hpp"

#include <mpi.h>

#include <ctime>

#include "common/disturbance.hpp"

namespace lat {

std::string quoted_line(const std::string &line) {
  constexpr size_t kShown = 120;
  size_t not_text = 0;
  for (unsigned char ch : line)
    if ((ch < 0x20 && ch != '\t') || ch == 0x7f) ++not_text;
  if (not_text > 0) return "a line of " + std::to_string(line.size()) + " bytes that is not text";
  if (line.size() <= kShown) return "'" + line + "'";
  return "'" + line.substr(0, kShown) + "...' (" + std::to_string(line.size()) + " characters)";
}

std::string encoding_complaint(const std::string &text, const std::string &name) {
  const auto starts = [&](const char *mark, size_t n) { return text.compare(0, n, mark, n) == 0; };
  const bool utf32 = starts("\x00\x00\xfe\xff", 4) || starts("\xff\xfe\x00\x00", 4);
  const bool utf16 = !utf32 && (starts("\xff\xfe", 2) || starts("\xfe\xff", 2));
  if (!utf16 && !utf32) return "";
  const std::string utf = utf32 ? "UTF-32" : "UTF-16";
  return name + ": " + utf + " text (it starts with a byte-order mark); mpilat reads ASCII or UTF-8: convert it, e.g. iconv -f " +
         utf + " -t UTF-8";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "unknown";
  std::string s(text, static_cast<size_t>(len));
  while (!s.empty() && (s.back() == '\n' || s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string disturbance_warning(double runqueue_share_max, int rank, double waited_s) {
  if (!is_disturbed(runqueue_share_max, waited_s)) return "";
  return fmt::format("WARNING: the machine disturbed the run: rank {} waited for a processor {:.1f} % of the time it could run "
                     "({:.3f} s: other work on its processors, or more ranks than processors); the times include the "
                     "scheduler's: rerun on a quiet node", rank, 100.0 * runqueue_share_max, waited_s);
}

std::string half_width_text(double half_pct) {
  if (!(half_pct <= 100.0)) return "unbounded";
  return fmt::format("+-{:.3f} %", half_pct);
}

}  // namespace lat
