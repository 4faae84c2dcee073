#include "process_facts.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "../datagen/numbers.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

// NVML's clocks event reason bits that mean the GPU slowed itself (nvml.h), by name.
struct SlowdownBit {
  long long bit;
  const char* name;
};
constexpr SlowdownBit kSlowdowns[] = {
    {0x8, "HW slowdown"}, {0x20, "SW thermal slowdown"}, {0x40, "HW thermal slowdown"}, {0x80, "power brake"}};

// A run's clock is said to have moved when it differs by more than this.
constexpr double kClockTolerance = 0.02;

std::string numbers_text(const std::vector<double>& v) {
  std::string out;
  for (double x : v) out += (out.empty() ? "" : " ") + fmt::format("{:.2f}", x);
  return out;
}

}  // namespace

std::vector<double> parse_loadavg(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> out(3);
  for (double& x : out)
    if (!(in >> x) || !std::isfinite(x) || x < 0) return {};
  return out;
}

std::vector<double> load_average() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  return std::getline(in, line) ? parse_loadavg(line) : std::vector<double>{};
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

ProcessFacts process_start(int device) {
  ProcessFacts f;
  f.pid = static_cast<long>(getpid());
  f.cpu_start = sched_getcpu();
  f.cpus_allowed = allowed_cpus();
  f.load_avg = load_average();
  if (device >= 0) f.gpu_temp_c_start = gpu_temperature_c(pci_bus_id_of(device));
  return f;
}

void note_slowdowns(ProcessFacts& f, const DeviceReport& device) {
  const long long now = clocks_event_reasons(device);
  if (now >= 0) f.slowdowns = std::max(f.slowdowns, 0LL) | now;
}

void process_end(ProcessFacts& f) { f.cpu_end = sched_getcpu(); }

json process_json(const ProcessFacts& f) {
  return {{"pid", f.pid},
          {"cpu_start", f.cpu_start},
          {"cpu_end", f.cpu_end},
          {"cpus_allowed", f.cpus_allowed},
          {"load_avg", f.load_avg.empty() ? json(nullptr) : json(f.load_avg)},
          {"gpu_temp_c_start", f.gpu_temp_c_start},
          {"clocks_event_reasons", f.slowdowns < 0 ? json(nullptr) : json(f.slowdowns)}};
}

std::string slowdown_names(long long reasons) {
  std::string out;
  if (reasons <= 0) return out;
  for (const SlowdownBit& s : kSlowdowns)
    if (reasons & s.bit) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

std::vector<std::string> process_warnings(const ProcessFacts& f, int clock_start_mhz, int clock_end_mhz) {
  std::vector<std::string> out;
  if (clock_start_mhz > 0 && clock_end_mhz > 0) {
    const double change = double(clock_end_mhz - clock_start_mhz) / clock_start_mhz;
    if (std::fabs(change) > kClockTolerance)
      out.push_back(fmt::format("the GPU's SM clock was {} MHz at the start and {} MHz at the end ({:+.1f}%): "
                                "times taken at different clocks do not compare",
                                clock_start_mhz, clock_end_mhz, 100 * change));
  }
  if (const std::string names = slowdown_names(f.slowdowns); !names.empty())
    out.push_back("NVML reported the GPU slowing itself down during the runs (" + names +
                  "): its times are not the GPU's own");
  const double cores = double(f.cpus_allowed.size());
  if (!f.load_avg.empty() && cores > 0 && f.load_avg[0] > cores / 2)
    out.push_back(fmt::format("the 1-minute load average was {:.2f} at the start, above half of the {} cores "
                              "this process may use: other work may slow its CPU steps and launches",
                              f.load_avg[0], f.cpus_allowed.size()));
  return out;
}

std::vector<int> parse_cpu_list(const std::string& text, const std::string& option) {
  constexpr std::int64_t kMaxCpu = 1023;  // CPU_SETSIZE - 1
  const std::string shown = option + " '" + printable(text, 40) + "'";
  std::vector<int> out;
  std::set<int> seen;
  std::string rest = text + ",";
  for (std::size_t at; (at = rest.find(',')) != std::string::npos; rest.erase(0, at + 1)) {
    const std::string part = rest.substr(0, at);
    const std::size_t dash = part.find('-');
    std::int64_t lo = -1, hi = -1;
    try {
      lo = parse_int64(part.substr(0, dash), option);
      hi = dash == std::string::npos ? lo : parse_int64(part.substr(dash + 1), option);
    } catch (const InputError&) {
      throw InputError(shown + " is not a list of CPU numbers and ranges like 0-3,8");
    }
    if (lo < 0 || hi < lo || hi > kMaxCpu)
      throw InputError(fmt::format("{}: '{}' is not a CPU or a range A-B with 0 <= A <= B <= {}", shown,
                                   printable(part, 40), kMaxCpu));
    for (std::int64_t c = lo; c <= hi; ++c) {
      if (!seen.insert(int(c)).second) throw InputError(fmt::format("{} names CPU {} twice", shown, c));
      out.push_back(int(c));
    }
  }
  return out;
}

}  // namespace ladder
