// Every DTW GPU step against the sequential baseline on fresh CBF data at awkward sizes.
// Without a CUDA device the program exits 77, which ctest reports as skipped.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "harness/study.hpp"
#include "harness/validation.hpp"
#include "variants/dtw/problem.hpp"

namespace ladder::dtw {
namespace {

DeviceCaps caps() {
  DeviceCaps d;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  d.present = true;
  d.sm_count = prop.multiProcessorCount;
  d.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  std::size_t total = 0;
  cudaMemGetInfo(&d.global_mem_free, &total);
  return d;
}

unsigned fresh_seed() {
  static const unsigned seed = std::random_device{}();
  return seed;
}

std::unique_ptr<Problem> make(std::int64_t n, std::int64_t entries, const char* noise) {
  Params p;
  p.set("n", std::to_string(n));
  p.set("entries", std::to_string(entries));
  p.set("seed", std::to_string(fresh_seed() + n * 7919 + entries));
  p.set("noise", noise);
  p.set("query", std::to_string(entries / 2));
  return registry().study("dtw")->make_problem(DataSource{"cbf", ""}, p);
}

// Runs `id` on the problem and validates every output; returns the check.
ValidationResult run_and_check(const std::string& id, const Problem& prob, const Params& params) {
  const Study& study = *registry().study("dtw");
  const VariantSpec& v = *registry().variant(id);
  EXPECT_EQ(v.supports(prob, params, caps()), "") << id;
  auto inst = v.prepare(prob, params);
  inst->poison();
  inst->run_ms();
  Output out = inst->fetch();
  Validation full;
  auto idx = validation_indices(full, study.output_size(prob), 0);
  return compare_outputs(out, study.output_size(prob), idx, study.reference(prob, idx),
                         study.tolerance(prob, v));
}

class GpuStep : public testing::TestWithParam<std::string> {};

TEST_P(GpuStep, AwkwardSizes) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  for (std::int64_t n : {1, 2, 31, 32, 33, 127, 128, 129, 200})
    for (std::int64_t entries : {1, 31, 1000, 4099}) {
      auto prob = make(n, entries, "uniform");
      auto r = run_and_check("dtw/" + GetParam(), *prob, Params{});
      EXPECT_TRUE(r.ok) << "n=" << n << " entries=" << entries << ": " << r.first_failure;
      EXPECT_EQ(r.checked, static_cast<std::size_t>(entries));
    }
}

TEST_P(GpuStep, BlockSizesAndGaussianData) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  auto prob = make(67, 1237, "gaussian");
  for (int block : {1, 32, 97, 256}) {
    Params params;
    params.set("block_size", std::to_string(block));
    auto r = run_and_check("dtw/" + GetParam(), *prob, params);
    EXPECT_TRUE(r.ok) << "block_size=" << block << ": " << r.first_failure;
  }
}

// The poison is real: an instance that never runs must fail validation.
TEST_P(GpuStep, PoisonedOutputFails) {
  auto prob = make(16, 40, "uniform");
  const Study& study = *registry().study("dtw");
  const VariantSpec& v = *registry().variant("dtw/" + GetParam());
  auto inst = v.prepare(*prob, Params{});
  inst->poison();
  Validation full;
  auto idx = validation_indices(full, 40, 0);
  auto r = compare_outputs(inst->fetch(), 40, idx, study.reference(*prob, idx),
                           study.tolerance(*prob, v));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 40u);
}

TEST(GpuLimits, SharedMemoryBeyondTheDeviceIsUnsupported) {
  auto prob = make(1024, 4, "uniform");
  Params params;
  params.set("block_size", "64");  // 64 * 2 * 1025 * 4 bytes = 512 KiB > any SM
  EXPECT_NE(registry().variant("dtw/shared")->supports(*prob, params, caps()), "");
  auto longer = make(1025, 2, "uniform");
  EXPECT_NE(registry().variant("dtw/thread_local")->supports(*longer, Params{}, caps()), "");
}

INSTANTIATE_TEST_SUITE_P(Dtw, GpuStep, testing::Values("naive", "thread_local", "shared"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ladder::dtw

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: GPU tests skipped\n");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
