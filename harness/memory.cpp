#include "memory.hpp"

#include <cmath>
#include <filesystem>

#include "config.hpp"
#include "../datagen/base/errors.hpp"

namespace ladder {
namespace {

// Bytes the runner keeps per checked output: the reference value (double) and its index.
constexpr double kBytesPerChecked = 16;

double checked_outputs(const Validation& v, double outputs) {
  if (v.mode == Validation::Mode::off) return 0;
  if (v.mode == Validation::Mode::full) return outputs;
  return std::min(double(v.sample), outputs);
}

// What host_memory_bytes() stands for: the machine, or a limit set on the process.
bool process_limited() {
  const double phys =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  return host_memory_bytes() < phys;
}

}  // namespace

std::string size_text(double bytes) {
  static const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (u < 6 && bytes >= 1000) bytes /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, bytes >= 100 || u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

HostNeed host_need(const Footprint& f, const Validation* v, int copies) {
  HostNeed need;
  need.inputs = f.inputs;
  if (!v) return need;
  need.outputs = copies * f.outputs * f.output_word;
  const double checked = checked_outputs(*v, f.outputs);
  need.reference = checked > 0 ? kBytesPerChecked * checked + f.working : 0;
  return need;
}

void check_host_need(const HostNeed& need, const std::string& what) {
  const double have = host_memory_bytes();
  const double limit = kHostMemoryShare * have;
  if (need.total() <= limit) return;
  std::string parts = "inputs " + size_text(need.inputs);
  if (need.outputs > 0 || need.reference > 0)
    parts += ", outputs " + size_text(need.outputs) + ", reference " + size_text(need.reference);
  throw InputError(what + ": needs about " + size_text(need.total()) + " of host memory (" +
                   parts + ") but at most " + size_text(limit) + " may be used (" +
                   std::to_string(int(kHostMemoryShare * 100)) + "% of the " + size_text(have) +
                   (process_limited() ? " this process may use under its memory limit)"
                                      : " this machine has)"));
}

void check_point_memory(const Study& study, const DataSource& src, const Params& p,
                        const Problem* loaded, const Validation& v, int copies,
                        const std::string& what) {
  check_host_need(host_need(study.footprint(src, p, loaded), &v, copies), what);
}

void check_data_memory(const Study& study, const DataSource& src, const Params& p) {
  check_host_need(host_need(study.footprint(src, p, nullptr), nullptr), "the data set");
}

double data_file_bytes(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return 0;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : double(size);
}

}  // namespace ladder
