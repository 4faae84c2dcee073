// Every registered DTW GPU step against the sequential baseline on fresh CBF data at awkward
// sizes, with the step's own tolerance. New steps are covered as soon as they register.
// Without a CUDA device each test exits 77, which ctest reports as skipped.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu_test_support.hpp"
#include "harness/study.hpp"
#include "harness/validation.hpp"
#include "variants/dtw/problem.hpp"

namespace ladder::dtw {
namespace {


struct Shape {
  std::int64_t n, entries;
  int queries = 1;
  int band = -1;  // -1: unconstrained
  const char* noise = "uniform";
};

std::unique_ptr<Problem> make(const Shape& s) {
  Params p;
  p.set("n", std::to_string(s.n));
  p.set("entries", std::to_string(s.entries));
  p.set("seed", std::to_string(fresh_seed() + s.n * 7919 + s.entries));
  p.set("noise", s.noise);
  p.set("query", std::to_string((s.entries - s.queries) / 2));
  p.set("queries", std::to_string(s.queries));
  if (s.band >= 0) p.set("band", std::to_string(s.band));
  return registry().study("dtw")->make_problem(DataSource{"cbf", ""}, p);
}

// Runs `id` on the problem and validates every output against the baseline.
ValidationResult run_and_check(const VariantSpec& v, const Problem& prob, const Params& params) {
  const Study& study = *registry().study("dtw");
  EXPECT_EQ(v.supports(prob, params, caps()), "") << v.id();
  auto inst = v.prepare(prob, params);
  inst->poison();
  inst->run_ms();
  Output out = inst->fetch();
  Validation full;
  auto idx = validation_indices(full, study.output_size(prob), 0);
  return compare_outputs(out, study.output_size(prob), idx, study.reference(prob, idx),
                         study.tolerance(prob, v));
}

bool has_param(const VariantSpec& v, const std::string& name) {
  for (const auto& p : v.params)
    if (p.name == name) return true;
  return false;
}

std::vector<std::string> gpu_steps() {
  std::vector<std::string> out;
  for (const VariantSpec* v : registry().variants("dtw"))
    if (v->backend == Backend::gpu) out.push_back(v->name);
  return out;
}

class GpuStep : public testing::TestWithParam<std::string> {
 protected:
  const VariantSpec& spec() const { return *registry().variant("dtw/" + GetParam()); }
};

TEST_P(GpuStep, AwkwardSizes) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  for (std::int64_t n : {1, 2, 31, 32, 33, 127, 128, 129, 200})
    for (std::int64_t entries : {1, 31, 1000, 4099}) {
      auto prob = make({n, entries});
      auto r = run_and_check(spec(), *prob, Params{});
      EXPECT_TRUE(r.ok) << "n=" << n << " entries=" << entries << ": " << r.first_failure;
      EXPECT_EQ(r.checked, static_cast<std::size_t>(entries));
    }
}

TEST_P(GpuStep, MultiQueryGaussianData) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  auto prob = make({45, 301, 5, -1, "gaussian"});
  auto r = run_and_check(spec(), *prob, Params{});
  EXPECT_TRUE(r.ok) << r.first_failure;
  EXPECT_EQ(r.checked, 5u * 301u);
}

TEST_P(GpuStep, BandOrAClearRefusal) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  for (std::int64_t n : {1, 37, 130})
    for (int band : {0, 3, 50}) {
      auto prob = make({n, 257, 2, band});
      const std::string why = spec().supports(*prob, Params{}, caps());
      if (!why.empty() && problem_as<DtwProblem>(*prob).banded()) {
        EXPECT_NE(why.find("band"), std::string::npos) << why;
        continue;
      }
      auto r = run_and_check(spec(), *prob, Params{});
      EXPECT_TRUE(r.ok) << "n=" << n << " band=" << band << ": " << r.first_failure;
    }
}

TEST_P(GpuStep, ParameterValues) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  auto prob = make({67, 1237, 1, -1, "gaussian"});
  std::vector<Params> settings;
  for (const char* block : {"1", "32", "97", "256"})
    if (has_param(spec(), "block_size")) settings.emplace_back().set("block_size", block);
  for (const char* lanes : {"4", "8", "16", "32"})
    if (has_param(spec(), "lanes")) settings.emplace_back().set("lanes", lanes);
  for (const Params& params : settings) {
    auto r = run_and_check(spec(), *prob, params);
    EXPECT_TRUE(r.ok) << params.key() << ": " << r.first_failure;
  }
}

// The poison is real: an instance that never runs must fail validation.
TEST_P(GpuStep, PoisonedOutputFails) {
  auto prob = make({16, 40});
  const Study& study = *registry().study("dtw");
  auto inst = spec().prepare(*prob, Params{});
  inst->poison();
  Validation full;
  auto idx = validation_indices(full, 40, 0);
  auto r = compare_outputs(inst->fetch(), 40, idx, study.reference(*prob, idx),
                           study.tolerance(*prob, spec()));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 40u);
}

TEST(GpuLimits, BeyondTheDeviceIsUnsupported) {
  auto prob = make({1024, 4});
  Params params;
  params.set("block_size", "64");  // 64 * 2 * 1025 * 4 bytes = 512 KiB > any SM
  EXPECT_NE(registry().variant("dtw/shared")->supports(*prob, params, caps()), "");
  auto longer = make({1025, 2});
  for (const char* id : {"dtw/thread_local", "dtw/warp_shuffle"})
    EXPECT_NE(registry().variant(id)->supports(*longer, Params{}, caps()), "") << id;
}

INSTANTIATE_TEST_SUITE_P(Dtw, GpuStep, testing::ValuesIn(gpu_steps()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ladder::dtw
