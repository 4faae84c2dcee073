#include "hardware.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace ladder {
namespace {

// Per SM per clock. SIMT rates are thread instructions (the CUDA C++ Programming Guide's
// "arithmetic instruction throughput" table counts the same way; a half2 instruction is one
// here, two results there). Tensor-core rates are dense FMA: the vendor's dense TFLOPS divided
// by 2 x SMs x the clock it quotes them at. Every SM since Volta has four schedulers that each
// issue one warp instruction per clock (issue 128), an ALU pipe of 16 lanes per scheduler that
// runs min/max and integer work (64), and 32 shared-memory banks of 4 bytes (128 B/clock).
// NVIDIA publishes no DPX rate: it is taken as the ALU's 64 where DPX is native.
const std::vector<ArchRow>& table_rows() {
  static const std::vector<ArchRow> rows{
    {.cc_major = 7, .cc_minor = 0, .examples = "Tesla V100, Titan V", .fp64 = 32, .fp32 = 64,
     .fp16x2 = 64, .tensor_fp16 = 512, .smem_kib_per_sm = 96,
     .source = "Tesla V100 architecture whitepaper (2017): 80 SMs at 1.53 GHz give 7.8 FP64, "
               "15.7 FP32, 31.4 FP16 and 125 tensor TFLOPS; Programming Guide throughput table "
               "(7.x)"},
    {.cc_major = 7, .cc_minor = 2, .examples = "Jetson AGX Xavier", .fp32 = 64, .fp16x2 = 64,
     .tensor_fp16 = 512, .smem_kib_per_sm = 96,
     .source = "Programming Guide throughput table (7.x: Volta SMs); Xavier's FP64 rate is not "
               "published per SM"},
    {.cc_major = 7, .cc_minor = 5, .name_match = "GeForce", .examples = "GeForce RTX 20xx",
     .fp64 = 2, .fp32 = 64, .fp16x2 = 64, .tensor_fp16 = 256, .smem_kib_per_sm = 64,
     .source = "Turing architecture whitepaper (2018): RTX 2080 Ti, 68 SMs at 1.545 GHz, 13.4 "
               "FP32 and 53.8 FP16 tensor TFLOPS with FP32 accumulation (GeForce: half rate)"},
    {.cc_major = 7, .cc_minor = 5, .examples = "Tesla T4, Quadro RTX", .fp64 = 2, .fp32 = 64,
     .fp16x2 = 64, .tensor_fp16 = 512, .smem_kib_per_sm = 64,
     .source = "Turing architecture whitepaper (2018) and T4 datasheet: 40 SMs at 1.59 GHz, "
               "8.1 FP32 and 65 FP16 tensor TFLOPS; FP64 2 per clock (Programming Guide, 7.5)"},
    {.cc_major = 8, .cc_minor = 0, .examples = "A100, A30", .fp64 = 32, .fp32 = 64, .fp16x2 = 128,
     .tensor_tf32 = 512, .tensor_fp16 = 1024, .smem_kib_per_sm = 164,
     .source = "A100 Tensor Core GPU architecture whitepaper (2020): 108 SMs at 1.41 GHz give "
               "9.7 FP64, 19.5 FP32, 78 FP16, 156 TF32 and 312 FP16 tensor TFLOPS (dense)"},
    {.cc_major = 8, .cc_minor = 6, .name_match = "GeForce", .examples = "GeForce RTX 30xx",
     .fp64 = 2, .fp32 = 128, .fp16x2 = 64, .tensor_tf32 = 128, .tensor_fp16 = 256,
     .smem_kib_per_sm = 100,
     .source = "GA102 architecture whitepaper (2020): RTX 3090, 82 SMs at 1.695 GHz, 35.6 "
               "FP32, 35.6 TF32 and 71 FP16 tensor TFLOPS with FP32 accumulation (GeForce: "
               "half rate)"},
    {.cc_major = 8, .cc_minor = 6, .examples = "A40, A10, RTX A6000", .fp64 = 2, .fp32 = 128,
     .fp16x2 = 64, .tensor_tf32 = 256, .tensor_fp16 = 512, .smem_kib_per_sm = 100,
     .source = "GA102 architecture whitepaper (2020): A40, 84 SMs at 1.74 GHz, 37.4 FP32, 74.8 "
               "TF32 and 149.7 FP16 tensor TFLOPS (dense); FP64 1/64 of FP32"},
    {.cc_major = 8, .cc_minor = 7, .examples = "Jetson AGX Orin", .fp32 = 128,
     .smem_kib_per_sm = 164,
     .source = "Jetson AGX Orin technical brief: Ampere SMs of 128 FP32 lanes; its FP64, half2 "
               "and tensor rates are not published per SM"},
    {.cc_major = 8, .cc_minor = 9, .name_match = "GeForce", .examples = "GeForce RTX 40xx",
     .fp64 = 2, .fp32 = 128, .fp16x2 = 64, .tensor_tf32 = 128, .tensor_fp16 = 256,
     .smem_kib_per_sm = 100,
     .source = "Ada Lovelace architecture whitepaper (2022): RTX 4090, 128 SMs at 2.52 GHz, "
               "82.6 FP32, 1.3 FP64, 82.6 TF32 and 165.2 FP16 tensor TFLOPS with FP32 "
               "accumulation"},
    {.cc_major = 8, .cc_minor = 9, .examples = "L40S, L40, L4, RTX 6000 Ada", .fp64 = 2,
     .fp32 = 128, .fp16x2 = 64, .tensor_tf32 = 256, .tensor_fp16 = 512, .smem_kib_per_sm = 100,
     .source = "Ada Lovelace architecture whitepaper (2022) and L40S datasheet: 142 SMs at "
               "2.52 GHz, 91.6 FP32, 183 TF32 and 362 FP16 tensor TFLOPS (dense)"},
    {.cc_major = 9, .cc_minor = 0, .examples = "H100, H200, GH200", .fp64 = 64, .fp32 = 128,
     .fp16x2 = 128, .dpx = 64, .tensor_tf32 = 1024, .tensor_fp16 = 2048, .dpx_native = true,
     .smem_kib_per_sm = 228,
     .source = "H100 Tensor Core GPU architecture whitepaper (2022): per SM per clock 64 FP64, "
               "128 FP32, 256 FP16 results; 989.4 FP16 tensor TFLOPS dense = 132 SMs x 1.83 "
               "GHz x 2 x 2048; DPX instructions"},
    {.cc_major = 10, .cc_minor = 0, .examples = "B200, GB200", .fp64 = 64, .fp32 = 128, .dpx = 64,
     .tensor_tf32 = 2048, .tensor_fp16 = 4096, .dpx_native = true, .smem_kib_per_sm = 228,
     .source = "Blackwell architecture technical brief and HGX B200 datasheet: 148 SMs, 37 "
               "FP64 TFLOPS, 1.1 TF32 and 2.25 FP16 tensor PFLOPS dense (tcgen05); no half2 "
               "rate given"},
    {.cc_major = 10, .cc_minor = 3, .examples = "B300, GB300", .fp32 = 128, .dpx = 64,
     .dpx_native = true, .smem_kib_per_sm = 228,
     .source = "Blackwell Ultra technical brief: FP64 and TF32 cut back from B200, their "
               "per-SM rates not published"},
    {.cc_major = 11, .cc_minor = 0, .examples = "Jetson Thor", .fp32 = 128, .dpx = 64,
     .dpx_native = true, .smem_kib_per_sm = 228,
     .source = "Jetson Thor technical brief: Blackwell SMs of 128 FP32 lanes; other per-SM "
               "rates not published"},
    {.cc_major = 12, .cc_minor = 0, .name_match = "GeForce", .examples = "GeForce RTX 50xx",
     .fp64 = 2, .fp32 = 128, .fp16x2 = 64, .dpx = 64, .tensor_tf32 = 128, .tensor_fp16 = 256,
     .dpx_native = true, .smem_kib_per_sm = 100,
     .source = "RTX Blackwell architecture whitepaper (2025): RTX 5090, 170 SMs at 2.407 GHz, "
               "104.8 FP32, 1.6 FP64, 104.8 TF32 and 209.5 FP16 tensor TFLOPS with FP32 "
               "accumulation (dense)"},
    {.cc_major = 12, .cc_minor = 0, .examples = "RTX PRO 6000 Blackwell", .fp64 = 2, .fp32 = 128,
     .fp16x2 = 64, .dpx = 64, .dpx_native = true, .smem_kib_per_sm = 100,
     .source = "RTX Blackwell architecture whitepaper (2025): GB202 SMs as in the RTX 5090; "
               "the professional parts' tensor rates are not published per SM"},
    {.cc_major = 12, .cc_minor = 1, .examples = "DGX Spark (GB10)", .fp32 = 128, .dpx = 64,
     .dpx_native = true, .smem_kib_per_sm = 100,
     .source = "GB10 technical brief: Blackwell SMs of 128 FP32 lanes; other per-SM rates not "
               "published"},
  };
  return rows;
}

bool tensor(Pipe p) { return p == Pipe::tensor_tf32 || p == Pipe::tensor_fp16; }

std::string device_words(const DeviceCaps& d) {
  std::string s = "compute capability " + std::to_string(d.cc_major) + "." +
                  std::to_string(d.cc_minor);
  return d.name.empty() ? s : s + " (" + d.name + ")";
}

}  // namespace

const char* to_string(Pipe p) {
  switch (p) {
    case Pipe::issue: return "issue slots";
    case Pipe::fp64: return "fp64 instructions";
    case Pipe::fp32: return "fp32 instructions";
    case Pipe::minmax: return "min/max instructions";
    case Pipe::fp16x2: return "half2 instructions";
    case Pipe::int32: return "int32 instructions";
    case Pipe::dpx: return "DPX instructions";
    case Pipe::tensor_tf32: return "tf32 tensor-core FMA";
    case Pipe::tensor_fp16: return "fp16 tensor-core FMA";
  }
  return "?";
}

const char* to_string(Feature f) { return f == Feature::dpx ? "dpx" : "wgmma_tma"; }

double ArchRow::rate(Pipe p) const {
  switch (p) {
    case Pipe::issue: return issue;
    case Pipe::fp64: return fp64;
    case Pipe::fp32: return fp32;
    case Pipe::minmax: return minmax;
    case Pipe::fp16x2: return fp16x2;
    case Pipe::int32: return int32;
    case Pipe::dpx: return dpx;
    case Pipe::tensor_tf32: return tensor_tf32;
    case Pipe::tensor_fp16: return tensor_fp16;
  }
  return 0;
}

const std::vector<ArchRow>& hardware_table() { return table_rows(); }

const ArchRow* arch_row(const DeviceCaps& d) {
  if (!d.present) return nullptr;
  const ArchRow* general = nullptr;
  for (const ArchRow& r : hardware_table()) {
    if (r.cc_major != d.cc_major || r.cc_minor != d.cc_minor) continue;
    if (r.name_match.empty()) general = general ? general : &r;
    else if (d.name.find(r.name_match) != std::string::npos) return &r;
  }
  return general;
}

nlohmann::json ceilings_json(const DeviceCaps& d) {
  const ArchRow* row = d.present ? arch_row(d) : nullptr;
  if (!row) return nullptr;
  const double per_clock = d.sm_count * (d.clock_khz * 1e3);  // SM-clocks per second
  nlohmann::json c = {{"clock_mhz", d.clock_khz / 1000}};
  const auto put = [&](const char* name, double rate, double factor) {
    if (rate > 0) c[name] = rate * factor * per_clock;
  };
  put("warp_instructions_per_s", row->issue, 1.0 / 32);
  put("fp32_flops_per_s", row->fp32, 2);
  put("fp64_flops_per_s", row->fp64, 2);
  put("tf32_tensor_flops_per_s", row->tensor_tf32, 2);
  put("fp16_tensor_flops_per_s", row->tensor_fp16, 2);
  put("int32_per_s", row->int32, 1);
  put("minmax_per_s", row->minmax, 1);
  put("shared_bytes_per_s", row->smem_bytes_per_clock, 1);
  if (d.memory_bytes_per_s > 0) c["dram_bytes_per_s"] = d.memory_bytes_per_s;
  return c;
}

Peak compute_peak(const InstructionMix& mix, const DeviceCaps& d) {
  if (!d.present) return {0, "no CUDA device"};
  const ArchRow* row = arch_row(d);
  if (!row)
    return {0, "ladder's hardware table has no row for " + device_words(d) +
                   ": no limit is claimed"};
  // The binding bound: the pipe (or the schedulers) with the fewest groups per clock.
  double best = std::numeric_limits<double>::infinity(), simt = 0;
  Pipe bound = Pipe::issue;
  double bound_count = 0;
  for (const auto& [pipe, count] : mix.per_group) {
    const double rate = row->rate(pipe);
    if (rate <= 0)
      return {0, std::string("ladder's hardware table gives no ") + to_string(pipe) +
                     " rate for " + device_words(d) + ": no limit is claimed"};
    if (!tensor(pipe)) simt += count;
    if (rate / count < best) best = rate / count, bound = pipe, bound_count = count;
  }
  if (simt > 0 && row->issue / simt < best)
    best = row->issue / simt, bound = Pipe::issue, bound_count = simt;
  const double ghz = d.clock_khz / 1e6;
  Peak p;
  p.per_second = best * mix.units_per_group * d.sm_count * ghz * 1e9;
  // Printed exactly as computed, so that the text recomputes to the number (tests check it).
  p.rule = fmt::format("{:g} {}/clock/SM", row->rate(bound), to_string(bound));
  if (bound_count != 1) p.rule += fmt::format(" / {:g} per {}", bound_count, mix.group);
  if (mix.units_per_group != 1)
    p.rule += fmt::format(" x {:g} {} per {}", mix.units_per_group, mix.unit, mix.group);
  p.rule += fmt::format(" x {} SMs x {:g} GHz (max SM clock; {} rates)", d.sm_count, ghz,
                        row->cc() + (row->name_match.empty() ? "" : " " + row->name_match));
  return p;
}

const char* to_string(Traffic::Link link) {
  return link == Traffic::Link::host ? "host link" : "DRAM";
}

Peak memory_peak(double units, const Traffic& t, const DeviceCaps& d) {
  if (t.bytes <= 0 || units <= 0) return {};
  if (!d.present) return {0, "no CUDA device"};
  const bool host = t.link == Traffic::Link::host;
  const double bandwidth = host ? d.host_bytes_per_s : d.memory_bytes_per_s;
  if (bandwidth <= 0)
    return {0, host ? "the host link's bandwidth is not known for " + device_words(d) +
                          " (NVML gave no PCIe generation and width, or the link is not PCIe)"
                    : "the device gave no memory bandwidth for " + device_words(d)};
  // What the L2 may serve of each pass never reaches DRAM (a hot run finds the last one's data
  // there); the host link has no such cache.
  const double cached = host ? 0 : double(t.passes) * double(d.l2_bytes);
  const double bytes = t.bytes - cached;
  const std::string passes = t.passes == 1 ? "1 pass" : fmt::format("{} passes", t.passes);
  if (bytes <= 0)
    return {0, fmt::format("the point's {} B in {} fit in the {} B L2, which a hot run may serve "
                           "them from",
                           t.bytes, passes, d.l2_bytes)};
  Peak p;
  p.per_second = units * bandwidth / bytes;
  // Printed exactly as computed (shortest round-trip numbers), in GB/s so that, like the
  // compute rule in GHz, it reads in units of 1e9 per second.
  p.rule = fmt::format("{} GB/s {} x {} {} / {} B ({}", bandwidth / 1e9, to_string(t.link), units,
                       t.unit, bytes, t.counted);
  if (cached > 0)
    p.rule += fmt::format(": {} B in {}, less the {} B L2 for each", t.bytes, passes, d.l2_bytes);
  p.rule += ")";
  return p;
}

double pcie_bytes_per_s(int generation, int width) {
  static constexpr double kLaneBytes[] = {0, 2.5e9 * 8 / 10 / 8, 5e9 * 8 / 10 / 8,
                                          8e9 * 128 / 130 / 8, 16e9 * 128 / 130 / 8,
                                          32e9 * 128 / 130 / 8, 64e9 * 242 / 256 / 8};
  if (generation < 1 || generation > 6 || width < 1 || width > 32) return 0;
  return kLaneBytes[generation] * width;
}

namespace {

Bound bound_of(const Peak& p, double scale, std::string name, double bytes = 0) {
  Bound b{.name = std::move(name), .bytes = bytes};
  if (p.known()) b.peak = p.per_second / scale, b.rule = p.rule;
  else b.reason = p.rule;
  return b;
}

Bound memory_bound(const Work& w, const Traffic& t, const DeviceCaps& d) {
  return bound_of(memory_peak(w.amount, t, d), w.scale,
                  std::string(to_string(t.link)) + " bandwidth", t.bytes);
}

// Whether the device gives the bandwidth of the traffic's link.
bool link_known(const Traffic& t, const DeviceCaps& d) {
  const double bandwidth = t.link == Traffic::Link::host ? d.host_bytes_per_s : d.memory_bytes_per_s;
  return d.present && bandwidth > 0;
}

// The limit: the least bound known, with a rule that gives both and says which binds. With
// the compute bound unknown the limit is unknown (the study claims one), whatever the memory
// bound; without a memory bound the compute bound stands alone, and the rule says why. With
// neither, the limit is unknown where the device does not give the bandwidth, and there is
// none where the point's traffic fits in the L2.
void settle(Work& w, bool compute_claimed, bool bandwidth_unknown) {
  const Bound &c = w.compute, &m = w.memory;
  const auto take = [&](const Bound& b, const char* binds, const std::string& rule) {
    w.peak = b.peak, w.peak_name = b.name, w.binds = binds, w.peak_rule = rule;
  };
  const std::string no_memory =
      m.reason.empty() ? "no memory bound claimed" : "no memory bound: " + m.reason;
  if (compute_claimed && !c.known()) {
    w.peak_reason = c.reason;
  } else if (c.known() && m.known()) {
    const bool memory = m.peak < c.peak;
    take(memory ? m : c, memory ? "memory" : "compute",
         fmt::format("min(compute {:.6g}, memory {:.6g}) {} = {}; compute: {}; memory: {}",
                     c.peak, m.peak, w.unit, memory ? "memory" : "compute", c.rule, m.rule));
  } else if (c.known()) {
    take(c, "compute", c.rule + "; " + no_memory);
  } else if (m.known()) {
    take(m, "memory", m.rule + "; " + c.reason);
  } else if (bandwidth_unknown && !m.reason.empty()) {
    w.peak_reason = m.reason + "; " + c.reason;
  }
}

}  // namespace

void Work::set_limit(const InstructionMix& mix, const Traffic& traffic, const DeviceCaps& d) {
  compute = bound_of(compute_peak(mix, d), scale, mix.name);
  memory = memory_bound(*this, traffic, d);
  settle(*this, true, !link_known(traffic, d));
}

void Work::set_limit(const Traffic& traffic, const std::string& why, const DeviceCaps& d) {
  compute = Bound{.reason = "no compute bound claimed: " + why};
  memory = memory_bound(*this, traffic, d);
  settle(*this, false, !link_known(traffic, d));
}

bool dpx_native(const DeviceCaps& d) { return missing_feature(Feature::dpx, d).empty(); }

bool emulated_when_missing(Feature f) { return f == Feature::dpx; }

std::string missing_feature(Feature f, const DeviceCaps& d) {
  if (!d.present) return "";
  const std::string here = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  switch (f) {
    case Feature::dpx: {
      // CUDA's DPX functions are plain min/add in PTX; ptxas makes them DPX instructions when
      // it compiles for a GPU that has them, so JIT-compiled older PTX gets them too.
      if (d.cc_major < 9)
        return "DPX instructions are emulated before compute capability 9.0 (this GPU is " +
               here + ")";
      return "";
    }
    case Feature::wgmma_tma:
      if (d.cc_major == 9 && d.cc_minor == 0) return "";
      return "needs a compute capability 9.0 GPU (Hopper wgmma and TMA, built for sm_90a); this "
             "one is " + here;
  }
  return "";
}

std::string no_code_message(int cc_major, int cc_minor, const std::string& device_name,
                            const std::string& built_archs) {
  const std::string cc = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  return fmt::format(
      "this ladder binary has no code for the GPU's compute capability {}{}: it was built for "
      "CUDA architectures {} (and sm_90a for the wgmma steps); rebuild with "
      "-DCMAKE_CUDA_ARCHITECTURES={}",
      cc, device_name.empty() ? "" : " (" + device_name + ")", built_archs,
      cc_major * 10 + cc_minor);
}

}  // namespace ladder
