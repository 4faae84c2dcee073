// Where `ladder run` writes: the results file and the --dump-outputs directory. Paths are
// checked before anything runs (so a run is never lost at the end) but nothing is created
// until every other input has been checked (so bad input leaves nothing behind).
#pragma once
#include <string>

namespace ladder::cli {

// A config name as a file name part: letters, digits, '.', '-', '_' (others become '_'), no
// leading dot, at most 100 characters.
std::string safe_name(const std::string& name);

// The file to write for --out PATH: PATH itself, or the regular file a symbolic link at PATH
// leads to (a link is written through, never replaced). Throws InputError for an empty name, a
// name ending in '/', a name too long, a directory, or a target that is not a regular file.
std::string results_target(const std::string& path);

// Creates the parent directories of `file` and proves they are writable by creating and
// removing a temporary file there; throws InputError saying why not.
void prepare_results_file(const std::string& file);

// --dump-outputs DIR: an existing path must be a directory (checked now); created later.
void check_dump_dir(const std::string& dir);
void prepare_dump_dir(const std::string& dir);

}  // namespace ladder::cli
