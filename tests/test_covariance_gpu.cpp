// Every registered covariance GPU step against the FP64 baseline at awkward shapes, for every
// value of its parameters, with the step's own tolerance.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>

#include "gpu_test_support.hpp"
#include "harness/study.hpp"
#include "harness/validation.hpp"
#include "variants/covariance/problem.hpp"

namespace ladder::cov {
namespace {


std::unique_ptr<Problem> make(std::int64_t m, std::int64_t n) {
  Params p;
  p.set("m", std::to_string(m));
  p.set("n", std::to_string(n));
  p.set("seed", std::to_string(fresh_seed() + m * 31 + n));
  return registry().study("covariance")->make_problem(DataSource{"components", ""}, p);
}

ValidationResult run_and_check(const VariantSpec& v, const Problem& prob, const Params& params) {
  const Study& study = *registry().study("covariance");
  EXPECT_EQ(v.supports(prob, params, caps()), "") << v.id() << " " << params.key();
  auto inst = v.prepare(prob, params);
  inst->poison();
  inst->run_ms();
  Validation full;
  auto idx = validation_indices(full, study.output_size(prob), 0);
  return compare_outputs(inst->fetch(), study.output_size(prob), idx, study.reference(prob, idx),
                         study.tolerance(prob, v));
}

const ParamSpec* param(const VariantSpec& v, const std::string& name) {
  for (const auto& p : v.params)
    if (p.name == name) return &p;
  return nullptr;
}

// The defaults, then every choice of every text parameter one at a time, then every compiled
// chunk size with each combination of the early exits.
std::vector<Params> settings(const VariantSpec& v) {
  std::vector<Params> out(1);
  for (const auto& p : v.params)
    for (const auto& c : p.choices) out.emplace_back().set(p.name, c);
  if (param(v, "chunk_size"))
    for (const char* chunk : {"2", "4", "8", "16", "32"})
      for (const char* be : {"on", "off"})
        for (const char* te : {"on", "off"}) {
          Params p;
          p.set("chunk_size", chunk);
          if (param(v, "block_exit")) p.set("block_exit", be);
          if (param(v, "thread_exit")) p.set("thread_exit", te);
          out.push_back(p);
        }
  return out;
}

std::vector<std::string> gpu_steps() {
  std::vector<std::string> out;
  for (const VariantSpec* v : registry().variants("covariance"))
    if (v->backend == Backend::gpu) out.push_back(v->name);
  return out;
}

class CovGpuStep : public testing::TestWithParam<std::string> {
 protected:
  const VariantSpec& spec() const { return *registry().variant("covariance/" + GetParam()); }
};

TEST_P(CovGpuStep, AwkwardShapesEverySetting) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  for (std::int64_t m : {1, 7, 1000})
    for (std::int64_t n : {1, 31, 33, 100}) {
      auto prob = make(m, n);
      for (const Params& params : settings(spec())) {
        auto r = run_and_check(spec(), *prob, params);
        EXPECT_TRUE(r.ok) << "m=" << m << " n=" << n << " " << params.key() << ": "
                          << r.first_failure;
        EXPECT_EQ(r.checked, std::size_t(n * n));
      }
    }
}

TEST_P(CovGpuStep, PoisonedOutputFails) {
  auto prob = make(10, 9);
  const Study& study = *registry().study("covariance");
  auto inst = spec().prepare(*prob, Params{});
  inst->poison();
  Validation full;
  auto idx = validation_indices(full, 81, 0);
  auto r = compare_outputs(inst->fetch(), 81, idx, study.reference(*prob, idx),
                           study.tolerance(*prob, spec()));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 81u);
}

TEST(CovGpuLimits, ChunkSizeOutsideTheCompiledSetIsUnsupported) {
  const VariantSpec* tiled = registry().variant("covariance/tiled");
  if (!tiled) GTEST_SKIP() << "no tiled step registered";
  auto prob = make(10, 10);
  Params p;
  p.set("chunk_size", "3");
  EXPECT_NE(tiled->supports(*prob, p, caps()), "");
}

INSTANTIATE_TEST_SUITE_P(Cov, CovGpuStep, testing::ValuesIn(gpu_steps()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ladder::cov
