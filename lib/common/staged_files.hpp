// staged_files.hpp: files that appear whole or not at all. Each is written to a temporary file in its
// directory, flushed to disk, and renamed into place only when every file of the set is complete (pictures
// drawn from them are a second set, made after the first is in place); on
// any failure the temporaries are removed and existing files keep their old contents. Only regular files and
// symbolic links (the link, never what it names) are replaced; never an input of the process, and no two
// files of a set may have one name.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mpilat_constants.h"

namespace lat {

/// (path, contents) pairs; throws IoError naming the path and the system's reason.
void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files);

/// Files made from the staged ones before anything is renamed (a plot drawn from a data file): given the
/// temporary paths of `files`, returns (final path, temporary path) pairs to rename with the set.
using MakeFromStaged =
    std::function<std::vector<std::pair<std::string, std::string>>(const std::vector<std::string> &staged)>;

/// As above, with files made by make (the pictures): the files are renamed into place first, then make draws
/// from them, and what it made is renamed into place as a set of its own. When make throws, the files stay
/// and what it made goes: UnsupportedError or IoError saying the data are written and the pictures not.
void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files, const MakeFromStaged &make);

/// As above, where the files from index scratch_from on are staged only for make (a plot's script and data
/// that are not asked for) and removed afterwards instead of renamed.
void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files, const MakeFromStaged &make,
                       size_t scratch_from);

/// A new empty file beside path (same directory, hidden name) for a program to write into; its name.
std::string temporary_beside(const std::string &path, const std::string &suffix);

/// Throws IoError unless a file can be created in dir ("" is the working directory), making dir and its
/// missing parents first; a file in its place is refused.
void check_writable_dir(const std::string &dir);

/// The whole of a file the library made itself (gnuplot's messages); IoError naming it when it cannot be read.
std::string read_text_file(const std::string &path);

/// The largest input a reader takes, and the longest line of a line-oriented one (docs/hostile-input.md).
constexpr int64_t kMaxInputBytes = LAT_MAX_INPUT_BYTES;
constexpr int64_t kMaxInputLineBytes = LAT_MAX_INPUT_LINE;

/// Throws IoError (naming path, what it is and its size) unless path is a regular file of at most
/// kMaxInputBytes; never waits on a FIFO or device. Records it as an input of this process: no output of
/// write_files_whole may replace it.
void check_input_file(const std::string &path);

/// A user's input, whole, after check_input_file: with max_line > 0 a line longer than max_line bytes is
/// refused as soon as it is read, a DataError naming its number and the limit (a malformed file, as the
/// readers' other refusals; IoError is for what cannot be read).
std::string read_input_file(const std::string &path, int64_t max_line);

/// Throws ArgError unless path may be written by write_files_whole: absent, a regular file or a symbolic link
/// (replaced, not written through), and not naming an input of this process. A directory, device, FIFO or
/// socket is refused, never written to or replaced.
void check_output_file(const std::string &path);

/// check_output_file on each of paths, before anything is measured (lat_check_outputs,
/// lat_check_output_apart): the first that may not be written is refused, naming it, and so are two of them
/// that are one file under two spellings (the rule of every set write_files_whole writes).
void check_output_files(const std::vector<std::string> &paths);

/// A writer's promise kept: throws std::logic_error (LAT_ERR_INTERNAL) when a file of `files` is not among
/// `declared`, the names its capability's *_output_names() gives to lat_check_outputs(), so a file added to a
/// writer and not to its list fails every test that writes it.
void require_declared(const std::vector<std::string> &declared, const std::vector<std::pair<std::string, std::string>> &files);

/// Throws ArgError unless name is a plain file name (not empty, not "." or "..", no '/', no control
/// character); what names the argument.
void require_file_name(const char *what, const std::string &name);

/// Throws ArgError when path holds a control character (a newline, a tab, ...), naming what and the path.
void require_plain_path(const char *what, const std::string &path);

/// True when text holds a byte below 0x20 or 0x7f.
bool has_control_characters(const std::string &text);

/// text with its control characters written as \xNN (for a message).
std::string printable(const std::string &text);

/// dir + "/" + name, or name alone when dir is empty.
std::string join_path(const std::string &dir, const std::string &name);

}  // namespace lat
