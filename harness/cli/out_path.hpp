// Where `ladder run` writes: the results file and the --dump-outputs directory. Paths are
// checked before anything runs (so a run is never lost at the end) but nothing is created
// until every other input has been checked (so bad input leaves nothing behind).
#pragma once
#include <string>
#include <vector>

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

// --dump-outputs DIR: an existing path must be a writable directory, a new one must be
// creatable (the nearest existing folder above it a writable directory), checked now; created
// later, and proved writable then.
void check_dump_dir(const std::string& dir);
void prepare_dump_dir(const std::string& dir);

// Refuses (InputError) a folder to be created or written in whose nearest existing part is not
// a directory ("a/b" under a file "a") or cannot be written: found before anything is
// created, not once a first directory exists. `what` begins the message ("--out 'r/x.json'").
void check_creatable(const std::string& folder, const std::string& what);

// check_creatable for the folder of an --out file.
void check_out_creatable(const std::string& file);

// Refuses writing `output` when it is the same file as one of `inputs` (the same file system
// object, whatever links lead there): an output over the config or a data file would destroy
// the input. `what` names the output ("--out").
void refuse_overwriting(const std::string& output, const std::vector<std::string>& inputs,
                        const std::string& what);

}  // namespace ladder::cli
