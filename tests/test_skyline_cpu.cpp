// The skyline CPU steps: every CPU step of the registry against a brute-force oracle written
// here (its own dominance test, not problem.hpp's) on generated sets of every size, dimension,
// distribution, rounding and shape, with fresh seeds each run, and on hand-made edge cases
// (duplicates, copies of the minimum, ties in one attribute, negative values, signed zeros,
// float32's extremes); the study's reference (full and sampled), compare (missing, extra,
// invalid flags, wrong length, poison), dump form and extras; dominates() against the oracle;
// and the sort-filter order (a dominator always first).
//
// The seeds are fresh each run and printed with every failure; LADDER_TEST_SEED=S reruns a
// failing run exactly.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness/study.hpp"
#include "harness/validation.hpp"
#include "variants/skyline/problem.hpp"

namespace ladder::skyline {
namespace {

// --- the oracle ----------------------------------------------------------------------------

// p dominates q: p <= q in every attribute and p < q in at least one. Written without early
// exits or shared code, so that it cannot share a bug with problem.hpp's dominates().
bool oracle_dominates(const float* p, const float* q, int d) {
  int not_worse = 0, better = 0;
  for (int k = 0; k < d; ++k) {
    not_worse += p[k] <= q[k] ? 1 : 0;
    better += p[k] < q[k] ? 1 : 0;
  }
  return not_worse == d && better > 0;
}

// Membership by brute force, O(n^2 d): a point is in the skyline when no other point
// dominates it.
std::vector<std::int32_t> oracle(const PointSet& pts) {
  std::vector<std::int32_t> member(std::size_t(pts.n), 1);
  for (std::int64_t i = 0; i < pts.n; ++i)
    for (std::int64_t j = 0; j < pts.n; ++j)
      if (j != i && oracle_dominates(pts.point(j), pts.point(i), pts.d)) {
        member[std::size_t(i)] = 0;
        break;
      }
  return member;
}

// --- seeds and problems --------------------------------------------------------------------

// A fresh seed per run, or LADDER_TEST_SEED to repeat one.
std::uint64_t master_seed() {
  static const std::uint64_t seed = []() -> std::uint64_t {
    if (const char* s = std::getenv("LADDER_TEST_SEED")) return std::uint64_t(std::stoull(s));
    std::random_device rd;
    return ((std::uint64_t(rd()) << 32) | rd()) % 1000000000000000000ull;
  }();
  return seed;
}

std::string seed_note() {
  return "master seed " + std::to_string(master_seed()) + " (rerun with LADDER_TEST_SEED=" +
         std::to_string(master_seed()) + ")";
}

const Study& skyline_study() {
  const Study* s = registry().study("skyline");
  if (!s) throw std::logic_error("the skyline study is not registered");
  return *s;
}

std::vector<const VariantSpec*> cpu_variants() {
  std::vector<const VariantSpec*> out;
  for (const VariantSpec* v : registry().variants("skyline"))
    if (v->backend == Backend::cpu) out.push_back(v);
  return out;
}

struct Gen {
  std::int64_t n;
  int d;
  std::string distribution = "independent";
  int decimals = -1;
  std::string shape = "none";
};

// The generator's parameters for one set; its seed is drawn from the master seed and the
// other parameters (FNV-1a of their text), so the sets of a run differ and any one of them,
// alone or in a --gtest_filter'ed run, repeats from the master seed.
Params params_of(const Gen& g) {
  Params p;
  p.set("n", std::to_string(g.n));
  p.set("d", std::to_string(g.d));
  p.set("distribution", g.distribution);
  p.set("decimals", std::to_string(g.decimals));
  p.set("shape", g.shape);
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : p.key()) h = (h ^ c) * 1099511628211ull;
  std::mt19937_64 mix(master_seed() ^ h);
  p.set("seed", std::to_string(mix() % 1000000000000000000ull));
  return p;
}

std::unique_ptr<Problem> make(const Params& given) {
  const Study& study = skyline_study();
  return study.make_problem(DataSource{"bks", ""}, resolve(study, nullptr, given));
}

SkylineProblem handmade(int d, std::vector<float> values) {
  SkylineProblem p;
  p.points.d = d;
  p.points.n = std::int64_t(values.size()) / d;
  p.points.values = std::move(values);
  return p;
}

// One CPU step through its VariantSpec, as the runner does: prepare, poison, run, fetch.
Output run_step(const VariantSpec& v, const Problem& problem) {
  const Study& study = skyline_study();
  const Params params = resolve(study, &v, {});
  EXPECT_EQ(v.supports(problem, params, DeviceCaps{}), "") << v.id();
  auto inst = v.prepare(problem, params, DeviceCaps{});
  inst->poison();
  inst->run_ms();
  return inst->fetch();
}

// "" when the output is exactly the flags wanted, else what differs.
std::string differences(const Output& got, const std::vector<std::int32_t>& want) {
  std::ostringstream os;
  if (!got.is_integer()) os << "output is not integer; ";
  if (got.size() != want.size()) {
    os << "output has " << got.size() << " flags, want " << want.size();
    return os.str();
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got.at(i) != double(want[i])) {
      if (wrong < 5) os << "[" << i << "] got " << got.at(i) << " want " << want[i] << "; ";
      ++wrong;
    }
  if (wrong) os << wrong << " of " << want.size() << " flags differ";
  return os.str();
}

std::string describe(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p.items()) s += k + "=" + v + " ";
  return s;
}

std::vector<std::size_t> all_indices(std::size_t n) {
  std::vector<std::size_t> idx(n);
  for (std::size_t k = 0; k < n; ++k) idx[k] = k;
  return idx;
}

// Every CPU step on one generated set, against the oracle. Returns the skyline size.
std::int64_t check_generated(const Gen& g) {
  const Params given = params_of(g);
  SCOPED_TRACE(describe(given) + "; " + seed_note());
  const auto problem = make(given);
  const auto& sp = problem_as<SkylineProblem>(*problem);
  EXPECT_EQ(sp.n(), g.n);
  EXPECT_EQ(sp.d(), g.d);
  const std::vector<std::int32_t> want = oracle(sp.points);
  for (const VariantSpec* v : cpu_variants())
    EXPECT_EQ(differences(run_step(*v, *problem), want), "") << v->id();
  std::int64_t size = 0;
  for (std::int32_t f : want) size += f;
  if (g.n > 0) EXPECT_GE(size, 1);  // a finite set always has a skyline point
  return size;
}

TEST(SkylineCpuSteps, TheRegistryHasTheCpuSteps) {
  const auto steps = cpu_variants();
  std::vector<std::string> names;
  for (const VariantSpec* v : steps) names.push_back(v->name);
  EXPECT_GE(steps.size(), 3u);
  for (const char* name : {"seq_bnl", "seq_sfs", "openmp"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

// --- generated sets against the oracle -------------------------------------------------------

TEST(SkylineCpuSteps, SizesDimensionsAndDistributions) {
  for (int d : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 33, 64})
    for (const char* dist : {"independent", "correlated", "anticorrelated"})
      for (std::int64_t n : {0, 1, 2, 31, 97, 1031}) {
        if (d >= 33 && n > 97) n = 257;  // smaller n for the widest points
        check_generated({n, d, dist});
      }
}

// Just past the OpenMP step's block of 4096 sorted points, and two blocks.
TEST(SkylineCpuSteps, SeveralThousandPoints) {
  for (const char* dist : {"independent", "correlated", "anticorrelated"}) {
    for (int d : {2, 4, 7}) check_generated({4099, d, dist});
    check_generated({8209, 3, dist});
  }
}

// Rounded attributes: ties in every attribute and many exact duplicates.
TEST(SkylineCpuSteps, RoundedAttributesTiesAndDuplicates) {
  for (int decimals : {1, 2})
    for (const char* dist : {"independent", "correlated", "anticorrelated"})
      for (int d : {1, 2, 3, 4, 6, 9, 17}) {
        for (std::int64_t n : {2, 31, 97, 1031}) check_generated({n, d, dist, decimals});
        if (d <= 4) check_generated({4099, d, dist, decimals});
      }
}

// Every point on the diagonal (a chain: only copies of the minimum stay) or on the
// anti-diagonal (almost nobody dominates anybody).
TEST(SkylineCpuSteps, DiagonalAndAntidiagonal) {
  for (const char* shape : {"diagonal", "antidiagonal"})
    for (const char* dist : {"independent", "anticorrelated"})
      for (int decimals : {-1, 1, 2})
        for (int d : {1, 2, 3, 4, 5, 8, 17})
          for (std::int64_t n : {1, 31, 1031, 4099}) {
            if (d > 4 && n > 1031) continue;
            const std::int64_t size = check_generated({n, d, dist, decimals, shape});
            // On the diagonal the skyline is the copies of the minimum: few of them, unless
            // rounding to one decimal leaves only 11 values.
            if (std::string(shape) == "diagonal" && decimals == -1 && n > 1) EXPECT_LE(size, 2);
          }
}

// The study's own awkward points (the GPU steps' test points) on the CPU steps.
TEST(SkylineCpuSteps, TheStudysTestPoints) {
  const Study& study = skyline_study();
  for (const Params& given : study.test_points()) {
    SCOPED_TRACE(describe(given));
    const auto problem = make(given);
    const std::vector<std::int32_t> want = oracle(problem_as<SkylineProblem>(*problem).points);
    for (const VariantSpec* v : cpu_variants())
      EXPECT_EQ(differences(run_step(*v, *problem), want), "") << v->id();
  }
}

// The OpenMP step (and the full reference, the same function) gives the same set for any
// thread count, over several blocks of 4096 sorted points.
TEST(SkylineCpuSteps, OpenMpAnyThreadCount) {
  const VariantSpec* v = registry().variant("skyline/openmp");
  ASSERT_NE(v, nullptr);
  const int before = omp_get_max_threads();
  for (const Gen& g : std::vector<Gen>{{9001, 3, "anticorrelated"},
                                       {9001, 2, "independent", 1},
                                       {4097, 5, "correlated", 2}}) {
    const Params given = params_of(g);
    SCOPED_TRACE(describe(given) + "; " + seed_note());
    const auto problem = make(given);
    const std::vector<std::int32_t> want = oracle(problem_as<SkylineProblem>(*problem).points);
    for (int threads : {1, 2, 3, 7}) {
      omp_set_num_threads(threads);
      EXPECT_EQ(differences(run_step(*v, *problem), want), "") << threads << " threads";
    }
  }
  omp_set_num_threads(before);
}

// --- hand-made cases -------------------------------------------------------------------------

// The steps, the full and sampled reference and the oracle all give `want`.
void check_handmade(const std::string& what, int d, std::vector<float> values,
                    const std::vector<std::int32_t>& want) {
  SCOPED_TRACE(what);
  const SkylineProblem p = handmade(d, std::move(values));
  ASSERT_EQ(std::size_t(p.n()), want.size());
  EXPECT_EQ(oracle(p.points), want) << "the oracle itself";
  for (const VariantSpec* v : cpu_variants())
    EXPECT_EQ(differences(run_step(*v, p), want), "") << v->id();
  const Study& study = skyline_study();
  const std::vector<double> full = study.reference(p, all_indices(want.size()));
  ASSERT_EQ(full.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(full[i], double(want[i])) << "full reference [" << i << "]";
  // One point at a time: the sampled path (fewer indices than points).
  for (std::size_t i = 0; i < want.size() && want.size() > 1; ++i) {
    const std::vector<double> one = study.reference(p, {i});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0], double(want[i])) << "sampled reference [" << i << "]";
  }
}

TEST(SkylineHandmade, ExactDuplicatesBothStay) {
  check_handmade("two copies of the best point", 2, {1, 2, 1, 2, 3, 3}, {1, 1, 0});
  check_handmade("two copies of a dominated point", 2, {2, 2, 1, 1, 2, 2}, {0, 1, 0});
  check_handmade("every point the same", 3, std::vector<float>(3 * 40, 0.25f),
                 std::vector<std::int32_t>(40, 1));
  check_handmade("duplicates in the skyline and out of it", 2,
                 {0, 5, 5, 0, 0, 5, 5, 0, 3, 3, 3, 3, 6, 6}, {1, 1, 1, 1, 1, 1, 0});
}

TEST(SkylineHandmade, OneAttributeKeepsEveryCopyOfTheMinimum) {
  check_handmade("d = 1", 1, {3, 1, 2, 1, 1, 5}, {0, 1, 0, 1, 1, 0});
  check_handmade("d = 1, one point", 1, {7}, {1});
  check_handmade("d = 1, minimum last", 1, {4, 3, 2, 1}, {0, 0, 0, 1});
}

TEST(SkylineHandmade, EqualInOneAttributeBetterInAnotherDominates) {
  check_handmade("(1,2) over (1,3)", 2, {1, 3, 1, 2}, {0, 1});
  check_handmade("(2,5,6) over (2,5,7)", 3, {2, 5, 7, 2, 5, 6}, {0, 1});
  check_handmade("equal in all but the last of 17", 17,
                 [] {
                   std::vector<float> v(34, 0.5f);
                   v[16] = 0.75f;  // point 0 is worse in its last attribute only
                   return v;
                 }(),
                 {0, 1});
  check_handmade("a chain of four", 2, {4, 4, 3, 4, 3, 3, 2, 3}, {0, 0, 0, 1});
}

TEST(SkylineHandmade, NegativeValues) {
  check_handmade("negatives", 2, {-1, -2, -1, -3, -5, 10, 0, 0}, {0, 1, 1, 0});
  check_handmade("all negative, incomparable", 3, {-1, -2, -3, -3, -2, -1, -2, -2, -2},
                 {1, 1, 1});
  check_handmade("negative sums, one dominated", 2, {-10, -10, -9, -10, -10, -9, -11, 0},
                 {1, 0, 0, 1});
}

TEST(SkylineHandmade, SignedZerosAreEqual) {
  const float nz = -0.0f;
  ASSERT_TRUE(std::signbit(nz));
  check_handmade("-0 and +0, d = 1", 1, {0.0f, nz}, {1, 1});
  check_handmade("(-0, 1) and (+0, 1)", 2, {nz, 1, 0.0f, 1}, {1, 1});
  check_handmade("(+0, 0.5) over (-0, 1)", 2, {nz, 1, 0.0f, 0.5f}, {0, 1});
  check_handmade("(-0, 0.5) over (+0, 1)", 2, {0.0f, 1, nz, 0.5f}, {0, 1});
  check_handmade("-0 with a negative denormal below it", 1,
                 {0.0f, nz, -std::numeric_limits<float>::denorm_min()}, {0, 0, 1});
  check_handmade("mixed signs of zero in every attribute", 3, {nz, 0.0f, nz, 0.0f, nz, 0.0f},
                 {1, 1});
}

// Sums that overflow float32 to +-infinity: the sort falls back to the attributes.
TEST(SkylineHandmade, ExtremeMagnitudes) {
  const float big = std::numeric_limits<float>::max();
  check_handmade("sums at +infinity", 2, {big, big, 0.5f * big, big, big, 0.5f * big, big, big},
                 {0, 1, 1, 0});
  check_handmade("sums at -infinity", 3, {-big, -big, -big, -big, -big, -0.5f * big, -big, 0, 0},
                 {1, 0, 0});
  check_handmade("infinite sums against finite ones", 2,
                 {big, big, -big, big, 0, 0, big, -big}, {0, 1, 1, 1});
}

// --- the reference -------------------------------------------------------------------------

TEST(SkylineReference, FullAndSampledEqualTheOracle) {
  const Study& study = skyline_study();
  std::mt19937_64 rng(master_seed());
  for (const Gen& g : std::vector<Gen>{{1031, 3, "anticorrelated"},
                                       {5003, 2, "independent", 1},
                                       {4099, 5, "correlated"},
                                       {997, 12, "anticorrelated", 2},
                                       {257, 64, "independent"}}) {
    const Params given = params_of(g);
    SCOPED_TRACE(describe(given) + "; " + seed_note());
    const auto problem = make(given);
    const auto want = oracle(problem_as<SkylineProblem>(*problem).points);
    const auto full = study.reference(*problem, all_indices(want.size()));
    ASSERT_EQ(full.size(), want.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < want.size(); ++i) wrong += full[i] != double(want[i]);
    EXPECT_EQ(wrong, 0u) << "full reference";
    // 50 sampled indices, always including 0 and n - 1 and at least one skyline point.
    std::vector<std::size_t> sample{0, want.size() - 1};
    for (std::size_t i = 0; i < want.size(); ++i)
      if (want[i]) {
        sample.push_back(i);
        break;
      }
    while (sample.size() < 50) sample.push_back(std::size_t(rng() % want.size()));
    const auto got = study.reference(*problem, sample);
    ASSERT_EQ(got.size(), sample.size());
    for (std::size_t k = 0; k < sample.size(); ++k)
      EXPECT_EQ(got[k], double(want[sample[k]])) << "sampled index " << sample[k];
  }
}

// --- compare, dumps and extras ---------------------------------------------------------------

struct Compared {
  std::unique_ptr<Problem> problem;
  std::vector<std::int32_t> flags;  // the correct output
  std::vector<double> want;         // the reference at every index
  std::vector<std::size_t> idx;
};

Compared compared_fixture() {
  Compared c;
  Gen g{997, 3, "anticorrelated"};
  c.problem = make(params_of(g));
  c.flags = oracle(problem_as<SkylineProblem>(*c.problem).points);
  c.idx = all_indices(c.flags.size());
  c.want = skyline_study().reference(*c.problem, c.idx);
  return c;
}

ValidationResult compare_flags(const Compared& c, const std::vector<std::int32_t>& flags) {
  const Study& study = skyline_study();
  const VariantSpec* v = registry().variant("skyline/seq_bnl");
  return study.compare(*c.problem, Output{flags, {}}, c.idx, c.want,
                       study.tolerance(*c.problem, *v));
}

std::size_t first_with(const std::vector<std::int32_t>& flags, std::int32_t value,
                       std::size_t from = 0) {
  for (std::size_t i = from; i < flags.size(); ++i)
    if (flags[i] == value) return i;
  return flags.size();
}

TEST(SkylineCompare, CorrectOutputPasses) {
  const Compared c = compared_fixture();
  SCOPED_TRACE(seed_note());
  const ValidationResult r = compare_flags(c, c.flags);
  EXPECT_TRUE(r.ok) << r.first_failure;
  EXPECT_EQ(r.failures, 0u);
  EXPECT_EQ(r.checked, c.flags.size());
  EXPECT_EQ(r.first_failure, "");
}

TEST(SkylineCompare, MissingAndExtraPointsAreCountedAndNamed) {
  const Compared c = compared_fixture();
  SCOPED_TRACE(seed_note());
  const std::size_t in = first_with(c.flags, 1), out = first_with(c.flags, 0);
  ASSERT_LT(in, c.flags.size());
  ASSERT_LT(out, c.flags.size());
  std::vector<std::int32_t> bad = c.flags;
  bad[in] = 0;
  bad[out] = 1;
  const ValidationResult r = compare_flags(c, bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 2u);
  EXPECT_EQ(r.checked, c.flags.size());
  EXPECT_EQ(r.first_failure, "1 skyline points missing (first id " + std::to_string(in) +
                                 "), 1 extra (first id " + std::to_string(out) + ")");

  // Only missing ones: three of them, the first named.
  std::vector<std::int32_t> missing = c.flags;
  std::size_t first = c.flags.size(), count = 0;
  for (std::size_t i = 0; i < missing.size() && count < 3; ++i)
    if (missing[i] == 1) {
      missing[i] = 0;
      if (count++ == 0) first = i;
    }
  ASSERT_EQ(count, 3u);
  const ValidationResult m = compare_flags(c, missing);
  EXPECT_FALSE(m.ok);
  EXPECT_EQ(m.failures, 3u);
  EXPECT_EQ(m.first_failure,
            "3 skyline points missing (first id " + std::to_string(first) + "), 0 extra");

  // Only extra: every point claimed.
  std::vector<std::int32_t> every(c.flags.size(), 1);
  std::size_t outside = 0;
  for (std::int32_t f : c.flags) outside += f == 0;
  const ValidationResult e = compare_flags(c, every);
  EXPECT_FALSE(e.ok);
  EXPECT_EQ(e.failures, outside);
  EXPECT_EQ(e.first_failure,
            "0 skyline points missing, " + std::to_string(outside) + " extra (first id " +
                std::to_string(out) + ")");
}

TEST(SkylineCompare, FlagsNeitherZeroNorOne) {
  const Compared c = compared_fixture();
  SCOPED_TRACE(seed_note());
  const std::size_t in = first_with(c.flags, 1), out = first_with(c.flags, 0);
  std::vector<std::int32_t> bad = c.flags;
  bad[in] = 7;   // in the skyline: not counted as present
  bad[out] = -1;  // out of it: not counted as absent
  const ValidationResult r = compare_flags(c, bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 2u);
  const std::size_t lo = std::min(in, out);
  EXPECT_EQ(r.first_failure, "0 skyline points missing, 0 extra, 2 flags neither 0 nor 1 "
                             "(first id " + std::to_string(lo) + ")");
  // A 7 where a 1 belongs is never taken for a 1 by the extras either.
  const auto extras = skyline_study().extras(*c.problem, Output{bad, {}});
  std::size_t size = 0;
  for (std::int32_t f : c.flags) size += f;
  EXPECT_EQ(extras.at("skyline_size"), double(size - 1));
}

TEST(SkylineCompare, WrongLengthFails) {
  const Compared c = compared_fixture();
  for (std::size_t len : {c.flags.size() - 1, c.flags.size() + 1, std::size_t{0}}) {
    std::vector<std::int32_t> flags(len, 0);
    std::copy_n(c.flags.begin(), std::min(len, c.flags.size()), flags.begin());
    const ValidationResult r = compare_flags(c, flags);
    EXPECT_FALSE(r.ok) << len;
    EXPECT_EQ(r.first_failure, "output has " + std::to_string(len) + " flags, want " +
                                   std::to_string(c.flags.size()));
  }
}

// An unwritten output (the HostInstance's poison, INT32_MIN) fails at every index.
TEST(SkylineCompare, PoisonedOutputFailsEveryIndex) {
  const Compared c = compared_fixture();
  const Study& study = skyline_study();
  for (const VariantSpec* v : cpu_variants()) {
    auto inst = v->prepare(*c.problem, resolve(study, v, {}), DeviceCaps{});
    inst->poison();
    const Output poisoned = inst->fetch();
    ASSERT_EQ(poisoned.size(), c.flags.size()) << v->id();
    EXPECT_EQ(poisoned.at(0), double(std::numeric_limits<std::int32_t>::min())) << v->id();
    const ValidationResult r =
        study.compare(*c.problem, poisoned, c.idx, c.want, study.tolerance(*c.problem, *v));
    EXPECT_FALSE(r.ok) << v->id();
    EXPECT_EQ(r.failures, c.flags.size()) << v->id();
    EXPECT_EQ(r.first_failure, "0 skyline points missing, 0 extra, " +
                                   std::to_string(c.flags.size()) +
                                   " flags neither 0 nor 1 (first id 0)")
        << v->id();
    EXPECT_EQ(study.extras(*c.problem, poisoned).at("skyline_size"), 0.0) << v->id();
    // A run after the poison writes every flag.
    inst->poison();
    inst->run_ms();
    EXPECT_TRUE(study.compare(*c.problem, inst->fetch(), c.idx, c.want,
                              study.tolerance(*c.problem, *v))
                    .ok)
        << v->id();
  }
}

// Sampled validation looks only at its indices.
TEST(SkylineCompare, SampledIndicesOnly) {
  const Compared c = compared_fixture();
  const Study& study = skyline_study();
  const std::size_t out = first_with(c.flags, 0), in = first_with(c.flags, 1);
  std::vector<std::int32_t> bad = c.flags;
  bad[out] = 1;  // wrong, but not sampled
  std::vector<std::size_t> sample;
  for (std::size_t i = 0; i < c.flags.size() && sample.size() < 50; ++i)
    if (i != out) sample.push_back(i);
  std::vector<double> want;
  for (std::size_t i : sample) want.push_back(c.want[i]);
  const Tolerance tol = study.tolerance(*c.problem, *registry().variant("skyline/seq_bnl"));
  const ValidationResult r = study.compare(*c.problem, Output{bad, {}}, sample, want, tol);
  EXPECT_TRUE(r.ok) << r.first_failure;
  EXPECT_EQ(r.checked, sample.size());
  sample.push_back(out);
  want.push_back(c.want[out]);
  const ValidationResult r2 = study.compare(*c.problem, Output{bad, {}}, sample, want, tol);
  EXPECT_FALSE(r2.ok);
  EXPECT_EQ(r2.failures, 1u);
  EXPECT_EQ(r2.first_failure,
            "0 skyline points missing, 1 extra (first id " + std::to_string(out) + ")");
  (void)in;
}

TEST(SkylineDump, SortedIdsOfTheSkylineAndItsSize) {
  const Study& study = skyline_study();
  const SkylineProblem p = handmade(2, {3, 3, 1, 2, 2, 1, 1, 2, 4, 0, 5, 5});
  const std::vector<std::int32_t> flags = {0, 1, 1, 1, 1, 0};
  ASSERT_EQ(oracle(p.points), flags);
  const Output dump = study.dump_form(p, Output{flags, {}});
  ASSERT_TRUE(std::holds_alternative<std::vector<std::int64_t>>(dump.data));
  EXPECT_EQ(std::get<std::vector<std::int64_t>>(dump.data),
            (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(dump.shape.empty() || dump.shape == std::vector<std::size_t>{4});
  EXPECT_EQ(study.extras(p, Output{flags, {}}).at("skyline_size"), 4.0);

  // A generated set: the dump of each step's output is the oracle's ids, ascending.
  const auto problem = make(params_of({2053, 4, "anticorrelated", 2}));
  const auto want = oracle(problem_as<SkylineProblem>(*problem).points);
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i]) ids.push_back(std::int64_t(i));
  for (const VariantSpec* v : cpu_variants()) {
    const Output out = run_step(*v, *problem);
    const Output d = study.dump_form(*problem, out);
    ASSERT_TRUE(std::holds_alternative<std::vector<std::int64_t>>(d.data)) << v->id();
    EXPECT_EQ(std::get<std::vector<std::int64_t>>(d.data), ids) << v->id() << "; " << seed_note();
    EXPECT_EQ(study.extras(*problem, out).at("skyline_size"), double(ids.size())) << v->id();
  }

  // No points, and no skyline point among the flags: empty dumps, size 0.
  const SkylineProblem none = handmade(3, {});
  const Output empty = study.dump_form(none, Output{std::vector<std::int32_t>{}, {}});
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.is_integer());
  EXPECT_EQ(study.extras(none, Output{std::vector<std::int32_t>{}, {}}).at("skyline_size"), 0.0);
}

// --- dominates() and the sort-filter order ---------------------------------------------------

TEST(SkylineDominance, BothTestsAgreeWithTheOracle) {
  std::mt19937_64 rng(master_seed());
  SCOPED_TRACE(seed_note());
  const float values[] = {-1.0f, -0.0f, 0.0f, 0.5f, 1.0f, 2.0f};
  std::size_t dominated = 0, trials = 0;
  for (int d = 1; d <= 9; ++d)
    for (int t = 0; t < 4000; ++t) {
      float p[9], q[9];
      for (int k = 0; k < d; ++k) {
        p[k] = values[rng() % 6];
        // Mostly ties: q close to p, so both answers come up often.
        q[k] = rng() % 3 ? p[k] : values[rng() % 6];
      }
      ++trials;
      const bool want = oracle_dominates(p, q, d);
      dominated += want;
      ASSERT_EQ(dominates(p, q, d), want) << "d " << d << " trial " << t;
      ASSERT_EQ(dominates(q, p, d), oracle_dominates(q, p, d)) << "d " << d << " trial " << t;
      // The DWE and ALR steps' branch-free test (the seed's Figure 8) gives the same answers.
      ASSERT_EQ(dominates_branch_free(p, q, d), int(want)) << "d " << d << " trial " << t;
      ASSERT_EQ(dominates_branch_free(q, p, d), int(oracle_dominates(q, p, d)))
          << "d " << d << " trial " << t;
      ASSERT_FALSE(dominates(p, p, d));
      ASSERT_FALSE(dominates(p, q, d) && dominates(q, p, d));
    }
  // Both answers were exercised.
  EXPECT_GT(dominated, trials / 20);
  EXPECT_LT(dominated, trials - trials / 20);
}

// A dominator comes before every point it dominates, in both the serial and the parallel
// order, and the two orders are the same permutation.
TEST(SkylineSumOrder, DominatorsComeFirst) {
  for (int d : {1, 2, 3, 5, 8})
    for (const char* dist : {"independent", "correlated", "anticorrelated"}) {
      const Params given = params_of({d <= 3 ? 1500 : 800, d, dist, 1});
      SCOPED_TRACE(describe(given) + "; " + seed_note());
      const auto problem = make(given);
      const PointSet& pts = problem_as<SkylineProblem>(*problem).points;
      const std::vector<std::int64_t> order = sum_order(pts, true);
      EXPECT_EQ(sum_order(pts, false), order);
      ASSERT_EQ(std::int64_t(order.size()), pts.n);
      std::vector<std::int64_t> pos(order.size(), -1);
      for (std::size_t r = 0; r < order.size(); ++r) {
        ASSERT_GE(order[r], 0);
        ASSERT_LT(order[r], pts.n);
        ASSERT_EQ(pos[order[r]], -1) << "id " << order[r] << " twice";
        pos[order[r]] = std::int64_t(r);
      }
      std::size_t pairs = 0, bad = 0;
      for (std::int64_t i = 0; i < pts.n; ++i)
        for (std::int64_t j = 0; j < pts.n; ++j)
          if (oracle_dominates(pts.point(i), pts.point(j), d)) {
            ++pairs;
            if (pos[i] > pos[j] && bad++ < 3)
              ADD_FAILURE() << "point " << i << " dominates " << j << " but comes after it";
          }
      EXPECT_EQ(bad, 0u);
      EXPECT_GT(pairs, 0u);
      // Exact duplicates are in id order.
      for (std::size_t r = 1; r < order.size(); ++r) {
        const float *a = pts.point(order[r - 1]), *b = pts.point(order[r]);
        if (std::equal(a, a + d, b)) EXPECT_LT(order[r - 1], order[r]);
      }
    }
}

TEST(SkylineSumOrder, SignedZerosAndHugeSums) {
  const float big = std::numeric_limits<float>::max(), nz = -0.0f;
  const SkylineProblem p = handmade(2, {big, big, 0.5f * big, big, nz, 1, 0.0f, 1, 0, 0.5f,
                                        -big, -big, -big, 0});
  const std::vector<std::int64_t> order = sum_order(p.points, false);
  std::vector<std::int64_t> pos(order.size());
  for (std::size_t r = 0; r < order.size(); ++r) pos[order[r]] = std::int64_t(r);
  for (std::int64_t i = 0; i < p.n(); ++i)
    for (std::int64_t j = 0; j < p.n(); ++j)
      if (oracle_dominates(p.points.point(i), p.points.point(j), 2))
        EXPECT_LT(pos[i], pos[j]) << i << " dominates " << j;
  EXPECT_LT(pos[2], pos[3]);  // -0 and +0 tie: by id
}

}  // namespace
}  // namespace ladder::skyline
