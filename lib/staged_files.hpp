// staged_files.hpp: files that appear whole or not at all. Each is written to a temporary file in its
// directory, flushed to disk, and renamed into place only when every file of the set is complete; on
// any failure the temporaries are removed and existing files keep their old contents.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lat {

/// (path, contents) pairs; throws IoError naming the path and the system's reason.
void write_files_whole(const std::vector<std::pair<std::string, std::string>> &files);

/// Throws IoError unless a file can be created in dir ("" is the working directory).
void check_writable_dir(const std::string &dir);

/// dir + "/" + name, or name alone when dir is empty.
std::string join_path(const std::string &dir, const std::string &name);

}  // namespace lat
