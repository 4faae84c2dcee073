// Files ladder writes appear whole or not at all: write a temporary file beside the
// target, flush it, then rename over the target (rename is atomic within one file system).
#pragma once
#include <string>

namespace ladder {

void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace ladder
