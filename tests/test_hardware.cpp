// The hardware table on GPUs this machine does not have: each study's limit, which steps run
// emulated or not at all, and the build check's message, for the device capabilities of an
// A100, L40S, RTX 4090, H100, H200, B200 and RTX 5090 (and a compute capability no row knows).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
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
#include "variants/covariance/problem.hpp"
#include "variants/dtw/problem.hpp"

namespace ladder {
namespace {

DeviceCaps gpu(const char* name, int major, int minor, int sms, int mhz, double smem_kib,
              double memory_gbps) {
  DeviceCaps d;
  d.memory_bytes_per_s = memory_gbps * 1e9;
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

// Clocks, SM counts, memory bandwidths (memory clock x bus width x 2) and L2 sizes (50 MiB,
// H200's 60) as the devices report them (max SM clock).
const std::map<std::string, DeviceCaps>& gpus() {
  static const std::map<std::string, DeviceCaps> all = [] {
    std::map<std::string, DeviceCaps> g{
      {"A100", gpu("NVIDIA A100-SXM4-80GB", 8, 0, 108, 1410, 163, 2039.04)},
      {"L40S", gpu("NVIDIA L40S", 8, 9, 142, 2520, 99, 864.048)},
      {"RTX 4090", gpu("NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, 99, 1008.096)},
      {"H100", gpu("NVIDIA H100 80GB HBM3", 9, 0, 132, 1980, 227, 3352.32)},
      {"H200", gpu("NVIDIA H200", 9, 0, 132, 1980, 227, 4814.304)},
      {"B200", gpu("NVIDIA B200", 10, 0, 148, 1965, 227, 7672.32)},
      {"RTX 5090", gpu("NVIDIA GeForce RTX 5090", 12, 0, 170, 2407, 99, 1792.0)},
    };
    g["H200"].l2_bytes = 60u << 20;
    return g;
  }();
  return all;
}

// Evaluates a bound's rule as printed: its first number, then each "x N" and "/ N", up to the
// parenthesis that names the clock or the bytes. Words with digits in them ("fp64") are not
// numbers.
double recompute_bound(const std::string& rule) {
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

// A limit's rule: one bound's rule, or "min(compute C, memory M) UNIT = BOUND; compute:
// RULE; memory: RULE", whose binding rule is recomputed, after checking that each rule gives
// the number printed for it (to its six digits) and that the binding one is the least.
double recompute(const std::string& rule) {
  const std::string head = "min(compute ";
  if (rule.rfind(head, 0) != 0) return recompute_bound(rule);
  const std::size_t c_at = rule.find("; compute: "), m_at = rule.find("; memory: ");
  if (c_at == std::string::npos || m_at == std::string::npos) return std::nan("");
  const double c = recompute_bound(rule.substr(c_at + 11, m_at - c_at - 11));
  const double m = recompute_bound(rule.substr(m_at + 10));
  double c_shown = 0, m_shown = 0;
  char binds[16] = {0};
  if (std::sscanf(rule.c_str(), "min(compute %lf, memory %lf) %*s = %15[a-z];", &c_shown,
                  &m_shown, binds) != 3)
    return std::nan("");
  const bool memory = m < c;
  if (std::fabs(c_shown - c) > 1e-5 * c || std::fabs(m_shown - m) > 1e-5 * m ||
      std::string(binds) != (memory ? "memory" : "compute"))
    return std::nan("");
  return memory ? m : c;
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

// Compute bound per SM per clock the study computes for `variant` on `d` (its peak / SMs /
// GHz). The test points are small, so their memory bound is often the limit; not here.
double per_clock(const Problem& p, const std::string& variant, const DeviceCaps& d) {
  const VariantSpec& v = *registry().variant(variant);
  const Work w = registry().study(v.study)->work(p, v, d);
  if (!w.compute.known()) return 0;
  return w.compute.peak * w.scale / (d.sm_count * (d.clock_khz / 1e6) * 1e9);
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
    return registry().study("dtw")->work(q, *registry().variant(id), gpus().at(gpu_name)).compute.name;
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
  EXPECT_GT(w.memory.bytes, 0);  // recorded, but no limit without the compute bound claimed
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
        // The rules multiply by GHz or GB/s: they read in units of 1e9 per second.
        EXPECT_NEAR(recompute(w.peak_rule) * 1e9 / w.scale, w.peak, 1e-9 * w.peak)
            << v->id() << " on " << name << ": " << w.peak_rule;
        for (const Bound* b : {&w.compute, &w.memory})
          if (b->known())
            EXPECT_NEAR(recompute_bound(b->rule) * 1e9 / w.scale, b->peak, 1e-9 * b->peak)
                << v->id() << " on " << name << ": " << b->rule;
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

// ---- the limit: the least of the compute and the memory bound ----

const InstructionMix kTf32{"tf32 flops", {{Pipe::tensor_tf32, 1}}, 2, "FMA", "TF32 tensor"};
const std::string kH100Tf32 = "1024 tf32 tensor-core FMA/clock/SM x 2 tf32 flops per FMA x 132 "
                              "SMs x 1.98 GHz (max SM clock; 9.0 rates)";

// A device as the table knows it, its L2 left out (the arithmetic without it first).
DeviceCaps without_l2(const char* name) {
  DeviceCaps d = gpus().at(name);
  d.l2_bytes = 0;
  return d;
}

// 1.24 TFLOP that must move 8 GB on an H100: the memory bound, 1.24e12 flops / 8e9 B x
// 3352.32 GB/s = 519,610 GFLOP/s, is below the TF32 tensor cores' 535,265, so it is the limit.
TEST(Limit, TheLeastBoundBindsAndTheRuleGivesBoth) {
  Work w{"gflops", "GFLOP/s", 1.24e12, 1e9};
  w.set_limit(kTf32, {8e9, 1, "flops", "X read once"}, without_l2("H100"));
  EXPECT_NEAR(w.compute.peak, 1024 * 2 * 132 * 1.98, 1e-3);
  EXPECT_NEAR(w.memory.peak, 1.24e12 / 8e9 * 3352.32, 1e-3);
  EXPECT_EQ(w.memory.bytes, 8e9);
  EXPECT_EQ(w.binds, "memory");
  EXPECT_EQ(w.peak, w.memory.peak);
  EXPECT_EQ(w.peak_name, "DRAM bandwidth");
  EXPECT_EQ(w.compute.name, "TF32 tensor");
  EXPECT_EQ(w.peak_rule, "min(compute 535265, memory 519610) GFLOP/s = memory; compute: " +
                             kH100Tf32 + "; memory: 3352.32 GB/s DRAM x 1240000000000 flops / "
                             "8000000000 B (X read once)");
  EXPECT_NEAR(recompute(w.peak_rule), w.peak, 1e-9 * w.peak);
  EXPECT_TRUE(w.peak_reason.empty());
}

// The same work on an H200 (4814.304 GB/s): 746,217 GFLOP/s through memory, so the tensor
// cores bind.
TEST(Limit, ComputeBindsWhereTheMemoryBoundIsHigher) {
  Work w{"gflops", "GFLOP/s", 1.24e12, 1e9};
  w.set_limit(kTf32, {8e9, 1, "flops", "X read once"}, without_l2("H200"));
  EXPECT_EQ(w.binds, "compute");
  EXPECT_EQ(w.peak, w.compute.peak);
  EXPECT_EQ(w.peak_name, "TF32 tensor");
  EXPECT_EQ(w.peak_rule.rfind("min(compute 535265, memory 746217) GFLOP/s = compute; compute: ",
                              0),
            0u)
      << w.peak_rule;
  EXPECT_NEAR(recompute(w.peak_rule), w.peak, 1e-9 * w.peak);
}

TEST(Limit, WithoutABandwidthTheComputeBoundStandsAloneAndSaysSo) {
  DeviceCaps d = gpus().at("H100");
  d.memory_bytes_per_s = 0;
  Work w{"gflops", "GFLOP/s", 1.24e12, 1e9};
  w.set_limit(kTf32, {8e9, 1, "flops", "X read once"}, d);
  EXPECT_EQ(w.binds, "compute");
  EXPECT_EQ(w.peak, w.compute.peak);
  EXPECT_EQ(w.peak_rule, kH100Tf32 + "; no memory bound: the device gave no memory bandwidth "
                                     "for compute capability 9.0 (NVIDIA H100 80GB HBM3)");
  EXPECT_FALSE(w.memory.known());
  EXPECT_NEAR(recompute(w.peak_rule), w.peak, 1e-9 * w.peak);
  Work none{"gflops", "GFLOP/s", 1.24e12, 1e9};
  none.set_limit(kTf32, Traffic{}, gpus().at("H100"));
  EXPECT_EQ(none.peak_rule, kH100Tf32 + "; no memory bound claimed");
}

// A compute bound the table cannot give leaves the limit unknown, as before; the memory bound
// is still recorded.
TEST(Limit, AnUnknownComputeBoundLeavesTheLimitUnknown) {
  DeviceCaps d = gpus().at("H100");
  d.cc_major = 13, d.name = "NVIDIA Future";
  Work w{"gflops", "GFLOP/s", 1.24e12, 1e9};
  w.set_limit(kTf32, {8e9, 1, "flops", "X read once"}, d);
  EXPECT_EQ(w.peak, 0);
  EXPECT_EQ(w.binds, "");
  EXPECT_NE(w.peak_reason.find("no row for compute capability 13.0"), std::string::npos);
  EXPECT_TRUE(w.memory.known());
}

// Work whose instruction count depends on the data (skyline): the memory bound alone.
TEST(Limit, NoComputeBoundClaimedGivesTheMemoryBoundAlone) {
  Work w{"points_per_s", "Mpoints/s", 1e6, 1e6};
  w.set_limit({36e6, 1, "points", "points read once"}, "the tests depend on the data",
              without_l2("H100"));
  EXPECT_EQ(w.binds, "memory");
  EXPECT_NEAR(w.peak, 1e6 / 36e6 * 3352.32e9 / 1e6, 1e-3);  // 93,120 Mpoints/s
  EXPECT_EQ(w.peak_rule, "3352.32 GB/s DRAM x 1000000 points / 36000000 B (points read once); "
                         "no compute bound claimed: the tests depend on the data");
  EXPECT_NEAR(recompute(w.peak_rule) * 1e9 / w.scale, w.peak, 1e-9 * w.peak);
  DeviceCaps d = gpus().at("H100");
  d.memory_bytes_per_s = 0;
  Work unknown{"points_per_s", "Mpoints/s", 1e6, 1e6};
  unknown.set_limit({36e6, 1, "points", "points read once"}, "the tests depend on the data", d);
  EXPECT_EQ(unknown.peak, 0);
  EXPECT_NE(unknown.peak_reason.find("no memory bandwidth"), std::string::npos);
  // Points that fit in the L2 have no memory bound: no limit, and none is missing.
  Work cached{"points_per_s", "Mpoints/s", 1e6, 1e6};
  cached.set_limit({36e6, 2, "points", "points read once"}, "the tests depend on the data",
                   gpus().at("H100"));
  EXPECT_EQ(cached.peak, 0);
  EXPECT_EQ(cached.peak_reason, "");
  EXPECT_NE(cached.memory.reason.find("fit in the 52428800 B L2"), std::string::npos);
}

TEST(Limit, HostLinkBound) {
  EXPECT_NEAR(pcie_bytes_per_s(1, 16), 4e9, 1);
  EXPECT_NEAR(pcie_bytes_per_s(3, 16), 8e9 * 128 / 130 * 2, 1);  // 15.75 GB/s
  EXPECT_NEAR(pcie_bytes_per_s(4, 16), 16e9 * 128 / 130 * 2, 1);
  EXPECT_NEAR(pcie_bytes_per_s(5, 16), 32e9 * 128 / 130 * 2, 1);  // 63.0 GB/s
  EXPECT_NEAR(pcie_bytes_per_s(6, 8), 64e9 * 242 / 256, 1);
  for (const auto& [gen, width] : {std::pair{0, 16}, {7, 16}, {5, 0}, {5, 64}})
    EXPECT_EQ(pcie_bytes_per_s(gen, width), 0) << gen << " x" << width;
  // 1e5 cells a 200 kB copy: the link (63.0 GB/s) allows 31.5 GCUPS, below the integer pipes.
  const InstructionMix int32{"int32 cells", {{Pipe::int32, 8}}, 1, "cell", "INT32"};
  const Traffic copies{2e5, 1, "cells", "strings in, distances out", Traffic::Link::host};
  DeviceCaps d = gpus().at("H100");
  d.host_bytes_per_s = pcie_bytes_per_s(5, 16);
  Work w{"gcups", "GCUPS", 1e5, 1e9};
  w.set_limit(int32, copies, d);
  EXPECT_EQ(w.binds, "memory");
  EXPECT_EQ(w.peak_name, "host link bandwidth");
  EXPECT_NEAR(w.peak, 1e5 / 2e5 * pcie_bytes_per_s(5, 16) / 1e9, 1e-9);
  EXPECT_NE(w.peak_rule.find("; memory: 63.01538461538461 GB/s host link x 100000 cells / "),
            std::string::npos)
      << w.peak_rule;
  EXPECT_NEAR(recompute(w.peak_rule), w.peak, 1e-9 * w.peak);
  // DRAM's bandwidth is not the host link's: unknown there, the compute bound stands alone.
  Work alone{"gcups", "GCUPS", 1e5, 1e9};
  alone.set_limit(int32, copies, gpus().at("H100"));
  EXPECT_EQ(alone.binds, "compute");
  EXPECT_NE(alone.peak_rule.find("no memory bound: the host link's bandwidth is not known"),
            std::string::npos)
      << alone.peak_rule;
}

// Each pass may find up to the L2's size of its data there (a hot run leaves it): 8e9 bytes in
// five passes reach DRAM as 8e9 - 5 x 50 MiB; a point whose passes fit claims no memory bound.
// The host link has no such cache (HostLinkBound: the whole copy).
TEST(Limit, TheL2MayServePartOfEachPass) {
  Work w{"gflops", "GFLOP/s", 1.24e12, 1e9};
  w.set_limit(kTf32, {8e9, 5, "flops", "X read once"}, gpus().at("H100"));
  const double dram = 8e9 - 5 * 52428800.0;  // 7737856000
  EXPECT_NEAR(w.memory.peak, 1.24e12 / dram * 3352.32, 1e-3);  // 537,213
  EXPECT_EQ(w.memory.bytes, 8e9);
  EXPECT_EQ(w.memory.rule, "3352.32 GB/s DRAM x 1240000000000 flops / 7737856000 B (X read once: "
                           "8000000000 B in 5 passes, less the 52428800 B L2 for each)");
  EXPECT_EQ(w.binds, "compute");
  Work small{"gflops", "GFLOP/s", 1e9, 1e9};
  small.set_limit(kTf32, {1e8, 2, "flops", "X read once"}, gpus().at("H100"));
  EXPECT_FALSE(small.memory.known());
  EXPECT_EQ(small.binds, "compute");
  EXPECT_EQ(small.peak_rule, kH100Tf32 + "; no memory bound: the point's 100000000 B in 2 passes "
                                         "fit in the 52428800 B L2, which a hot run may serve "
                                         "them from");
}

// Covariance at the paper's shape (m = 202,599, n = 2475: 1.24 TFLOP for the triangle). Every
// GPU step's pipeline reads D twice (8 m n bytes), writes its copy of X and reads it back, and
// writes C (4 n^2): five passes, seven with a split copy. On an H100 that bounds the TF32 steps
// (the copy as X^T in floats, rows padded to 32 values: 534,573 GFLOP/s) a hair below the TF32
// tensor cores (535,265), and the FP16 steps (halves, rows padded to 64: 720,105) well below
// the FP16 ones (1,070,531); the 3x steps and the FP32 ones stay compute-bound.
TEST(Limit, CovariancePaperShape) {
  covariance::CovProblem p;  // work() needs the shape only
  p.m = 202599, p.n = 2475;
  const double m = 202599, n = 2475, ld32 = 202624, ld64 = 202624, l2 = 52428800;
  auto work = [&](const char* variant, const char* gpu_name) {
    const VariantSpec& v = *registry().variant(variant);
    return registry().study("covariance")->work(p, v, gpus().at(gpu_name));
  };
  const Work tf32 = work("covariance/wgmma_tf32", "H100");
  EXPECT_EQ(tf32.memory.bytes, 8 * m * n + 2 * 4 * n * ld32 + 4 * n * n);
  EXPECT_EQ(tf32.binds, "memory");
  EXPECT_NEAR(tf32.peak, 1241546931900 / (tf32.memory.bytes - 5 * l2) * 3352.32, 1e-3);
  EXPECT_NEAR(tf32.peak, 534572.76, 0.01);
  EXPECT_NE(tf32.peak_rule.find("(D read by the mean and centring stages, X^T written and read "
                                "back, C written: 8047917900 B in 5 passes, less the 52428800 B "
                                "L2 for each)"),
            std::string::npos)
      << tf32.peak_rule;
  // Step 12 in the 878f91f reference run: 169,415 GFLOP/s, 31.7% of the TF32 tensor cores'
  // peak and 32.8% of its limit.
  EXPECT_NEAR(100 * 169414.72 / tf32.compute.peak, 31.65, 0.01);
  EXPECT_NEAR(100 * 169414.72 / tf32.peak, 31.69, 0.01);
  const Work fp16 = work("covariance/wgmma_fp16", "H100");
  EXPECT_EQ(fp16.memory.bytes, 8 * m * n + 2 * 2 * n * ld64 + 4 * n * n);  // half the copy
  EXPECT_EQ(fp16.binds, "memory");
  EXPECT_NEAR(fp16.peak, 720105.41, 0.01);
  // Step 17 in the canonical reference: 290,812 GFLOP/s, 27.2% of the FP16 tensor cores' peak
  // and 40.4% of its limit.
  EXPECT_NEAR(100 * 290812 / fp16.peak, 40.38, 0.01);
  EXPECT_NE(fp16.peak_rule.find("X^T in FP16 written"), std::string::npos) << fp16.peak_rule;
  // The split layouts write two copies: X^T and its rounding errors.
  const Work split = work("covariance/wgmma_3xtf32", "H100");
  EXPECT_EQ(split.memory.bytes, 8 * m * n + 2 * 2 * 4 * n * ld32 + 4 * n * n);
  EXPECT_EQ(split.binds, "compute");
  EXPECT_EQ(work("covariance/wgmma_3xfp16", "H100").binds, "compute");
  EXPECT_EQ(work("covariance/mma_3xtf32", "H100").binds, "compute");  // one copy, split in-kernel
  EXPECT_EQ(work("covariance/mma_3xtf32", "H100").memory.bytes,
            8 * m * n + 2 * 4 * m * 2476 + 4 * n * n);  // rows padded to 4 floats
  EXPECT_EQ(work("covariance/register_blocked", "H100").binds, "compute");
  EXPECT_EQ(work("covariance/naive", "H100").memory.bytes, 8 * m * n + 2 * 4 * m * n + 4 * n * n);
  // An H200's 4.8 TB/s lifts the TF32 pipeline's memory bound above the tensor cores.
  EXPECT_EQ(work("covariance/wgmma_tf32", "H200").binds, "compute");
  EXPECT_EQ(work("covariance/wgmma_fp16", "H200").binds, "memory");
}

// Every GPU step of every study claims a memory bound; the CPU steps no limit at all.
TEST(Limit, EveryGpuStepCountsItsTraffic) {
  for (const auto& study : registry().studies()) {
    auto p = problem_of(study->name());
    for (const VariantSpec* v : registry().variants(study->name())) {
      DeviceCaps d = without_l2("H100");  // the test points would fit in its L2
      d.host_bytes_per_s = pcie_bytes_per_s(5, 16);  // EED's copies cross the host link
      const Work w = study->work(*p, *v, d);
      if (v->backend == Backend::cpu) {
        EXPECT_EQ(w.peak, 0) << v->id();
        EXPECT_TRUE(w.peak_reason.empty()) << v->id();
        continue;
      }
      EXPECT_GT(w.memory.bytes, 0) << v->id();
      EXPECT_TRUE(w.memory.known()) << v->id() << ": " << w.memory.reason;
      EXPECT_NE(w.binds, "") << v->id();
    }
  }
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
