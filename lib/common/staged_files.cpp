#include "common/staged_files.hpp"

#include <algorithm>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "common/error.hpp"

namespace lat {

namespace {

std::string dir_of(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string &what, const std::string &path, int err) {
  throw IoError(what + " " + path + ": " + std::strerror(err));
}

/// The process's umask, read without changing it (Linux's /proc/self/status says it; elsewhere it is set and
/// put back once, before any file is written).
mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
    const mode_t m = umask(022);
    umask(m);
    return m;
  }();
  return mask;
}

/// Creates a unique temporary file beside path, writes contents, fsyncs; returns its name.
std::string stage(const std::string &path, const std::string &contents) {
  std::string tmpl = join_path(dir_of(path), ".mpilat-XXXXXX");
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) fail("cannot create a file in", dir_of(path), errno);
  const std::string tmp(name.data());
  size_t at = 0;
  while (at < contents.size()) {
    const ssize_t n = write(fd, contents.data() + at, contents.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(tmp.c_str());
      fail("cannot write", path, err);
    }
    at += static_cast<size_t>(n);
  }
  // mkstemp makes 0600 files; a result gets the mode any new file of the user's gets (0666 less the umask).
  fchmod(fd, 0666 & ~process_umask());
  if (fsync(fd) != 0 || close(fd) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    fail("cannot write", path, err);
  }
  return tmp;
}

/// What a file that is not a regular one is, for a message.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

using FileId = std::pair<dev_t, ino_t>;

/// The inputs this process has read (or checked), by identity: no output may replace one.
struct InputRegistry {
  std::mutex lock;
  std::map<FileId, std::string> paths;
};
InputRegistry &inputs() {
  static InputRegistry registry;
  return registry;
}

/// The directory entry path names (its directory resolved): two paths with one key are one name, which a
/// set of files cannot use twice. A symbolic link is an entry of its own, replaced and never written through.
std::string entry_of(const std::string &path) {
  char *dir = realpath(dir_of(path).c_str(), nullptr);
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string key = (dir ? std::string(dir) : dir_of(path)) + "/" + name;
  std::free(dir);
  return key;
}

/// check_output_file for every name, and no two of them one file (ArgError naming both).
void check_output_set(const std::vector<std::string> &paths) {
  std::map<std::string, std::string> seen;
  for (const std::string &p : paths) {
    check_output_file(p);
    const auto [at, fresh] = seen.emplace(entry_of(p), p);
    if (!fresh)
      throw ArgError("'" + at->second + "' and '" + p + "' are one file: two outputs of this run cannot share it "
                     "(give them other names)");
  }
}

/// mkdir -p dir (mode 0755 less the umask), as users expect of an --outdir that does not exist yet.
void make_directories(const std::string &dir) {
  for (size_t at = dir.find('/', 1);; at = dir.find('/', at + 1)) {
    const std::string part = at == std::string::npos ? dir : dir.substr(0, at);
    if (!part.empty() && mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) fail("cannot make output directory", dir, errno);
    if (at == std::string::npos) return;
  }
}

}  // namespace

void check_input_file(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw IoError(path + ": " + kind_of(st.st_mode) + ", not a regular file: only regular files are read");
  if (st.st_size > kMaxInputBytes)
    throw IoError(path + ": " + std::to_string(st.st_size) + " bytes, more than an input may hold (" +
                  std::to_string(kMaxInputBytes) + " bytes)");
  if (st.st_size == 0) {
    // A "regular" file of size 0 that holds bytes is the kernel's (/proc, /sys: /proc/self/pagemap reads without
    // end): its size is not known before it is read, and the Fortran readers size their reads by stat.
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    char some[64];  // a multiple of 8: pagemap refuses shorter reads (EINVAL)
    const bool holds_bytes = fd >= 0 && read(fd, some, sizeof some) > 0;
    if (fd >= 0) close(fd);
    if (holds_bytes)
      throw IoError(path + ": a file of the kernel's (its size reads 0, yet it holds bytes: /proc, /sys), not one "
                           "an input may be: copy it to a regular file first");
  }
  InputRegistry &r = inputs();
  std::lock_guard<std::mutex> hold(r.lock);
  r.paths.emplace(FileId{st.st_dev, st.st_ino}, path);
}

std::string read_input_file(const std::string &path, int64_t max_line) {
  check_input_file(path);
  // O_NONBLOCK: should the name become a FIFO after the check, open and read do not wait.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot be read (" + std::strerror(errno) + ")");
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw IoError(path + ": not a regular file any more (replaced after it was checked)");
  }
  std::string text;
  char chunk[65536];
  int64_t line = 1, line_bytes = 0;
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      throw IoError(path + ": cannot be read (" + std::strerror(err) + ")");
    }
    if (n == 0) break;
    if (static_cast<int64_t>(text.size()) + n > kMaxInputBytes) {
      close(fd);
      throw IoError(path + ": grew beyond what an input may hold (" + std::to_string(kMaxInputBytes) +
                    " bytes) while it was read");
    }
    if (max_line > 0)
      for (ssize_t k = 0; k < n; ++k) {
        if (chunk[k] == '\n') {
          ++line;
          line_bytes = 0;
        } else if (++line_bytes > max_line) {
          close(fd);
          throw DataError(path + ": line " + std::to_string(line) + " is longer than a line may be (" +
                        std::to_string(max_line) + " bytes)");
        }
      }
    text.append(chunk, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

namespace {

/// Whether this thread's effective capabilities hold CAP_FOWNER (bit 3 of CapEff in /proc/self/status), which
/// lets it replace another user's file in a sticky directory; without /proc: whether it is root.
bool holds_cap_fowner() {
  constexpr unsigned long long kCapFowner = 3;
  if (FILE *f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long caps = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "CapEff: %llx", &caps) == 1;
    std::fclose(f);
    if (found) return (caps >> kCapFowner) & 1ULL;
  }
  return geteuid() == 0;
}

}  // namespace

void check_output_file(const std::string &path) {
  // The entry itself: a symbolic link is replaced by the file (rename), never written through, so a link
  // planted where results go cannot aim them at someone's file.
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    fail("cannot use", path, errno);
  }
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    throw ArgError("'" + path + "' is " + kind_of(st.st_mode) + ": mpilat writes results only to regular files, " +
                   "which it replaces whole; never to a directory, device, FIFO or socket");
  // Another user's entry in a sticky directory (a shared /tmp or project space) that is not ours either:
  // the rename at the end would be refused after the whole measurement, unless the process holds CAP_FOWNER
  // (root as a rule; not root without it, and any user given it).
  struct stat dir;
  const uid_t me = geteuid();
  if (!holds_cap_fowner() && st.st_uid != me && lstat(dir_of(path).c_str(), &dir) == 0 && (dir.st_mode & S_ISVTX) &&
      dir.st_uid != me)
    throw ArgError("'" + path + "' belongs to another user (uid " + std::to_string(st.st_uid) + ") in a directory " +
                   "with the sticky bit (" + dir_of(path) + "): it cannot be replaced; give another name or directory");
  // What the name reads as (through a link): an input keeps its name.
  if (stat(path.c_str(), &st) != 0) return;
  InputRegistry &r = inputs();
  std::lock_guard<std::mutex> hold(r.lock);
  const auto input = r.paths.find(FileId{st.st_dev, st.st_ino});
  if (input != r.paths.end())
    throw ArgError("'" + path + "' is the input '" + input->second + "' of this run: an output never replaces an "
                   "input (give another name or directory)");
}

std::string read_text_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw IoError("cannot read " + path + ": " + std::strerror(errno));
  return text.str();
}

bool has_control_characters(const std::string &text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

std::string printable(const std::string &text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void require_plain_path(const char *what, const std::string &path) {
  // A newline in a name would split the lines of the files that name it (gnuplot scripts, logs).
  if (has_control_characters(path))
    throw ArgError(std::string(what) + " must not hold control characters (a newline, a tab, ...), got '" + printable(path) + "'");
}

void require_file_name(const char *what, const std::string &name) {
  if (name.empty() || name.find('/') != std::string::npos)
    throw ArgError(std::string(what) + " must be a file name without '/', got '" + printable(name) + "'");
  if (name == "." || name == "..") throw ArgError(std::string(what) + " must be a file name, got '" + name + "'");
  require_plain_path(what, name);
}

std::string join_path(const std::string &dir, const std::string &name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files) {
  write_files_whole(files, nullptr);
}

void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files, const MakeFromStaged &make) {
  write_files_whole(files, make, files.size());
}

namespace {

/// Renames staged[k] onto finals[k] for k in [from, to) except [skip_from, skip_to); on a refusal the staged
/// files not yet renamed are removed and IoError names the file.
void publish(const std::vector<std::string> &staged, const std::vector<std::string> &finals, size_t from, size_t to) {
  // Each file already in place is kept under a hidden name (a hard link) until the whole set is in: when one
  // rename is refused (an immutable file, another user's file in a sticky directory) the renames made are
  // undone, so the set is never half new and half old. Where no link can be made, that file cannot come back.
  std::vector<std::string> kept(to);
  std::vector<bool> existed(to, false);
  for (size_t k = from; k < to; ++k) {
    struct stat st;
    if (lstat(finals[k].c_str(), &st) != 0) continue;
    existed[k] = true;
    std::string name = temporary_beside(finals[k], ".old");
    unlink(name.c_str());
    if (link(finals[k].c_str(), name.c_str()) == 0) kept[k] = name;
  }
  const auto drop_kept = [&] {
    for (size_t k = from; k < to; ++k)
      if (!kept[k].empty()) unlink(kept[k].c_str());
  };
  for (size_t k = from; k < to; ++k)
    if (rename(staged[k].c_str(), finals[k].c_str()) != 0) {
      const int err = errno;
      for (size_t j = from; j < k; ++j) {  // undone: the old file back, or the new one gone where none was
        if (!kept[j].empty() && rename(kept[j].c_str(), finals[j].c_str()) == 0) kept[j].clear();
        else if (!existed[j]) unlink(finals[j].c_str());
      }
      for (size_t j = k; j < to; ++j) unlink(staged[j].c_str());
      drop_kept();
      fail("cannot rename into", finals[k], err);
    }
  drop_kept();
}

/// The message of a drawing that failed after the data were published: the data are there, and how to draw.
std::string pictures_not_drawn(const std::string &why) {
  return "the data files are written; the pictures were not drawn (" + why +
         "): draw them later with gnuplot from the .gp scripts, where the run wrote them";
}

}  // namespace

void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files, const MakeFromStaged &make,
                       size_t scratch_from) {
  for (const auto &f : files) require_plain_path("a file name", f.first);
  scratch_from = std::min(scratch_from, files.size());
  // What will be renamed into place is checked before anything is staged (the files asked for) and after
  // make (the files made): all regular or absent, no input, no two one file.
  std::vector<std::string> published;
  for (size_t k = 0; k < scratch_from; ++k) published.push_back(files[k].first);
  check_output_set(published);
  std::vector<std::string> staged, finals;
  try {
    for (const auto &f : files) {
      staged.push_back(stage(f.first, f.second));
      finals.push_back(f.first);
    }
  } catch (...) {
    for (const auto &t : staged) unlink(t.c_str());
    throw;
  }
  if (!make) {
    publish(staged, finals, 0, files.size());
    return;
  }
  // The data first, the pictures after: a drawing that fails (no gnuplot, gnuplot killed by the Ctrl-C or
  // the SIGTERM sent to the job's process group, a full disk) costs the pictures, never the measurement. The
  // files asked for are renamed into place before anything is drawn, and gnuplot reads them there.
  try {
    publish(staged, finals, 0, scratch_from);
  } catch (...) {
    for (size_t k = scratch_from; k < staged.size(); ++k) unlink(staged[k].c_str());
    throw;
  }
  std::vector<std::string> made_from = finals;
  for (size_t k = scratch_from; k < files.size(); ++k) made_from[k] = staged[k];
  std::vector<std::string> made_staged, made_finals;
  const auto drop_scratch = [&] {
    for (size_t k = scratch_from; k < files.size(); ++k) unlink(staged[k].c_str());
  };
  try {
    for (const auto &m : make(made_from)) {
      made_finals.push_back(m.first);
      made_staged.push_back(m.second);
      published.push_back(m.first);
    }
    check_output_set(published);
  } catch (const UnsupportedError &e) {
    drop_scratch();
    for (const auto &t : made_staged) unlink(t.c_str());
    throw UnsupportedError(pictures_not_drawn(e.what()));
  } catch (const std::exception &e) {
    drop_scratch();
    for (const auto &t : made_staged) unlink(t.c_str());
    throw IoError(pictures_not_drawn(e.what()));
  }
  drop_scratch();
  publish(made_staged, made_finals, 0, made_staged.size());
}

std::string temporary_beside(const std::string &path, const std::string &suffix) {
  std::string tmpl = join_path(dir_of(path), ".mpilat-XXXXXX" + suffix);
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) fail("cannot create a file in", dir_of(path), errno);
  fchmod(fd, 0666 & ~process_umask());  // gnuplot writes into it: the mode a result gets
  close(fd);
  return std::string(name.data());
}

void check_writable_dir(const std::string &dir) {
  const std::string d = dir.empty() ? "." : dir;
  require_plain_path("the output directory", d);
  struct stat st;
  if (stat(d.c_str(), &st) != 0 && errno == ENOENT) make_directories(d);
  if (stat(d.c_str(), &st) != 0) fail("cannot use output directory", d, errno);
  if (!S_ISDIR(st.st_mode)) fail("output directory", d, ENOTDIR);
  std::vector<char> name;
  const std::string tmpl = join_path(d, ".mpilat-probe-XXXXXX");
  name.assign(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) fail("cannot create files in output directory", d, errno);
  close(fd);
  unlink(name.data());
}

void check_output_files(const std::vector<std::string> &paths) { check_output_set(paths); }

void require_declared(const std::vector<std::string> &declared, const std::vector<std::pair<std::string, std::string>> &files) {
  for (const auto &file : files)
    if (std::find(declared.begin(), declared.end(), file.first) == declared.end())
      throw std::logic_error("the writer's file " + file.first + " is not in its capability's list of outputs");
}

}  // namespace lat
