// The one memory check of every study and step: what a point needs against what the host or
// the device has. Studies estimate bytes; these decide and word the refusal.
#pragma once
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "study.hpp"

namespace ladder {

// A point may take at most this share of the machine's physical memory (data, reference,
// outputs), leaving room for the system and the rest of the run.
constexpr double kHostMemoryShare = 0.5;
// Device allocations may take this share of the memory free when the run started.
constexpr double kDeviceMemoryShare = 0.9;

inline std::string gib_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / double(1ull << 30));
  return buf;
}

// Physical memory, or less when the process runs under an address-space or data limit
// (ulimit -v, prlimit --as / --data).
inline double host_memory_bytes() {
  double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit lim{};
    if (getrlimit(resource, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
      bytes = std::min(bytes, static_cast<double>(lim.rlim_cur));
  }
  return bytes;
}

// "" when `bytes` fit in the host share, else why not.
inline std::string host_memory_reason(double bytes, const std::string& what) {
  const double limit = kHostMemoryShare * host_memory_bytes();
  if (bytes <= limit) return "";
  return what + " needs " + gib_text(bytes) + " of host memory, more than " +
         std::to_string(int(kHostMemoryShare * 100)) + "% of the " + gib_text(host_memory_bytes()) +
         " this process may use";
}

// Bytes written for people: "25.6 GB", "310 MB" (decimal units).
std::string size_text(double bytes);

struct Validation;

// A point's host memory in the parts its refusal names.
struct HostNeed {
  double inputs = 0;     // the data, with the copies reading it or a step's set-up makes
  double outputs = 0;    // the step's output and the copy fetched for validation
  double reference = 0;  // reference values and their indices, with the reference's tables
  double total() const { return inputs + outputs + reference; }
};

// What the runner holds at once for a point of footprint `f` validated as `v`: the study's
// inputs, `copies` of the output (2: a CPU step's own and the fetched copy, or a GPU step's
// fetched copy; 3 with the bytes --dump-outputs writes) and, per checked output, the
// reference value (double) and its index. `v` null: the data alone (what `ladder gen` holds).
HostNeed host_need(const Footprint& f, const Validation* v, int copies = 2);

// Throws InputError "WHAT: needs about X of host memory (inputs .., outputs .., reference ..)
// but at most Y may be used (50% of the Z this machine has)" when the need does not fit.
void check_host_need(const HostNeed& need, const std::string& what);

// The up-front memory check of one point of a run, before its data is built or read (a data
// file: from its size first, then, with `loaded`, from the data read); `what` names the point.
void check_point_memory(const Study& study, const DataSource& src, const Params& p,
                        const Problem* loaded, const Validation& v, int copies,
                        const std::string& what);
// The same for `ladder gen`, which builds the data and writes it, nothing more.
void check_data_memory(const Study& study, const DataSource& src, const Params& p);

// Bytes of a data file before it is read; 0 when it is not a regular file (its reader then
// says why), so a FIFO is never opened here.
double data_file_bytes(const std::string& path);
// At most this many numbers fit in a text file of `bytes`: each takes a character and a
// separator.
inline double text_values_bound(double bytes) { return bytes / 2 + 1; }

// "" when `bytes` fit in the device share, else why not.
inline std::string device_memory_reason(double bytes, const DeviceCaps& d) {
  if (bytes <= kDeviceMemoryShare * static_cast<double>(d.global_mem_free)) return "";
  return "needs " + gib_text(bytes) + " of device memory, " +
         gib_text(static_cast<double>(d.global_mem_free)) + " free";
}

}  // namespace ladder
