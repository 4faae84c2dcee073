// Opening a user's binary data file (.npy, IDX): the checks every such reader makes before it
// reads a byte, in one place so that their messages agree. Internal to datagen/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <string>

namespace ladder {

// The file name as messages show it: quoted, printable, at most 200 characters.
std::string quoted_name(const std::string& name);

// Opens path for binary reading into `in` and returns its size in bytes. Refuses, with an
// InputError naming `file` (the quoted name): a missing file, a directory ("is a directory,
// not <kind>", kind as in "a .npy file"), anything but a regular file (a device, a pipe), a
// size that cannot be taken and a file that cannot be opened.
std::uintmax_t open_data_file(const std::string& path, const std::string& file,
                              const std::string& kind, std::ifstream& in);

// Reads exactly n bytes; fewer means the file shrank after its size was taken.
void read_exactly(std::ifstream& in, char* to, std::size_t n, const std::string& file);

// A whole text file in memory, opened as open_data_file does; `check_size` sees the size first
// and throws when the reader refuses it.
std::string read_whole_file(const std::string& path, const std::string& file,
                            const std::string& kind,
                            const std::function<void(std::uintmax_t)>& check_size);

}  // namespace ladder
