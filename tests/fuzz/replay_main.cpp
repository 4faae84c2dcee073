// Replays inputs through a fuzz target without libFuzzer: every file named on the command line,
// and every file under each named directory (recursively, in name order; names starting with
// '.' are skipped). Linked with each fuzz_<reader>.cpp into replay_<reader>, which ctest runs
// over the seed corpus and the regression inputs. It names each file before feeding it, so a
// crash or a sanitizer report is attributable; an exception escaping the target is reported
// with the file and fails the run.
#include <cxxabi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <typeinfo>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
namespace fs = std::filesystem;

std::string demangled(const char* name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

// Appends the inputs `arg` names; false (with a message) when it names nothing usable.
bool collect(const fs::path& arg, std::vector<fs::path>& out) {
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) {
    out.push_back(arg);
    return true;
  }
  if (!fs::is_directory(arg, ec)) {
    std::fprintf(stderr, "replay: '%s' is neither a file nor a directory\n", arg.c_str());
    return false;
  }
  std::vector<fs::path> found;
  for (auto it = fs::recursive_directory_iterator(arg, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) found.push_back(it->path());
  }
  if (ec) {
    std::fprintf(stderr, "replay: cannot list '%s': %s\n", arg.c_str(), ec.message().c_str());
    return false;
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i)
    if (!collect(argv[i], inputs)) return 2;
  for (const fs::path& p : inputs) {
    std::fprintf(stderr, "replay: %s\n", p.c_str());
    std::fflush(stderr);
    std::ifstream in(p, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
      return 2;
    }
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "replay: FAILED on %s: uncaught %s: %s\n", p.c_str(),
                   demangled(typeid(e).name()).c_str(), e.what());
      return 1;
    } catch (...) {
      std::fprintf(stderr, "replay: FAILED on %s: uncaught exception of unknown type\n",
                   p.c_str());
      return 1;
    }
  }
  std::printf("replay: %zu input(s), no failure\n", inputs.size());
  return 0;
}
