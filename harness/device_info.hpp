// What the run happened on: the CUDA device (if any) and the host CPU.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "study.hpp"

namespace ladder {

struct DeviceReport {
  DeviceCaps caps;
  std::string absent_reason;  // why there is no usable device, when !caps.present
  std::string name;
  std::string pci_bus_id;
  std::string uuid;  // GPU-..., as nvidia-smi prints it
  int cc_major = 0, cc_minor = 0;
  std::size_t total_mem = 0;
  int driver_version = 0, runtime_version = 0;
  int code_binary = 0;  // the SASS version the device runs (caps.code_arch: its PTX)
};

// Selects device `index` when one exists. A missing device or driver is not an error (CPU
// variants still run); an index beyond the devices present is an InputError.
DeviceReport probe_device(int index);

// Current SM clock in MHz read through NVML (loaded at run time, so machines without the
// driver still start); -1 when unknown.
int current_sm_clock_mhz(const DeviceReport& d);

nlohmann::json device_json(const DeviceReport& d, int clock_start_mhz, int clock_end_mhz);
nlohmann::json host_json();  // CPU model, cores, the cores and GPUs this process may use, host name
// The name of every CUDA device present, by index (none without a driver or device); creates
// no context, so a parent process leaves every GPU to its children.
std::vector<std::string> device_names();
// The batch scheduler's job, array and task ids the process runs under (Slurm), or null.
nlohmann::json scheduler_json();

}  // namespace ladder
