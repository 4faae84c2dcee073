#include "device_info.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "../datagen/base/errors.hpp"
#include "build_info.hpp"
#include "cuda_check.hpp"
#include "device_code.hpp"
#include "hardware.hpp"
#include "host_cpu.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

// The few NVML declarations used, from its stable C ABI; NVML is loaded with dlopen so that
// the binary needs neither nvml.h to build nor the driver to start.
using NvmlDevice = struct NvmlDeviceOpaque*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlTemperatureGpu = 0;

// As nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_text(const cudaUUID_t& id) {
  std::string hex;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) hex += '-';
    hex += fmt::format("{:02x}", static_cast<unsigned char>(id.bytes[i]));
  }
  return "GPU-" + hex;
}

// A directory holding an entry whose name passes `wanted`.
bool has_entry(const std::string& dir, bool (*wanted)(const std::string&)) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (wanted(it->path().filename().string())) return true;
  return false;
}

}  // namespace

bool nvidia_gpu_shown(const std::string& proc_gpus, const std::string& dev) {
  return has_entry(proc_gpus, [](const std::string&) { return true; }) ||
         has_entry(dev, [](const std::string& name) {
           return name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
                  name.find_first_not_of("0123456789", 6) == std::string::npos;
         });
}

CudaDevices count_devices(bool required) {
  CudaDevices d;
  const cudaError_t err = cudaGetDeviceCount(&d.count);
  if (err == cudaSuccess) return d;
  cudaGetLastError();  // clear the sticky error so later queries are not confused
  d.count = 0;
  if (err == cudaErrorNoDevice) return d;
  d.failure = std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ")";
  if (required || nvidia_gpu_shown())
    throw CudaError("the CUDA runtime cannot start: " + d.failure +
                    (required ? "" : ", and this machine has an NVIDIA GPU"));
  return d;
}

DeviceReport probe_device(int index, bool required) {
  DeviceReport d;
  const CudaDevices found = count_devices(required);
  const int count = found.count;
  // A device asked for by number must be there: skipping every GPU step instead would pass
  // for success.
  if (count == 0 && required)
    throw InputError("--device " + std::to_string(index) + " is out of range: no CUDA device is visible");
  if (count == 0) {
    d.absent_reason = "no CUDA device";
    d.runtime_said = found.failure;
    return d;
  }
  if (index < 0 || index >= count)
    throw InputError("--device " + std::to_string(index) + " is out of range: " +
                     std::to_string(count) + " CUDA device(s) present");
  LADDER_CUDA(cudaSetDevice(index));
  cudaDeviceProp prop{};
  LADDER_CUDA(cudaGetDeviceProperties(&prop, index));
  d.caps.present = true;
  d.caps.index = index;
  d.caps.sm_count = prop.multiProcessorCount;
  d.caps.cc_major = prop.major;
  d.caps.cc_minor = prop.minor;
  d.caps.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  d.caps.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  LADDER_CUDA(cudaDeviceGetAttribute(&d.caps.clock_khz, cudaDevAttrClockRate, index));
  int mem_khz = 0, bus_bits = 0;
  LADDER_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, index));
  LADDER_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  d.caps.memory_bytes_per_s = 2.0 * mem_khz * 1e3 * bus_bits / 8;  // double data rate
  d.caps.name = prop.name;
  std::size_t free_b = 0, total_b = 0;
  LADDER_CUDA(cudaMemGetInfo(&free_b, &total_b));
  d.caps.global_mem_free = free_b;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.total_mem = prop.totalGlobalMem;
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) d.pci_bus_id = bus;
  // A device on the host's own page tables is attached coherently (NVLink-C2C on Grace, not
  // PCIe): NVML's PCIe figures would not be its link, which is then left unknown.
  int coherent = 0;
  LADDER_CUDA(cudaDeviceGetAttribute(&coherent, cudaDevAttrPageableMemoryAccessUsesHostPageTables,
                                     index));
  if (!coherent) {
    const auto [generation, width] = pcie_link(d.pci_bus_id);
    d.caps.host_bytes_per_s = pcie_bytes_per_s(generation, width);
    if (d.caps.host_bytes_per_s > 0) d.host_link = fmt::format("PCIe {}.0 x{}", generation, width);
  }
  d.uuid = uuid_text(prop.uuid);
  LADDER_CUDA(cudaDriverGetVersion(&d.driver_version));
  LADDER_CUDA(cudaRuntimeGetVersion(&d.runtime_version));
  // A binary without code for this device would fail every run, one CUDA error at a time:
  // stop here instead, before anything runs or is written.
  const DeviceCode code = device_code();
  if (!code.runnable) {
    if (code.error.rfind("cudaErrorNoKernelImageForDevice", 0) == 0 ||
        code.error.rfind("cudaErrorInvalidDeviceFunction", 0) == 0)
      throw CudaError(no_code_message(d.cc_major, d.cc_minor, d.name, LADDER_CUDA_ARCH));
    throw CudaError("device " + std::to_string(index) + " cannot run this binary's code (" +
                    code.error + "): update the driver or rebuild with "
                    "-DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(d.cc_major * 10 + d.cc_minor));
  }
  d.caps.code_arch = code.ptx_version;
  d.code_binary = code.binary_version;
  return d;
}

std::string absence(const DeviceReport& d) {
  return d.runtime_said.empty() ? d.absent_reason : d.absent_reason + ": " + d.runtime_said;
}

namespace {

// NVML, loaded and initialised once; null members where the library or a symbol is missing.
struct Nvml {
  using HandleFn = int (*)(const char*, NvmlDevice*);
  using ClockFn = int (*)(NvmlDevice, int, unsigned int*);
  using TemperatureFn = int (*)(NvmlDevice, int, unsigned int*);
  using ReasonsFn = int (*)(NvmlDevice, unsigned long long*);
  using LinkFn = int (*)(NvmlDevice, unsigned int*);
  bool ready = false;
  HandleFn handle = nullptr;
  ClockFn clock = nullptr;
  TemperatureFn temperature = nullptr;
  ReasonsFn reasons = nullptr;
  // The most the device and the system's slot allow together (not the current link, which
  // idles at a lower generation).
  LinkFn max_generation = nullptr, max_width = nullptr;
};

const Nvml& nvml() {
  static const Nvml n = [] {
    Nvml n;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return n;
    using InitFn = int (*)();
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    n.handle = reinterpret_cast<Nvml::HandleFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    n.clock = reinterpret_cast<Nvml::ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    n.temperature = reinterpret_cast<Nvml::TemperatureFn>(dlsym(lib, "nvmlDeviceGetTemperature"));
    // Renamed in CUDA 12.2's NVML ("throttle" became "clocks event"); older drivers have the
    // old name only, with the same bits.
    n.reasons = reinterpret_cast<Nvml::ReasonsFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!n.reasons) n.reasons = reinterpret_cast<Nvml::ReasonsFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    n.max_generation = reinterpret_cast<Nvml::LinkFn>(dlsym(lib, "nvmlDeviceGetMaxPcieLinkGeneration"));
    n.max_width = reinterpret_cast<Nvml::LinkFn>(dlsym(lib, "nvmlDeviceGetMaxPcieLinkWidth"));
    n.ready = init && n.handle && init() == kNvmlSuccess;
    return n;
  }();
  return n;
}

// The NVML handle of the GPU at `pci_bus_id`, or null.
NvmlDevice nvml_device(const std::string& pci_bus_id) {
  NvmlDevice dev = nullptr;
  if (pci_bus_id.empty() || !nvml().ready || nvml().handle(pci_bus_id.c_str(), &dev) != kNvmlSuccess) return nullptr;
  return dev;
}

}  // namespace

int current_sm_clock_mhz(const DeviceReport& d) {
  if (!d.caps.present) return -1;
  const NvmlDevice dev = nvml_device(d.pci_bus_id);
  unsigned int mhz = 0;
  if (!dev || !nvml().clock || nvml().clock(dev, kNvmlClockSm, &mhz) != kNvmlSuccess) return -1;
  return static_cast<int>(mhz);
}

std::pair<int, int> pcie_link(const std::string& pci_bus_id) {
  const NvmlDevice dev = nvml_device(pci_bus_id);
  unsigned int generation = 0, width = 0;
  if (!dev || !nvml().max_generation || !nvml().max_width ||
      nvml().max_generation(dev, &generation) != kNvmlSuccess ||
      nvml().max_width(dev, &width) != kNvmlSuccess)
    return {0, 0};
  return {static_cast<int>(generation), static_cast<int>(width)};
}

std::string pci_bus_id_of(int index) {
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) return bus;
  cudaGetLastError();  // no device there: clear the error so later queries are not confused
  return "";
}

int gpu_temperature_c(const std::string& pci_bus_id) {
  const NvmlDevice dev = nvml_device(pci_bus_id);
  unsigned int celsius = 0;
  if (!dev || !nvml().temperature || nvml().temperature(dev, kNvmlTemperatureGpu, &celsius) != kNvmlSuccess)
    return -1;
  return static_cast<int>(celsius);
}

long long clocks_event_reasons(const DeviceReport& d) {
  if (!d.caps.present) return -1;
  const NvmlDevice dev = nvml_device(d.pci_bus_id);
  unsigned long long reasons = 0;
  if (!dev || !nvml().reasons || nvml().reasons(dev, &reasons) != kNvmlSuccess) return -1;
  return static_cast<long long>(reasons & 0x7fffffffffffffffULL);
}

namespace {

// "compute_80 -> sm_90": the virtual architecture the code was generated for, and the SASS the
// device runs (JIT-compiled by the driver when they differ in major version).
std::string code_text(const DeviceReport& d) {
  if (d.caps.code_arch == 0) return "unknown";
  return "compute_" + std::to_string(d.caps.code_arch) + " -> sm_" + std::to_string(d.code_binary);
}

// Which row of the hardware table the limits come from, or null.
nlohmann::json row_text(const DeviceCaps& caps) {
  const ArchRow* row = arch_row(caps);
  if (!row) return nullptr;
  return row->cc() + (row->name_match.empty() ? "" : " " + row->name_match) + " (" +
         row->examples + ")";
}

// "PCIe 5.0 x16", or null where the host link is not known.
nlohmann::json host_link_json(const DeviceReport& d) {
  if (d.host_link.empty() || d.caps.host_bytes_per_s <= 0) return nullptr;
  return d.host_link;
}

}  // namespace

nlohmann::json device_json(const DeviceReport& d, int clock_start_mhz, int clock_end_mhz) {
  if (!d.caps.present) return {{"present", false}, {"reason", absence(d)}};
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  return {{"present", true},
          {"index", d.caps.index},
          {"name", d.name},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"pci_bus_id", d.pci_bus_id},
          {"uuid", d.uuid},
          {"sm_count", d.caps.sm_count},
          {"memory_bytes", d.total_mem},
          {"shared_memory_per_block_optin", d.caps.smem_per_block_optin},
          {"max_sm_clock_mhz", d.caps.clock_khz / 1000},
          {"memory_bandwidth_gbps", d.caps.memory_bytes_per_s / 1e9},
          {"host_link", host_link_json(d)},
          {"host_link_gbps", host_link_json(d).is_null() ? nlohmann::json(nullptr)
                                                         : nlohmann::json(d.caps.host_bytes_per_s / 1e9)},
          {"l2_bytes", d.caps.l2_bytes},
          {"code", code_text(d)},
          {"hardware_row", row_text(d.caps)},
          {"ceilings", ceilings_json(d.caps)},
          {"sm_clock_mhz_start", clock_start_mhz},
          {"sm_clock_mhz_end", clock_end_mhz},
          {"driver_version", version(d.driver_version)},  // the CUDA version the driver supports
          {"driver_release", driver_release_json()},      // the driver's own, e.g. 580.95.05
          {"runtime_version", version(d.runtime_version)}};
}

nlohmann::json host_json() {
  char name[256] = {0};
  const std::string hostname = gethostname(name, sizeof name - 1) == 0 ? name : "";
  // The cores this process may use (a shard of `--gpus` gets its share) and the GPUs it was
  // shown (CUDA_VISIBLE_DEVICES: what Slurm's --gres gives a task).
  cpu_set_t set;
  const int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const char* threads = std::getenv("OMP_NUM_THREADS");
  nlohmann::json host = cpu_json();  // cpu, cpu_id, cpu_microarchitecture
  host.update({{"hostname", hostname}, {"cores", std::thread::hardware_concurrency()},
               {"cpus_allowed", cpus}, {"omp_num_threads", threads ? nlohmann::json(threads) : nlohmann::json(nullptr)},
               {"cuda_visible_devices", visible ? nlohmann::json(visible) : nlohmann::json(nullptr)}});
  return host;
}

std::vector<std::string> device_names(bool required) {
  std::vector<std::string> names;
  const int count = count_devices(required).count;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    LADDER_CUDA(cudaGetDeviceProperties(&prop, i));
    names.push_back(prop.name);
  }
  return names;
}

nlohmann::json scheduler_json() {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? nlohmann::json(std::string(v)) : nlohmann::json(nullptr);
  };
  if (!std::getenv("SLURM_JOB_ID")) return nullptr;
  return {{"kind", "slurm"},
          {"job_id", env("SLURM_JOB_ID")},
          {"array_job_id", env("SLURM_ARRAY_JOB_ID")},
          {"array_task_id", env("SLURM_ARRAY_TASK_ID")},
          {"node", env("SLURMD_NODENAME")},
          {"gpus", std::getenv("SLURM_STEP_GPUS") ? env("SLURM_STEP_GPUS") : env("SLURM_JOB_GPUS")}};
}

}  // namespace ladder
