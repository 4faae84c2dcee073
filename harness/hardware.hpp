// The GPUs ladder knows: one table of per-SM issue rates by compute capability, each row with
// its published source, and the one place a study's hardware limit is computed from it. SM
// count and clock come from the device; the table gives what no query reports (how many FP64
// or tensor-core operations an SM completes per clock). An architecture the table does not
// know gets no limit and a reason, never another GPU's numbers.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study.hpp"

namespace ladder {

// An SM's execution resources, as a step's instructions use them. SIMT pipes are counted in
// thread instructions per clock per SM (a warp instruction is 32); tensor cores in dense
// multiply-adds per clock per SM.
enum class Pipe {
  issue,        // warp schedulers: one warp instruction per clock each
  fp64,         // FP64 add, multiply, FMA, min/max
  fp32,         // FP32 add, multiply, FMA
  minmax,       // min/max on the ALU pipe (FP32, half2 and 32-bit integer)
  fp16x2,       // packed half2 add, multiply, FMA
  int32,        // 32-bit integer add, logic, select, compare
  dpx,          // DPX (3-input min/max, add-min): native only where dpx_native
  tensor_tf32,  // TF32 tensor-core multiply-adds, FP32 accumulation, dense
  tensor_fp16,  // FP16 tensor-core multiply-adds, FP32 accumulation, dense
};
const char* to_string(Pipe p);
const char* to_string(Feature f);  // "dpx", "wgmma_tma": as `ladder list --json` names them

struct ArchRow {
  int cc_major = 0, cc_minor = 0;
  std::string name_match;  // "" or a part of the device name this row alone covers (GeForce)
  std::string examples;
  // Rates per SM per clock (see Pipe); 0 where no published figure gives it.
  double issue = 128, fp64 = 0, fp32 = 0, minmax = 64, fp16x2 = 0, int32 = 64, dpx = 0,
         tensor_tf32 = 0, tensor_fp16 = 0;
  bool dpx_native = false;
  int smem_banks = 32;            // 4-byte banks
  int smem_bytes_per_clock = 128;
  int smem_kib_per_sm = 0;        // the most shared memory one SM holds
  std::string source;
  double rate(Pipe p) const;
  std::string cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

const std::vector<ArchRow>& hardware_table();
// The row for this device (the row naming a part of its name first), or nullptr.
const ArchRow* arch_row(const DeviceCaps& d);

// A group of a study's work units (one cell, one FMA, two half2 cells) as the instructions it
// takes on each pipe. An SM completes at most rate / count groups per clock on every pipe it
// uses and issue / (all SIMT instructions) through its schedulers; the least of these bounds.
struct InstructionMix {
  std::string unit;  // what is counted: "fp32 cells", "tf32x3 flops"
  std::vector<std::pair<Pipe, double>> per_group;
  double units_per_group = 1;
  std::string group;  // what a group is, as in "2 flops per FMA": "FMA", "cell", "half2 pair"
  std::string name;   // the limit's short name in tables and figures: "FP32", "TF32 tensor"
};

struct Peak {
  double per_second = 0;  // units per second; 0 when unknown
  std::string rule;       // the arithmetic as computed, or why there is none
  bool known() const { return per_second > 0; }
};
Peak compute_peak(const InstructionMix& mix, const DeviceCaps& d);
// The memory bound of `units` of work that must move `traffic`: units / (bytes / bandwidth)
// per second over the traffic's link (DRAM, or the host link), or why it is unknown (the device
// gave no bandwidth for that link). Zero with an empty rule where the traffic claims no bytes.
Peak memory_peak(double units, const Traffic& traffic, const DeviceCaps& d);
const char* to_string(Traffic::Link link);  // "DRAM", "host link"

// Bytes per second, one direction, of a PCIe link of this generation (1-6) and lane count:
// the lanes' transfer rate less the line code (8b/10b to 3.0, 128b/130b from 3.0, 6.0's FLIT
// 242 of 256 bytes); 0 for a generation or width ladder does not know.
double pcie_bytes_per_s(int generation, int width);

// The roofline ceilings of this device, per second at its maximum SM clock: warp instructions
// issued, FP32, FP64 and TF32 tensor FLOPs (an FMA is two), 32-bit integer and min/max
// instructions, DRAM bytes (the device's bus) and shared-memory bytes; each only where the
// table gives its rate, and null without a row (a figure then draws no ceiling).
nlohmann::json ceilings_json(const DeviceCaps& d);

// "" when the device runs the feature natively; otherwise why not. With dpx the step still
// runs (emulated); with wgmma_tma it cannot.
std::string missing_feature(Feature f, const DeviceCaps& d);
bool emulated_when_missing(Feature f);
bool dpx_native(const DeviceCaps& d);

// The line a binary without code for this device stops with (exit 3): the device's compute
// capability, the architectures built (CMAKE_CUDA_ARCHITECTURES) and the flag to rebuild with.
std::string no_code_message(int cc_major, int cc_minor, const std::string& device_name,
                            const std::string& built_archs);

}  // namespace ladder
