// Every registered GPU step of every study against its study's sequential baseline, at the
// study's awkward test points (Study::test_points) and for every setting its ParamSpecs allow
// (choices, compiled sets, range ends). A new step or study is covered as soon as it
// registers. Without a CUDA device each test exits 77, which ctest reports as skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <variant>

#include "datagen/npy.hpp"
#include "datagen/points.hpp"
#include "gpu_test_support.hpp"
#include "harness/hardware.hpp"
#include "harness/study.hpp"
#include "harness/validation.hpp"
#include "variants/covariance/problem.hpp"

namespace ladder {
namespace {

// Values worth trying for one parameter: its default, its choices or compiled set, else the
// ends of its range and a prime between them.
std::vector<std::string> values_of(const ParamSpec& s) {
  std::vector<std::string> out{s.default_value};
  if (!s.choices.empty()) {
    out.insert(out.end(), s.choices.begin(), s.choices.end());
  } else if (s.kind == ParamSpec::Kind::integer) {
    for (double v : {s.min, 97.0, s.max})
      if (v >= s.min && v <= s.max) out.push_back(std::to_string(static_cast<long long>(v)));
  }
  std::vector<std::string> unique;
  for (const auto& v : out)
    if (!v.empty() && std::find(unique.begin(), unique.end(), v) == unique.end())
      unique.push_back(v);
  return unique;
}

// Every combination of the variant's parameter values when there are at most 64, else each
// parameter's values in turn with the others at their defaults.
std::vector<Params> settings(const VariantSpec& v) {
  std::vector<Params> all(1);
  for (const auto& spec : v.params) {
    std::vector<Params> next;
    for (const Params& base : all)
      for (const auto& value : values_of(spec)) {
        Params p = base;
        p.set(spec.name, value);
        next.push_back(p);
      }
    all = std::move(next);
  }
  if (all.size() <= 64) return all;
  std::vector<Params> one_at_a_time(1);
  for (const auto& spec : v.params)
    for (const auto& value : values_of(spec)) one_at_a_time.emplace_back().set(spec.name, value);
  return one_at_a_time;
}

// A test point's problem and its full reference, built once per program run and shared by
// every step of the study. Seeds are fresh each run (printed on failure).
struct Prepared {
  std::string label;
  std::unique_ptr<Problem> problem;
  std::vector<std::size_t> indices;
  std::vector<double> want;
};

const std::vector<Prepared>& prepared(const Study& study) {
  static std::map<std::string, std::vector<Prepared>> cache;
  auto& points = cache[study.name()];
  if (!points.empty() || study.generators().empty()) return points;
  const auto specs = study.data_params();
  const bool seeded = std::any_of(specs.begin(), specs.end(), [](auto& s) { return s.name == "seed"; });
  unsigned k = 0;
  for (Params p : study.test_points()) {
    if (seeded) p.set("seed", std::to_string(fresh_seed() + ++k));
    Prepared& pt = points.emplace_back();
    pt.label = p.key();
    pt.problem = study.make_problem(DataSource{study.generators().front(), ""},
                                    resolve(study, nullptr, p));
    pt.indices = validation_indices(Validation{}, study.output_size(*pt.problem), 0);
    pt.want = study.reference(*pt.problem, pt.indices);
  }
  return points;
}

std::vector<std::string> gpu_variants() {
  std::vector<std::string> out;
  for (const VariantSpec* v : registry().variants())
    if (v->backend == Backend::gpu) out.push_back(v->id());
  return out;
}

// Runs `v` once into a poisoned output and compares what it wrote with `want` at `idx`, at the
// study's tolerance for it.
ValidationResult run_checked(const Study& study, const VariantSpec& v, const Problem& prob,
                             const Params& params, const std::vector<std::size_t>& idx,
                             const std::vector<double>& want) {
  auto inst = v.prepare(prob, params, caps());
  inst->poison();
  inst->run_ms();
  return study.compare(prob, inst->fetch(), idx, want, study.tolerance(prob, v));
}

class GpuStep : public testing::TestWithParam<std::string> {
 protected:
  const VariantSpec& spec() const { return *registry().variant(GetParam()); }
  const Study& study() const { return *registry().study(spec().study); }
};

TEST_P(GpuStep, TestPointsEverySetting) {
  SCOPED_TRACE("seed " + std::to_string(fresh_seed()));
  if (prepared(study()).empty()) GTEST_SKIP() << "a study without a generator has no test points";
  std::size_t ran = 0;
  for (const Prepared& pt : prepared(study()))
    for (const Params& setting : settings(spec())) {
      const Params params = resolve(study(), &spec(), setting);
      const std::string why = spec().supports(*pt.problem, params, caps());
      if (!why.empty()) continue;  // a clear refusal; limits have their own tests
      const auto r = run_checked(study(), spec(), *pt.problem, params, pt.indices, pt.want);
      EXPECT_TRUE(r.ok) << pt.label << " " << setting.key() << ": " << r.first_failure;
      EXPECT_EQ(r.checked, study().output_size(*pt.problem)) << pt.label;
      ++ran;
    }
  EXPECT_GT(ran, 0u) << "no test point and setting could run";
}

// The default setting runs at the smallest test point: a step may refuse large or odd
// points, never the simplest one.
TEST_P(GpuStep, RunsTheFirstPointByDefault) {
  if (prepared(study()).empty()) GTEST_SKIP() << "a study without a generator has no test points";
  const Prepared& pt = prepared(study()).front();
  EXPECT_EQ(spec().supports(*pt.problem, resolve(study(), &spec(), Params{}), caps()), "")
      << pt.label;
}

// The poison is real: an instance that never runs must fail validation everywhere (at the
// last test point the step supports by default).
TEST_P(GpuStep, PoisonedOutputFails) {
  if (prepared(study()).empty()) GTEST_SKIP() << "a study without a generator has no test points";
  const Params params = resolve(study(), &spec(), Params{});
  const auto& points = prepared(study());
  auto it = std::find_if(points.rbegin(), points.rend(), [&](const Prepared& p) {
    return spec().supports(*p.problem, params, caps()).empty();
  });
  ASSERT_NE(it, points.rend()) << "no test point is supported";
  const Prepared& pt = *it;
  auto inst = spec().prepare(*pt.problem, params, caps());
  inst->poison();
  const auto r = study().compare(*pt.problem, inst->fetch(), pt.indices, pt.want,
                                 study().tolerance(*pt.problem, spec()));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, r.checked);
}

INSTANTIATE_TEST_SUITE_P(Registered, GpuStep, testing::ValuesIn(gpu_variants()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// Limits that depend on the device: beyond them a step is unsupported, never launched.
TEST(GpuLimits, BeyondTheDeviceIsUnsupported) {
  const Study& dtw = *registry().study("dtw");
  auto make = [&](int n, int entries) {
    Params p;
    p.set("n", std::to_string(n));
    p.set("entries", std::to_string(entries));
    return dtw.make_problem(DataSource{"cbf", ""}, resolve(dtw, nullptr, p));
  };
  const VariantSpec& shared = *registry().variant("dtw/shared");
  Params block;
  block.set("block_size", "64");  // 64 * 2 * 1025 * 4 bytes = 512 KiB > any SM
  EXPECT_NE(shared.supports(*make(1024, 4), resolve(dtw, &shared, block), caps()), "");
  auto longer = make(1025, 2);
  for (const char* id : {"dtw/thread_local", "dtw/warp_shuffle"}) {
    const VariantSpec& v = *registry().variant(id);
    EXPECT_NE(v.supports(*longer, resolve(dtw, &v, Params{}), caps()), "") << id;
  }
}

// The mean stage of every covariance step covers any m: past 65535 chunks of rows the grid's
// y dimension would overflow (m > 67,107,840), so its blocks loop over chunks. Checked through
// register_blocked split 32 ways: a single FP32 sum over all m rows (the naive steps) loses
// too much at this m to tell a wrong mean from rounding.
TEST(GpuLimits, CovarianceMeanBeyondTheGridsYDimension) {
  const Study& cov = *registry().study("covariance");
  Params p;
  p.set("m", "67200001");
  p.set("n", "1");
  p.set("seed", std::to_string(fresh_seed()));
  auto prob = cov.make_problem(DataSource{"components", ""}, resolve(cov, nullptr, p));
  const VariantSpec& v = *registry().variant("covariance/register_blocked");
  Params split;
  split.set("split", "32");
  const Params params = resolve(cov, &v, split);
  ASSERT_EQ(v.supports(*prob, params, caps()), "");
  const std::vector<std::size_t> idx{0};
  const auto r = run_checked(cov, v, *prob, params, idx, cov.reference(*prob, idx));
  EXPECT_TRUE(r.ok) << r.first_failure;
}

// Every covariance GPU step on features far from the generator's scale: all tiny, all huge,
// spread over 2^+-20 within one matrix, and every third one constant (its centred values are
// the mean's rounding alone). FP16 holds values only between about 6e-5 and 65504, so the FP16
// steps (17-18) must scale each feature by its own power of two and back; the others must hold
// up too. The data is the generator's, changed per feature, through a .npy.
TEST(GpuLimits, CovarianceFeaturesOfAnyScale) {
  const Study& cov = *registry().study("covariance");
  Params gen;
  gen.set("m", "1000");
  gen.set("n", "131");
  gen.set("seed", std::to_string(fresh_seed()));
  const auto base = cov.make_problem(DataSource{"components", ""}, resolve(cov, nullptr, gen));
  const auto& b = problem_as<covariance::CovProblem>(*base);
  // value, feature -> the value written
  const std::map<std::string, std::function<double(double, std::int64_t)>> changes = {
      {"tiny", [](double v, std::int64_t) { return v * 1e-12; }},
      {"huge", [](double v, std::int64_t) { return v * 1e12; }},
      {"spread", [](double v, std::int64_t j) { return std::ldexp(v, int(j % 41) - 20); }},
      {"constant", [](double v, std::int64_t j) { return j % 3 == 0 ? 0.1 * double(j + 1) : v; }}};
  for (const auto& [name, change] : changes) {
    std::vector<float> values(b.data.size());
    for (std::size_t e = 0; e < values.size(); ++e)
      values[e] = float(change(double(b.data[e]), std::int64_t(e % std::size_t(b.n))));
    const std::string path = testing::TempDir() + "/scaled_" + name + ".npy";
    write_npy(path, Output{values, {std::size_t(b.m), std::size_t(b.n)}});
    const auto prob = cov.make_problem(DataSource{"", path}, resolve(cov, nullptr, Params{}));
    const auto idx = validation_indices(Validation{}, cov.output_size(*prob), 0);
    const auto want = cov.reference(*prob, idx);
    for (const VariantSpec* v : registry().variants()) {
      if (v->study != "covariance" || v->backend != Backend::gpu) continue;
      const Params params = resolve(cov, v, Params{});
      if (!v->supports(*prob, params, caps()).empty()) continue;
      const auto r = run_checked(cov, *v, *prob, params, idx, want);
      EXPECT_TRUE(r.ok) << name << " " << v->id() << ": " << r.first_failure;
    }
  }
}

// The FP16 peer reads step 17's operands: the same scaled halves of X^T, multiplied exactly
// and added in FP32 by both, scaled back alike. Their outputs then agree to FP32's rounding of
// the sums (the FP32 tolerance), well inside the FP16 tolerance each is validated with against
// FP64; a peer that read other operands, or scaled back otherwise, would not. Features spread
// over 2^+-4 give them different powers of two.
TEST(GpuLimits, CovarianceFp16PeerAgreesWithStep17) {
  const Study& cov = *registry().study("covariance");
  const VariantSpec& step = *registry().variant("covariance/wgmma_fp16");
  const VariantSpec& peer = *registry().variant("covariance/cublaslt_fp16");
  for (Feature f : step.needs)
    if (!missing_feature(f, caps()).empty()) GTEST_SKIP() << missing_feature(f, caps());
  Params gen;
  gen.set("m", "1000");
  gen.set("n", "257");
  gen.set("seed", std::to_string(fresh_seed()));
  const auto base = cov.make_problem(DataSource{"components", ""}, resolve(cov, nullptr, gen));
  const auto& b = problem_as<covariance::CovProblem>(*base);
  std::vector<float> values(b.data);
  for (std::size_t e = 0; e < values.size(); ++e)
    values[e] = std::ldexp(values[e], int(e % std::size_t(b.n)) % 9 - 4);
  const std::string path = testing::TempDir() + "/fp16_peer.npy";
  write_npy(path, Output{values, {std::size_t(b.m), std::size_t(b.n)}});
  const auto prob = cov.make_problem(DataSource{"", path}, resolve(cov, nullptr, Params{}));
  const auto output = [&](const VariantSpec& v) {
    const Params params = resolve(cov, &v, Params{});
    EXPECT_EQ(v.supports(*prob, params, caps()), "") << v.id();
    auto inst = v.prepare(*prob, params, caps());
    inst->poison();
    inst->run_ms();
    return inst->fetch();
  };
  const Output want_out = output(step), got = output(peer);
  const auto& want_f = std::get<std::vector<float>>(want_out.data);
  const std::vector<double> want(want_f.begin(), want_f.end());
  const auto idx = validation_indices(Validation{}, cov.output_size(*prob), 0);
  ASSERT_EQ(idx.size(), want.size());
  const Tolerance fp32 = cov.tolerance(*prob, *registry().variant("covariance/cublas_ssyrk"));
  const auto r = cov.compare(*prob, got, idx, want, fp32);
  EXPECT_TRUE(r.ok) << r.first_failure;
  EXPECT_LT(fp32.abs, cov.tolerance(*prob, peer).abs / 10);  // the check is the tighter one
}

// Every skyline GPU step at every d a point may have (1-64), on 31 points (fewer than a warp)
// and 257 (one past a tile of the default 256 threads), rounded to one decimal (ties in every
// attribute, duplicates at small d), validated in full. The seed's forms of the nested loop
// (steps 12-15) take d at run time, and ALR's pads only even d, so every d is a case of its
// own; ladder's forms cover it by compiled widths. A step may refuse a d only with a reason,
// the seed's forms never at their default setting.
TEST(GpuLimits, SkylineEveryDimension) {
  const Study& sky = *registry().study("skyline");
  for (int d = 1; d <= kMaxPointDims; ++d)
    for (const char* n : {"31", "257"}) {
      Params p;
      p.set("n", n);
      p.set("d", std::to_string(d));
      p.set("distribution", "anticorrelated");
      p.set("decimals", "1");
      p.set("seed", std::to_string(fresh_seed() + unsigned(d)));
      const auto prob = sky.make_problem(DataSource{"bks", ""}, resolve(sky, nullptr, p));
      const auto idx = validation_indices(Validation{}, sky.output_size(*prob), 0);
      const auto want = sky.reference(*prob, idx);
      for (const VariantSpec* v : registry().variants("skyline")) {
        if (v->backend != Backend::gpu) continue;
        const Params params = resolve(sky, v, Params{});
        const std::string why = v->supports(*prob, params, caps());
        const std::string at = v->id() + " n=" + n + " d=" + std::to_string(d);
        if (!why.empty()) {
          EXPECT_FALSE(v->name.ends_with("_seed")) << at << ": " << why;
          continue;
        }
        const auto r = run_checked(sky, *v, *prob, params, idx, want);
        EXPECT_TRUE(r.ok) << at << ": " << r.first_failure;
      }
    }
}

// A DTW step either honours a Sakoe-Chiba band (checked by TestPointsEverySetting) or says
// that it does not.
TEST(GpuLimits, BandOrAClearRefusal) {
  const Study& dtw = *registry().study("dtw");
  Params p;
  p.set("n", "37");
  p.set("entries", "5");
  p.set("band", "3");
  auto banded = dtw.make_problem(DataSource{"cbf", ""}, resolve(dtw, nullptr, p));
  for (const VariantSpec* v : registry().variants("dtw")) {
    const std::string why = v->supports(*banded, resolve(dtw, v, Params{}), caps());
    if (!why.empty()) EXPECT_NE(why.find("band"), std::string::npos) << v->id() << ": " << why;
  }
}

}  // namespace
}  // namespace ladder
