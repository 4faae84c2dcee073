// `ladder merge --processes OUT FILE...`: one-process results files of one config (of `run`, of
// the parts `run --processes` or `ab` keep when stopped, of earlier ladders) joined into the
// K-process file `run --processes K` writes, by the same code (harness/processes.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../processes.hpp"
#include "merge.hpp"
#include "out_path.hpp"
#include "process_child.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;

// "process-2" before "process-10": names compared with their runs of digits as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
      const std::string xs = x.substr(std::min(x.find_first_not_of('0'), x.size())),
                        ys = y.substr(std::min(y.find_first_not_of('0'), y.size()));
      if (xs.size() != ys.size()) return xs.size() < ys.size();
      if (xs != ys) return xs < ys;
      i = ie, j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// Each file given, and for a folder its .json files in natural order (a stopped run's parts).
std::vector<std::string> expand(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& given : inputs) {
    std::error_code ec;
    if (!fs::is_directory(given, ec)) {
      files.push_back(given);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(given, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && it->is_regular_file(ec)) found.push_back(it->path().string());
    if (ec) throw InputError("cannot list '" + printable(given, 120) + "': " + ec.message());
    if (found.empty()) throw InputError("'" + printable(given, 120) + "' holds no results file");
    std::sort(found.begin(), found.end(), natural_less);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace

int merge_process_files(const std::vector<std::string>& positional) {
  if (positional.size() < 2) throw InputError("merge --processes needs OUT and at least one FILE");
  const std::vector<std::string> files = expand({positional.begin() + 1, positional.end()});
  if (files.size() > kMaxProcesses)
    throw InputError(fmt::format("{} files: at most {} processes merge into one file", files.size(), kMaxProcesses));
  const std::string out = results_target(positional[0]);
  check_out_creatable(out);
  refuse_overwriting(out, files, "merge's OUT");
  std::vector<ProcessPart> parts;
  for (const std::string& f : files) parts.push_back(read_part(f, nlohmann::json::object()));
  const nlohmann::json merged = merge_processes(parts, ProcessesInfo{});
  prepare_results_file(out);
  write_file_atomically(out, merged.dump(2) + "\n");
  fmt::print("merged {} ({} processes, {} runs)\n", printable_all(positional[0]), parts.size(), merged["runs"].size());
  if (merged["complete"] == true) return 0;
  fmt::print(stderr, "ladder: the merge is incomplete: a process's file is incomplete or lacks runs the others "
                     "hold\n");
  return 1;
}

}  // namespace ladder::cli
