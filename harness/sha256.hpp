// SHA-256 (FIPS 180-4), for naming the exact binaries `ladder ab` compares: a results file
// records the digest of the program that wrote it, which a commit alone does not pin (a dirty
// tree, another compiler, local patches).
#pragma once
#include <string>

namespace ladder {

// The digest of `bytes` as 64 lower-case hex digits.
std::string sha256_hex(const std::string& bytes);
// The digest of the file at `path`, read in blocks; throws InputError when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace ladder
