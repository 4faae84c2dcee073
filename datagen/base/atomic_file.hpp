// Files ladder writes appear whole or not at all: write a temporary file beside the
// target, flush it, then rename over the target (rename is atomic within one file system).
// The file's mode is 0666 less the umask (0644 under the usual 022), as any file the user
// makes: results and reports are meant to be read by others.
#pragma once
#include <string>

namespace ladder {

void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace ladder
