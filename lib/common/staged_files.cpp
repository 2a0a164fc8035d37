#include "common/staged_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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
  // mkstemp makes 0600 files; results are for everyone who may read the directory.
  fchmod(fd, 0644);
  if (fsync(fd) != 0 || close(fd) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    fail("cannot write", path, err);
  }
  return tmp;
}

}  // namespace

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

void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files, const MakeFromStaged &make,
                       size_t scratch_from) {
  for (const auto &f : files) require_plain_path("a file name", f.first);
  std::vector<std::string> staged;
  std::vector<std::string> finals;
  try {
    for (const auto &f : files) {
      staged.push_back(stage(f.first, f.second));
      finals.push_back(f.first);
    }
    if (make) {
      const std::vector<std::string> made_from = staged;
      for (const auto &m : make(made_from)) {
        finals.push_back(m.first);
        staged.push_back(m.second);
      }
    }
  } catch (...) {
    for (const auto &t : staged) unlink(t.c_str());
    throw;
  }
  // Files from scratch_from on were staged only for make: they go, the others are renamed into place.
  for (size_t k = scratch_from; k < files.size(); ++k) unlink(staged[k].c_str());
  for (size_t k = 0; k < finals.size(); ++k) {
    if (k >= scratch_from && k < files.size()) continue;
    if (rename(staged[k].c_str(), finals[k].c_str()) != 0) {
      const int err = errno;
      for (size_t j = k; j < staged.size(); ++j) unlink(staged[j].c_str());
      fail("cannot rename into", finals[k], err);
    }
  }
}

std::string temporary_beside(const std::string &path, const std::string &suffix) {
  std::string tmpl = join_path(dir_of(path), ".mpilat-XXXXXX" + suffix);
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) fail("cannot create a file in", dir_of(path), errno);
  fchmod(fd, 0644);
  close(fd);
  return std::string(name.data());
}

void check_writable_dir(const std::string &dir) {
  const std::string d = dir.empty() ? "." : dir;
  require_plain_path("the output directory", d);
  struct stat st;
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

}  // namespace lat
