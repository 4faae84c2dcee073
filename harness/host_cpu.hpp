// What the host's CPU is, beyond its brand string. Virtual machines often report a generic
// "Intel(R) Xeon(R) Processor"; the family, model and stepping (and, on Arm, the implementer
// and part) still name the microarchitecture, which a reader needs to compare CPU baselines.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace ladder {

struct CpuIdentity {
  std::string brand = "unknown";  // /proc/cpuinfo's model name
  std::string id;                 // "GenuineIntel family 6 model 143 stepping 8", "" unknown
  std::string microarchitecture;  // "Sapphire Rapids", "" when the table does not know it
};

// From the text of /proc/cpuinfo (its first processor).
CpuIdentity parse_cpuinfo(const std::string& text);

// The NVIDIA kernel driver's release ("580.95.05") from /proc/driver/nvidia/version's text,
// "" when absent.
std::string parse_driver_release(const std::string& text);

// This machine's: {"cpu", "cpu_id", "cpu_microarchitecture"} for the results' host object.
nlohmann::json cpu_json();
// This machine's driver release, null when it cannot be read.
nlohmann::json driver_release_json();

}  // namespace ladder
