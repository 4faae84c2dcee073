// The hardware table on GPUs this machine does not have: each study's limit, which steps run
// emulated or not at all, and the build check's message, for the device capabilities of an
// A100, L40S, RTX 4090, H100, H200, B200 and RTX 5090 (and a compute capability no row knows).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "harness/device_info.hpp"
#include "harness/hardware.hpp"
#include "harness/host_cpu.hpp"
#include "harness/study.hpp"
#include "variants/dtw/problem.hpp"

namespace ladder {
namespace {

DeviceCaps gpu(const char* name, int major, int minor, int sms, int mhz, double smem_kib) {
  DeviceCaps d;
  d.present = true;
  d.name = name;
  d.cc_major = major, d.cc_minor = minor;
  d.sm_count = sms;
  d.clock_khz = mhz * 1000;
  d.smem_per_block_optin = static_cast<std::size_t>(smem_kib * 1024);
  d.l2_bytes = 50u << 20;
  d.global_mem_free = std::size_t(40) << 30;
  d.code_arch = major * 10 + minor;
  return d;
}

// Clocks and SM counts as the devices report them (max SM clock).
const std::map<std::string, DeviceCaps>& gpus() {
  static const std::map<std::string, DeviceCaps> all{
      {"A100", gpu("NVIDIA A100-SXM4-80GB", 8, 0, 108, 1410, 163)},
      {"L40S", gpu("NVIDIA L40S", 8, 9, 142, 2520, 99)},
      {"RTX 4090", gpu("NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, 99)},
      {"H100", gpu("NVIDIA H100 80GB HBM3", 9, 0, 132, 1980, 227)},
      {"H200", gpu("NVIDIA H200", 9, 0, 132, 1980, 227)},
      {"B200", gpu("NVIDIA B200", 10, 0, 148, 1965, 227)},
      {"RTX 5090", gpu("NVIDIA GeForce RTX 5090", 12, 0, 170, 2407, 99)},
  };
  return all;
}

// Evaluates a limit rule as printed: its first number, then each "x N" and "/ N", up to the
// parenthesis that names the clock. Words with digits in them ("fp64") are not numbers.
double recompute(const std::string& rule) {
  std::istringstream in(rule.substr(0, rule.find(" (")));
  std::string word, op;
  double value = std::nan("");
  while (in >> word) {
    char* end = nullptr;
    const double x = std::strtod(word.c_str(), &end);
    const bool number = end && *end == '\0' && !word.empty();
    if (word == "x" || word == "/") op = word;
    else if (number && std::isnan(value)) value = x;
    else if (number && op == "x") value *= x, op.clear();
    else if (number && op == "/") value /= x, op.clear();
  }
  return value;
}

// The first test point of `study` (its first generator) for which `pick` holds.
std::unique_ptr<Problem> problem_of(const std::string& study_name,
                                    const std::function<bool(const Problem&)>& pick = {}) {
  const Study& study = *registry().study(study_name);
  for (const Params& given : study.test_points()) {
    auto p = study.make_problem(DataSource{study.generators().front(), ""},
                                resolve(study, nullptr, given));
    if (!pick || pick(*p)) return p;
  }
  ADD_FAILURE() << "no test point of " << study_name << " fits";
  return nullptr;
}

// Limit per SM per clock the study computes for `variant` on `d` (peak / SMs / GHz).
double per_clock(const Problem& p, const std::string& variant, const DeviceCaps& d) {
  const VariantSpec& v = *registry().variant(variant);
  const Work w = registry().study(v.study)->work(p, v, d);
  if (w.peak <= 0) return 0;
  return w.peak * w.scale / (d.sm_count * (d.clock_khz / 1e6) * 1e9);
}

void expect_limits(const Problem& p, const std::string& variant,
                   const std::map<std::string, double>& want) {
  for (const auto& [gpu_name, units] : want) {
    const DeviceCaps& d = gpus().at(gpu_name);
    EXPECT_NEAR(per_clock(p, variant, d), units, 1e-9 * units)
        << variant << " on " << gpu_name;
  }
}

TEST(Hardware, EveryRowNamesItsSourceAndKnownRatesArePositive) {
  for (const ArchRow& r : hardware_table()) {
    EXPECT_GE(r.cc_major * 10 + r.cc_minor, 70) << r.cc();
    EXPECT_LE(r.cc_major, 12) << r.cc();
    EXPECT_GT(r.source.size(), 40u) << r.cc();
    EXPECT_GT(r.fp32, 0) << r.cc();
    EXPECT_GT(r.smem_kib_per_sm, 0) << r.cc();
    EXPECT_EQ(r.dpx_native, r.cc_major >= 9) << r.cc();
  }
}

TEST(Hardware, RowsAreChosenByCapabilityThenName) {
  EXPECT_EQ(arch_row(gpus().at("RTX 4090"))->name_match, "GeForce");
  EXPECT_EQ(arch_row(gpus().at("L40S"))->name_match, "");
  EXPECT_EQ(arch_row(gpus().at("H200")), arch_row(gpus().at("H100")));
  DeviceCaps future = gpus().at("H100");
  future.cc_major = 13;
  EXPECT_EQ(arch_row(future), nullptr);
  EXPECT_EQ(arch_row(DeviceCaps{}), nullptr);
}

TEST(Hardware, CovarianceLimitsFollowEachStepsPipe) {
  auto p = problem_of("covariance");
  expect_limits(*p, "covariance/register_blocked",
                {{"A100", 128}, {"L40S", 256}, {"RTX 4090", 256}, {"H100", 256}, {"H200", 256},
                 {"B200", 256}, {"RTX 5090", 256}});
  expect_limits(*p, "covariance/mma_tf32",
                {{"A100", 1024}, {"L40S", 512}, {"RTX 4090", 256}, {"H100", 2048},
                 {"H200", 2048}, {"B200", 4096}, {"RTX 5090", 256}});
  // 3xTF32: three tensor-core products per FP32-accurate one.
  expect_limits(*p, "covariance/mma_3xtf32",
                {{"A100", 1024 / 3.0}, {"RTX 4090", 256 / 3.0}, {"H100", 2048 / 3.0}});
  expect_limits(*p, "covariance/wgmma_3xtf32", {{"H100", 2048 / 3.0}});
  // FP16 on the tensor cores: twice TF32's rate; 3xFP16 a third of that.
  expect_limits(*p, "covariance/wgmma_fp16", {{"H100", 4096}, {"H200", 4096}});
  expect_limits(*p, "covariance/wgmma_3xfp16", {{"H100", 4096 / 3.0}});
}

TEST(Hardware, DtwLimitsAndDpx) {
  auto p = problem_of("dtw");
  // Four instructions a cell: two mins on the ALU's 64-lane min/max pipe bind everywhere.
  expect_limits(*p, "dtw/subwarp",
                {{"A100", 32}, {"L40S", 32}, {"RTX 4090", 32}, {"H100", 32}, {"H200", 32},
                 {"B200", 32}, {"RTX 5090", 32}});
  // DPX: three instructions a cell where native (issue-bound), the four-instruction limit
  // where emulated.
  expect_limits(*p, "dtw/dpx_min3",
                {{"A100", 32}, {"L40S", 32}, {"RTX 4090", 32}, {"H100", 128 / 3.0},
                 {"B200", 128 / 3.0}, {"RTX 5090", 128 / 3.0}});
  // Step 15 on a set against itself computes one triangle: two cells counted per cell computed.
  auto self = problem_of("dtw", [](const Problem& q) {
    return problem_as<dtw::DtwProblem>(q).queries_are_subjects();
  });
  expect_limits(*self, "dtw/all_pairs", {{"A100", 64}, {"H100", 256 / 3.0}});
  expect_limits(*self, "dtw/dpx_min3", {{"H100", 128 / 3.0}});
  auto other = problem_of("dtw", [](const Problem& q) {
    return !problem_as<dtw::DtwProblem>(q).queries_are_subjects();
  });
  expect_limits(*other, "dtw/all_pairs", {{"H100", 128 / 3.0}});
  // Each limit is named for what binds it, so a figure's footnotes tell them apart.
  auto name = [&](const Problem& q, const char* id, const char* gpu_name) {
    return registry().study("dtw")->work(q, *registry().variant(id), gpus().at(gpu_name)).peak_name;
  };
  EXPECT_EQ(name(*other, "dtw/subwarp", "H100"), "FP32");
  EXPECT_EQ(name(*other, "dtw/dpx_min3", "H100"), "FP32 + DPX");
  EXPECT_EQ(name(*other, "dtw/dpx_min3", "A100"), "FP32");
  EXPECT_EQ(name(*self, "dtw/all_pairs", "H100"), "FP32 + DPX, triangle");
  EXPECT_EQ(name(*other, "dtw/fp16x2", "H100"), "FP16x2");
  // half2: two cells per instruction group.
  expect_limits(*p, "dtw/fp16x2",
                {{"A100", 64}, {"L40S", 64}, {"RTX 4090", 64}, {"H100", 64}, {"RTX 5090", 64}});
  // half2 with the DPX min: three instructions for two cells where native (issue-bound),
  // step 12's limit where emulated.
  expect_limits(*p, "dtw/fp16x2_dpx", {{"A100", 64}, {"RTX 4090", 64}, {"H100", 256 / 3.0}, {"H200", 256 / 3.0}});
  EXPECT_EQ(name(*other, "dtw/fp16x2_dpx", "H100"), "FP16x2 + DPX");
  EXPECT_EQ(name(*other, "dtw/fp16x2_dpx", "A100"), "FP16x2");
  // No published half2 rate for B200: no limit, and the reason says so.
  const VariantSpec& half = *registry().variant("dtw/fp16x2");
  const Work w = registry().study("dtw")->work(*p, half, gpus().at("B200"));
  EXPECT_EQ(w.peak, 0);
  EXPECT_NE(w.peak_reason.find("half2"), std::string::npos) << w.peak_reason;
}

TEST(Hardware, TwedAndEedLimits) {
  auto twed = problem_of("twed", [](const Problem& p) {
    const VariantSpec& v = *registry().variant("twed/wavefront");
    return registry().study("twed")->work(p, v, gpus().at("H100")).peak > 0;
  });
  // FP64: nine instructions a cell on the FP64 pipe (2 per clock on GeForce and Ada parts).
  expect_limits(*twed, "twed/wavefront",
                {{"A100", 32 / 9.0}, {"L40S", 2 / 9.0}, {"RTX 4090", 2 / 9.0},
                 {"H100", 64 / 9.0}, {"B200", 64 / 9.0}, {"RTX 5090", 2 / 9.0}});
  // FP32: seven FP32 instructions and two mins; A100's 64 FP32 lanes bind, else issue.
  expect_limits(*twed, "twed/wavefront_fp32",
                {{"A100", 64 / 7.0}, {"L40S", 128 / 9.0}, {"H100", 128 / 9.0}});
  auto eed = problem_of("eed");
  // Eight integer operations a cell with DPX add-min, eleven without.
  expect_limits(*eed, "eed/warp_rows",
                {{"A100", 64 / 11.0}, {"RTX 4090", 64 / 11.0}, {"H100", 8}, {"B200", 8},
                 {"RTX 5090", 8}});
}

TEST(Hardware, EveryRuleRecomputesToItsPeak) {
  std::vector<std::unique_ptr<Problem>> keep;
  int checked = 0;
  for (const auto& study : registry().studies()) {
    auto p = problem_of(study->name());
    for (const VariantSpec* v : registry().variants(study->name()))
      for (const auto& [name, d] : gpus()) {
        const Work w = study->work(*p, *v, d);
        if (w.peak <= 0) continue;
        // The rule multiplies by GHz: it reads in units of 1e9 per second.
        EXPECT_NEAR(recompute(w.peak_rule) * 1e9 / w.scale, w.peak, 1e-9 * w.peak)
            << v->id() << " on " << name << ": " << w.peak_rule;
        ++checked;
      }
  }
  EXPECT_GT(checked, 100);
}

TEST(Hardware, UnknownCapabilityGivesNoLimitAndWhy) {
  DeviceCaps d = gpus().at("H100");
  d.cc_major = 13, d.cc_minor = 0, d.name = "NVIDIA Future";
  auto p = problem_of("dtw");
  const Work w = registry().study("dtw")->work(*p, *registry().variant("dtw/subwarp"), d);
  EXPECT_EQ(w.peak, 0);
  EXPECT_EQ(w.peak_rule, "");
  EXPECT_NE(w.peak_reason.find("no row for compute capability 13.0 (NVIDIA Future)"),
            std::string::npos)
      << w.peak_reason;
}

// Which registered steps a device cannot run (wgmma) or runs emulated (DPX).
std::pair<std::set<std::string>, std::set<std::string>> feature_verdicts(const DeviceCaps& d) {
  std::set<std::string> unsupported, emulated;
  for (const VariantSpec* v : registry().variants(""))
    for (Feature f : v->needs)
      if (!missing_feature(f, d).empty())
        (emulated_when_missing(f) ? emulated : unsupported).insert(v->id());
  return {unsupported, emulated};
}

TEST(Hardware, StepsUnsupportedOrEmulatedPerGpu) {
  const std::set<std::string> wgmma{"covariance/wgmma_3xfp16", "covariance/wgmma_3xtf32",
                                    "covariance/wgmma_fp16", "covariance/wgmma_tf32"};
  const std::set<std::string> dpx{"dtw/all_pairs", "dtw/dpx_min3", "dtw/fp16x2_dpx", "dtw/subject_stream"};
  for (const auto& [name, d] : gpus()) {
    const auto [unsupported, emulated] = feature_verdicts(d);
    const bool hopper = d.cc_major == 9;
    EXPECT_EQ(unsupported, hopper ? std::set<std::string>{} : wgmma) << name;
    EXPECT_EQ(emulated, d.cc_major >= 9 ? std::set<std::string>{} : dpx) << name;
  }
  EXPECT_NE(missing_feature(Feature::wgmma_tma, gpus().at("B200")).find("this one is 10.0"),
            std::string::npos);
  EXPECT_NE(missing_feature(Feature::dpx, gpus().at("A100")).find("emulated"), std::string::npos);
  EXPECT_EQ(missing_feature(Feature::dpx, DeviceCaps{}), "");  // no device: nothing runs
}

// Shared memory is the device's own (its opt-in per block): DTW's shared-memory rows of 32
// threads at n = 400 need 100.3 KiB, more than Ada's and Blackwell GeForce's 99 KiB.
TEST(Hardware, SharedMemoryStepsFollowTheDevice) {
  const Study& study = *registry().study("dtw");
  Params given;
  given.set("n", "400");
  given.set("entries", "5");
  auto p = study.make_problem(DataSource{study.generators().front(), ""},
                              resolve(study, nullptr, given));
  const VariantSpec& v = *registry().variant("dtw/shared");
  const Params params = resolve(study, &v, given);
  for (const auto& [name, d] : gpus()) {
    const bool fits = d.smem_per_block_optin >= 32 * 2 * 401 * sizeof(float);
    EXPECT_EQ(v.supports(*p, params, d).empty(), fits) << name << ": " << v.supports(*p, params, d);
  }
  EXPECT_FALSE(v.supports(*p, params, gpus().at("RTX 4090")).empty());
  EXPECT_TRUE(v.supports(*p, params, gpus().at("H100")).empty());
}

TEST(Hardware, NoCodeMessageNamesDeviceBinaryAndFlag) {
  const std::string m = no_code_message(8, 6, "NVIDIA GeForce RTX 3090", "90");
  EXPECT_NE(m.find("compute capability 8.6 (NVIDIA GeForce RTX 3090)"), std::string::npos) << m;
  EXPECT_NE(m.find("built for CUDA architectures 90"), std::string::npos) << m;
  EXPECT_NE(m.find("-DCMAKE_CUDA_ARCHITECTURES=86"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  const std::string b = no_code_message(10, 0, "NVIDIA B200", "80-real;90-real");
  EXPECT_NE(b.find("-DCMAKE_CUDA_ARCHITECTURES=100"), std::string::npos) << b;
}

TEST(HostCpu, AMaskedBrandStillNamesItsMicroarchitecture) {
  const CpuIdentity c = parse_cpuinfo(
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
      "model name\t: Intel(R) Xeon(R) Processor\nstepping\t: 8\n\n"
      "processor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n");
  EXPECT_EQ(c.brand, "Intel(R) Xeon(R) Processor");
  EXPECT_EQ(c.id, "GenuineIntel family 6 model 143 stepping 8");
  EXPECT_EQ(c.microarchitecture, "Sapphire Rapids");
  const CpuIdentity amd = parse_cpuinfo("vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 17\n");
  EXPECT_EQ(amd.microarchitecture, "Zen 4 (Genoa)");
  EXPECT_EQ(amd.brand, "unknown");
  const CpuIdentity grace = parse_cpuinfo("processor : 0\nBogoMIPS : 2000.00\nCPU implementer : 0x41\n"
                                          "CPU architecture: 8\nCPU part : 0xd4f\n");
  EXPECT_EQ(grace.id, "Arm implementer 0x41 part 0xd4f");
  EXPECT_EQ(grace.microarchitecture, "Neoverse V2 (e.g. NVIDIA Grace)");
  const CpuIdentity odd = parse_cpuinfo("vendor_id : GenuineIntel\ncpu family : 6\nmodel : 999\n");
  EXPECT_EQ(odd.id, "GenuineIntel family 6 model 999");
  EXPECT_EQ(odd.microarchitecture, "");
  EXPECT_EQ(parse_cpuinfo("").id, "");
  EXPECT_EQ(parse_cpuinfo("model name:").brand, "unknown");  // found by fuzz_cpuinfo
  EXPECT_EQ(parse_cpuinfo("model name : Xeon \r\n").brand, "Xeon");
  EXPECT_EQ(parse_cpuinfo("cpu family : x\nmodel : y\n").id, "");
}

TEST(HostCpu, DriverReleaseFromTheKernelModuleLine) {
  EXPECT_EQ(parse_driver_release("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                 "580.95.05  Release Build  (dvs-builder@U16)  Thu Sep 25 2025\n"
                                 "GCC version:  gcc version 13.3.0\n"),
            "580.95.05");
  EXPECT_EQ(parse_driver_release("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54 Tue\n"), "550.54");
  EXPECT_EQ(parse_driver_release(""), "");
  EXPECT_EQ(parse_driver_release("GCC version: 13.3.0 \n"), "");
  // Read by hand: a word of 2 or 3 numbers with white space on both sides, on that line only.
  EXPECT_EQ(parse_driver_release("NVRM version: Module 1.2.3.4 550.54.15\n"), "550.54.15");
  EXPECT_EQ(parse_driver_release("NVRM version:550.54 x\n"), "");
  EXPECT_EQ(parse_driver_release("NVRM version: Module 550.54"), "");  // nothing after it
  EXPECT_EQ(parse_driver_release("NVRM version: Module\n550.54 \n"), "");
  EXPECT_EQ(parse_driver_release("NVRM version: " + std::string(1 << 20, '5') + " 1.2 \n"), "1.2");
}

// Whether the kernel shows an NVIDIA GPU, from folders made here: the driver's per-GPU folder
// or a device file nvidia<N> (nvidiactl, nvidia-uvm and nvidia-caps exist without a GPU).
TEST(Device, AnNvidiaGpuIsShownByTheDriverOrADeviceFile) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("ladder-gpu-shown-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "gpus");
  fs::create_directories(root / "dev");
  const std::string gpus = (root / "gpus").string(), dev = (root / "dev").string();
  const auto touch = [](const fs::path& f) { std::ofstream{f}; };
  for (const char* other : {"nvidiactl", "nvidia-uvm", "nvidia-caps", "nvidia", "null"}) touch(root / "dev" / other);
  EXPECT_FALSE(nvidia_gpu_shown(gpus, dev));
  EXPECT_FALSE(nvidia_gpu_shown((root / "absent").string(), (root / "absent").string()));
  touch(root / "dev" / "nvidia0");
  EXPECT_TRUE(nvidia_gpu_shown(gpus, dev));
  fs::remove(root / "dev" / "nvidia0");
  fs::create_directories(root / "gpus" / "0000:01:00.0");
  EXPECT_TRUE(nvidia_gpu_shown(gpus, dev));
  fs::remove_all(root);
}

}  // namespace
}  // namespace ladder
