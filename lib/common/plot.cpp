#include "common/plot.hpp"

#include "common/report_text.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"

extern char **environ;

namespace lat {

std::string gnuplot_quoted(const std::string &value) {
  std::string q = "'";
  // '' is gnuplot's quote inside single quotes; a control character (a newline would end the string and
  // start a command) becomes '?'.
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    q += c == '\'' ? std::string("''") : (u < 0x20 || u == 0x7f) ? std::string("?") : std::string(1, c);
  }
  return q + "'";
}

void run_gnuplot(const std::string &script, const std::vector<std::pair<std::string, std::string>> &strings,
                 const std::string &output, const std::string &shown) {
  std::string assignments;
  for (const auto &s : strings) assignments += s.first + "=" + gnuplot_quoted(s.second) + "; ";
  std::vector<std::string> args = {"gnuplot", "-e", assignments, script};
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // gnuplot's warnings ("empty x range" for a single size) are not the user's business; its messages go to
  // a file of their own, quoted when it fails.
  const std::string messages = temporary_beside(output, ".err");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, messages.c_str(), O_WRONLY | O_TRUNC, 0);
  // gnuplot in a process group of its own: the Ctrl-C of a terminal, and the SIGINT, SIGTERM or SIGHUP that
  // mpiexec or timeout send to the ranks' process groups, reach the driver (which stops at its next safe
  // point) and not gnuplot, which finishes the picture it draws (killed, it cost the whole run's files).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  std::string said;
  auto collect = [&] {
    try {
      said = read_text_file(messages);
    } catch (const IoError &) {
    }
    std::remove(messages.c_str());
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    if (said.size() > 400) said = said.substr(said.size() - 400);
  };
  if (rc != 0) {
    collect();
    throw UnsupportedError(std::string("cannot run gnuplot (") + std::strerror(rc) +
                           "): install it (Debian: gnuplot-nox), or ask for no plot");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      collect();
      throw IoError(std::string("waiting for gnuplot: ") + std::strerror(errno));
    }
  }
  collect();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    // posix_spawnp reports a missing program as exit status 127 on glibc.
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      throw UnsupportedError("cannot run gnuplot: not found; install it (Debian: gnuplot-nox), or ask for no plot");
    throw IoError("gnuplot failed on " + script + " (exit status " +
                  std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" +
                  (said.empty() ? std::string() : ": " + said));
  }
  // Drawn, but without its text: gnuplot goes on when fontconfig cannot load (no fonts on a node, or no file
  // descriptor left: `ulimit -n 5`), and a heat map without its labels and scale was published silently.
  for (const char *no_fonts : {"Fontconfig error", "Could not find/open font"})
    if (const size_t at = said.find(no_fonts); at != std::string::npos) {
      const size_t end = said.find('\n', at);  // its line (npos: to the end)
      throw IoError("gnuplot drew " + shown + " without its fonts, its text missing (" +
                    said.substr(at, end == std::string::npos ? end : end - at) + ")");
    }
  struct stat st;
  if (stat(output.c_str(), &st) != 0 || st.st_size == 0)
    throw IoError("gnuplot wrote no plot into " + shown);
  // Whole, not just begun: gnuplot's SVG terminal ignores write errors, and on a full disk a truncated picture
  // was published with exit 0. A PNG ends with its IEND chunk, an SVG with </svg>.
  std::string tail;
  try {
    const std::string whole = read_text_file(output);
    tail = whole.substr(whole.size() > 64 ? whole.size() - 64 : 0);
  } catch (const IoError &) {
  }
  const bool png = output.size() > 4 && output.compare(output.size() - 4, 4, ".png") == 0;
  const bool whole = png ? tail.size() >= 12 && tail.compare(tail.size() - 12, 8, std::string("\0\0\0\0IEND", 8)) == 0
                         : tail.find("</svg>") != std::string::npos;
  if (!whole) throw IoError("gnuplot left " + shown + " unfinished (a full disk?): its end is missing");
}

std::string gnuplot_figure_head(const std::string &file, int width, int height, const std::string &script_ext) {
  std::string o;
  append(o, "# gnuplot script: `gnuplot {}{}` draws {}.png; `gnuplot -e \"format='svg'; outfile='{}.svg'\" {}{}` the SVG\n",
         file, script_ext, file, file, file, script_ext);
  append(o, "if (!exists(\"outfile\")) outfile = {}\n", gnuplot_quoted(file + ".png"));
  append(o, "if (!exists(\"format\")) format = 'png'\n");
  append(o, "if (format eq 'svg') {{ set terminal svg size {},{} dynamic noenhanced font 'sans,11' }} "
            "else {{ set terminal pngcairo size {},{} noenhanced font 'sans,11' }}\n", width, height, width, height);
  append(o, "set output outfile\n");
  return o;
}

MakeFromStaged render_plots(const std::vector<Plot> &plots, const std::vector<std::pair<std::string, size_t>> &data) {
  return [plots, data](const std::vector<std::string> &staged) {
    std::vector<std::pair<std::string, std::string>> made;
    try {
      for (const Plot &plot : plots) {
        const std::string &path = plot.path;
        const std::string format = path.substr(path.find_last_of('.') + 1);
        made.emplace_back(path, temporary_beside(path, "." + format));
        std::vector<std::pair<std::string, std::string>> strings = {{"outfile", made.back().second},
                                                                    {"format", format}};
        for (const auto &d : data) strings.emplace_back(d.first, staged.at(d.second));
        run_gnuplot(staged.at(plot.script), strings, made.back().second, path);
      }
    } catch (...) {
      for (const auto &m : made) std::remove(m.second.c_str());
      throw;
    }
    return made;
  };
}

}  // namespace lat
