// What the run happened on: the CUDA device (if any) and the host CPU.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "study.hpp"

namespace ladder {

struct DeviceReport {
  DeviceCaps caps;
  std::string absent_reason;  // why there is no usable device, when !caps.present
  // When the CUDA runtime failed to start otherwise than with "no device" on a machine that
  // shows no NVIDIA GPU (no driver at all, most often): the runtime's own words, said once.
  std::string runtime_said;
  std::string name;
  std::string pci_bus_id;
  std::string uuid;  // GPU-..., as nvidia-smi prints it
  int cc_major = 0, cc_minor = 0;
  std::size_t total_mem = 0;
  int driver_version = 0, runtime_version = 0;
  int code_binary = 0;  // the SASS version the device runs (caps.code_arch: its PTX)
  std::string host_link;  // "PCIe 5.0 x16" (caps.host_bytes_per_s); "" when unknown
};

// The CUDA devices the runtime counts, or why it counts none.
struct CudaDevices {
  int count = 0;
  // The runtime's words ("cudaErrorInsufficientDriver (CUDA driver version is insufficient for
  // CUDA runtime version)") when it failed otherwise than "no device"; empty when it started.
  std::string failure;
};

// Counts the CUDA devices. The runtime failing for any reason but "no device" (a driver older
// than the runtime, a failed initialisation) is a CudaError in its own words when a device was
// asked for (`required`: --device, --gpus) or the machine shows an NVIDIA GPU
// (nvidia_gpu_shown()): a broken install must not look like a machine without a GPU.
// Otherwise the count is 0 and `failure` says why.
CudaDevices count_devices(bool required);

// Whether the kernel shows an NVIDIA GPU: an entry in `proc_gpus` (the driver's
// /proc/driver/nvidia/gpus) or a device file nvidia0, nvidia1, ... in `dev`.
bool nvidia_gpu_shown(const std::string& proc_gpus = "/proc/driver/nvidia/gpus", const std::string& dev = "/dev");

// Selects device `index` when one exists. A machine without a device or driver is not an
// error (CPU variants still run; see count_devices for `required`); an index beyond the
// devices present is an InputError.
DeviceReport probe_device(int index, bool required = false);

// Why there is no usable device, with the runtime's words when it failed to start ("no CUDA
// device: cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime
// version)"); what the results' device.reason and the summary say.
std::string absence(const DeviceReport& d);

// Current SM clock in MHz read through NVML (loaded at run time, so machines without the
// driver still start); -1 when unknown.
int current_sm_clock_mhz(const DeviceReport& d);

// The PCIe generation and lane count the GPU at `pci_bus_id` and its slot allow together,
// through NVML; {0, 0} when unknown.
std::pair<int, int> pcie_link(const std::string& pci_bus_id);

// The PCI bus id of CUDA device `index` without creating a context ("" when there is none).
std::string pci_bus_id_of(int index);
// The GPU's temperature in degrees Celsius through NVML; -1 when unknown.
int gpu_temperature_c(const std::string& pci_bus_id);
// NVML's current clocks event reasons (nvmlClocksEventReason* bits: why the SM clock is below
// its maximum); -1 when unknown.
long long clocks_event_reasons(const DeviceReport& d);

nlohmann::json device_json(const DeviceReport& d, int clock_start_mhz, int clock_end_mhz);
nlohmann::json host_json();  // CPU model, cores, the cores and GPUs this process may use, host name
// The name of every CUDA device present, by index (none without a driver or device, as
// count_devices(required) says); creates no context, so a parent process leaves every GPU to
// its children.
std::vector<std::string> device_names(bool required = false);
// The batch scheduler's job, array and task ids the process runs under (Slurm), or null.
nlohmann::json scheduler_json();

}  // namespace ladder
