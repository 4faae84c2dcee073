// The covariance study: generator, .npy import, baseline and the CPU steps against a
// straightforward double-precision covariance; what the GPU steps and peers declare.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <fstream>
#include <string>
#include <utility>

#include "datagen/base/errors.hpp"
#include "datagen/npy.hpp"
#include "harness/hardware.hpp"
#include "harness/study.hpp"
#include "variants/covariance/problem.hpp"

namespace ladder::covariance {
namespace {

std::unique_ptr<Problem> generated(std::int64_t m, std::int64_t n, int seed = 3) {
  Params p;
  p.set("m", std::to_string(m));
  p.set("n", std::to_string(n));
  p.set("seed", std::to_string(seed));
  const Study& study = *registry().study("covariance");
  return study.make_problem(DataSource{"components", ""}, resolve(study, nullptr, p));
}

// C[i][j] straight from the definition, in double.
double direct(const CovProblem& p, std::int64_t i, std::int64_t j) {
  double mi = 0, mj = 0;
  for (std::int64_t r = 0; r < p.m; ++r) mi += p.row(r)[i], mj += p.row(r)[j];
  mi /= p.m;
  mj /= p.m;
  double s = 0;
  for (std::int64_t r = 0; r < p.m; ++r) s += (p.row(r)[i] - mi) * (p.row(r)[j] - mj);
  return s / p.m;
}

TEST(CovData, DeterministicAndStructured) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  auto a = generated(301, 37);
  omp_set_num_threads(3);
  auto b = generated(301, 37);
  omp_set_num_threads(saved);
  const auto& pa = problem_as<CovProblem>(*a);
  EXPECT_EQ(pa.data, problem_as<CovProblem>(*b).data);
  EXPECT_NE(pa.data, problem_as<CovProblem>(*generated(301, 37, 4)).data);
  // non-zero means, and strong correlations from the shared components
  double mean_abs = 0;
  for (double v : pa.mean) mean_abs += std::fabs(v);
  EXPECT_GT(mean_abs / pa.n, 0.1);
  double strongest = 0;
  for (std::int64_t j = 1; j < pa.n; ++j) {
    const double c = direct(pa, 0, j) / std::sqrt(direct(pa, 0, 0) * direct(pa, j, j));
    strongest = std::max(strongest, std::fabs(c));
  }
  EXPECT_GT(strongest, 0.3);
}

TEST(CovBaseline, ReferenceMatchesDefinition) {
  auto prob = generated(53, 11);
  const auto& p = problem_as<CovProblem>(*prob);
  const Study& study = *registry().study("covariance");
  std::vector<std::size_t> idx{0, 12, 5 * 11 + 3, 120};
  auto ref = study.reference(*prob, idx);
  for (std::size_t k = 0; k < idx.size(); ++k)
    EXPECT_NEAR(ref[k], direct(p, idx[k] / 11, idx[k] % 11), 1e-12);
  double max_var = 0;
  for (int j = 0; j < 11; ++j) max_var = std::max(max_var, direct(p, j, j));
  EXPECT_NEAR(p.max_variance, max_var, 1e-12);
}

TEST(CovCpuSteps, MatchDefinitionAtAwkwardShapes) {
  for (const char* id : {"covariance/seq", "covariance/openmp"})
    for (std::int64_t m : {1, 7, 100})
      for (std::int64_t n : {1, 13, 33}) {
        auto prob = generated(m, n);
        const auto& p = problem_as<CovProblem>(*prob);
        const VariantSpec& v = *registry().variant(id);
        const Params params = resolve(*registry().study("covariance"), &v, Params{});
        ASSERT_EQ(v.supports(p, params, DeviceCaps{}), "");
        auto inst = v.prepare(p, params, DeviceCaps{});
        inst->poison();
        inst->run_ms();
        Output out = inst->fetch();
        ASSERT_EQ(out.size(), std::size_t(n * n));
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < n; ++j)
            ASSERT_NEAR(out.at(i * n + j), direct(p, i, j), 1e-5 * (1 + std::fabs(direct(p, i, j))))
                << id << " m=" << m << " n=" << n << " (" << i << "," << j << ")";
      }
}

std::string npy_path(const std::string& name, const Output& o) {
  const std::string path = testing::TempDir() + "/" + name;
  write_npy(path, o);
  return path;
}

TEST(CovData, NpyImportAndItsErrors) {
  const Study& study = *registry().study("covariance");
  auto load = [&](const std::string& path) {
    return study.make_problem(DataSource{"", path}, resolve(study, nullptr, Params{}));
  };
  auto prob = load(npy_path("ok.npy", Output{std::vector<double>{1, 2, 3, 4, 5, 7}, {3, 2}}));
  const auto& p = problem_as<CovProblem>(*prob);
  EXPECT_EQ(p.m, 3);
  EXPECT_EQ(p.n, 2);
  EXPECT_NEAR(p.mean[1], 13.0 / 3, 1e-12);  // column 1 holds 2, 4, 7
  EXPECT_THROW(load(npy_path("rank1.npy", Output{std::vector<float>{1, 2, 3}, {3}})), InputError);
  EXPECT_THROW(load(npy_path("empty.npy", Output{std::vector<float>{}, {0, 4}})), InputError);
  EXPECT_THROW(load(npy_path("ints.npy", Output{std::vector<std::int64_t>{1, 2}, {1, 2}})),
               InputError);
  EXPECT_THROW(load(npy_path("nan.npy", Output{std::vector<float>{1, NAN}, {1, 2}})), InputError);
  EXPECT_THROW(load("/nonexistent.npy"), InputError);
  Params with_n;
  with_n.set("n", "2");
  EXPECT_THROW(study.make_problem(DataSource{"", testing::TempDir() + "/ok.npy"},
                                  resolve(study, nullptr, with_n)),
               InputError);
}

TEST(CovStudy, WorkAndTolerance) {
  auto prob = generated(1000, 10);
  const Study& study = *registry().study("covariance");
  const VariantSpec& v = *registry().variant("covariance/naive");
  DeviceCaps d;
  d.present = true;
  d.cc_major = 9;
  d.sm_count = 132;
  d.clock_khz = 1980000;
  Work w = study.work(*prob, v, d);
  EXPECT_DOUBLE_EQ(w.amount, 2.0 * 1000 * 10 * 11 / 2);
  EXPECT_NEAR(w.peak, 2 * 128 * 132 * 1.98, 1e-6);
  Tolerance t = study.tolerance(*prob, v);
  EXPECT_GT(t.rel, 0);
  EXPECT_LT(t.rel, 1e-3);
}

// A peer records what the library ran, which sets its tolerance, its limit and the class the
// report holds it in: the FP16 GEMM is step 17's like (FP16, its tolerance and FP16 tensor
// limit, the FP16 layout's device memory), and SSYRK asked for TF32 is FP32 SSYRK on Hopper
// (FP32, step 7's tolerance and limit, and a label that says both).
TEST(CovPeers, PrecisionIsWhatTheLibraryRan) {
  auto prob = generated(1000, 100);
  const Study& study = *registry().study("covariance");
  DeviceCaps d;
  d.present = true;
  d.cc_major = 9;
  d.sm_count = 132;
  d.clock_khz = 1980000;
  d.smem_per_block_optin = 227 * 1024;
  const auto same_footing = [&](const char* peer_id, const char* like_id, Precision precision) {
    const VariantSpec& peer = *registry().variant(peer_id);
    const VariantSpec& like = *registry().variant(like_id);
    EXPECT_EQ(peer.role, Role::peer) << peer_id;
    EXPECT_EQ(peer.precision, precision) << peer_id;
    EXPECT_EQ(like.precision, precision) << like_id;
    const Tolerance t = study.tolerance(*prob, peer), want = study.tolerance(*prob, like);
    EXPECT_EQ(t.abs, want.abs) << peer_id;
    EXPECT_EQ(t.rel, want.rel) << peer_id;
    EXPECT_EQ(t.rule, want.rule) << peer_id;
    const Work w = study.work(*prob, peer, d), want_w = study.work(*prob, like, d);
    EXPECT_EQ(w.peak_name, want_w.peak_name) << peer_id;
    EXPECT_DOUBLE_EQ(w.peak, want_w.peak) << peer_id;
  };
  same_footing("covariance/cublaslt_fp16", "covariance/wgmma_fp16", Precision::fp16);
  same_footing("covariance/cublas_ssyrk_tf32", "covariance/cublas_ssyrk", Precision::fp32);
  EXPECT_EQ(registry().variant("covariance/cublas_ssyrk_tf32")->label,
            "cuBLAS SSYRK, TF32 asked (runs FP32)");
  const VariantSpec& fp16 = *registry().variant("covariance/cublaslt_fp16");
  EXPECT_EQ(fp16.label, "cuBLASLt GEMM, FP16 in, FP32 accumulate");
  EXPECT_EQ(fp16.step, 19);
  EXPECT_TRUE(fp16.needs.empty());  // cuBLAS, not sm_90a code: any device with FP16 tensor cores

  // Device memory: the FP16 layout's X^T (half of the FP32 copy) beside the data and C, and
  // the search's workspace; the data alone is refused.
  const auto& p = problem_as<CovProblem>(*prob);
  const Params params = resolve(study, &fp16, Params{});
  d.global_mem_free = std::size_t(80) << 30;
  EXPECT_EQ(fp16.supports(p, params, d), "");
  d.global_mem_free = std::size_t(p.m * p.n * 4);
  EXPECT_NE(fp16.supports(p, params, d), "");
}

// The wgmma steps are built for sm_90a alone: they need Feature::wgmma_tma, which any other
// compute capability lacks (the runner then reports the reason, not a launch); a 9.0 device
// with room runs them. Their device memory counts X^T's copies.
TEST(CovWgmmaSteps, NeedComputeCapability90) {
  auto prob = generated(1000, 100);
  const auto& p = problem_as<CovProblem>(*prob);
  DeviceCaps caps;
  caps.present = true;
  caps.sm_count = 132;
  caps.smem_per_block_optin = 227 * 1024;
  caps.global_mem_free = std::size_t(80) << 30;
  for (const char* id : {"covariance/wgmma_tf32", "covariance/wgmma_3xtf32",
                         "covariance/wgmma_fp16", "covariance/wgmma_3xfp16"}) {
    const VariantSpec& v = *registry().variant(id);
    const Params params = resolve(*registry().study("covariance"), &v, Params{});
    for (auto [major, minor] : {std::pair{8, 0}, {8, 9}, {10, 0}, {12, 0}}) {
      caps.cc_major = major;
      caps.cc_minor = minor;
      ASSERT_EQ(v.needs, std::vector<Feature>{Feature::wgmma_tma}) << id;
      EXPECT_NE(missing_feature(Feature::wgmma_tma, caps).find("compute capability 9.0"),
                std::string::npos)
          << id << " on " << major << "." << minor;
    }
    caps.cc_major = 9;
    caps.cc_minor = 0;
    EXPECT_EQ(missing_feature(Feature::wgmma_tma, caps), "") << id;
    EXPECT_EQ(v.supports(p, params, caps), "") << id;
    caps.smem_per_block_optin = 96 * 1024;  // the four-stage ring does not fit
    EXPECT_NE(v.supports(p, params, caps), "") << id;
    caps.smem_per_block_optin = 227 * 1024;
    caps.global_mem_free = 1000 * 100 * 4;  // the data alone
    EXPECT_NE(v.supports(p, params, caps), "") << id;
    caps.global_mem_free = std::size_t(80) << 30;
  }
}

}  // namespace
}  // namespace ladder::covariance
