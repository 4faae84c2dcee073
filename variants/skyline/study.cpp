// The skyline study: Borzsonyi-Kossmann-Stocker point sets (or .npy and CSV files), the
// sort-filter reference, exact set validation that names both differences, and points per
// second as the throughput.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "../../datagen/base/errors.hpp"
#include "../../harness/memory.hpp"
#include "../../harness/validation.hpp"
#include "problem.hpp"

namespace ladder::skyline {
namespace {

using K = ParamSpec::Kind;
constexpr double kMaxPoints = 2147483647.0;  // ids and flags are indexed with 32-bit ints on the GPU

// Test shapes laid over the generated attributes: every point on the diagonal (a chain: the
// skyline is every copy of the minimum) or on the anti-diagonal (nobody dominates anybody).
void apply_shape(PointSet& pts, const std::string& shape) {
  if (shape == "none") return;
  const bool anti = shape == "antidiagonal";
  for (std::int64_t i = 0; i < pts.n; ++i) {
    float* x = pts.values.data() + i * pts.d;
    for (int k = 1; k < pts.d; ++k) x[k] = anti && k % 2 ? 1.f - x[0] : x[0];
  }
}

// Rounds every attribute to `decimals` decimals: ties in every attribute and, for few
// decimals, exact duplicates.
void round_to(PointSet& pts, int decimals) {
  if (decimals < 0) return;
  const double scale = std::pow(10.0, decimals);
  for (float& v : pts.values) v = float(std::round(double(v) * scale) / scale);
}

PointGen generator(const Params& p) {
  PointGen g;
  g.n = p.integer("n");
  g.d = int(p.integer("d"));
  g.distribution = point_distribution(p.text("distribution"));
  g.seed = std::uint64_t(p.integer("seed"));
  return g;
}

class SkylineStudy : public Study {
 public:
  SkylineStudy()
      : Study("skyline", "skyline of a point set (minimise every attribute)", {"bks"}) {}
  std::vector<std::string> figures() const override { return {"skyline_paper"}; }

  std::vector<ParamSpec> data_params() const override {
    return {
        {"n", "1000", "points", K::integer, 0, kMaxPoints, {}, true},
        {"d", "2", "attributes per point", K::integer, 1, double(kMaxPointDims), {}, true},
        {"distribution", "independent", "Borzsonyi-Kossmann-Stocker distribution", K::text, 0, 0,
         {"independent", "correlated", "anticorrelated"}, true},
        {"decimals", "-1", "round attributes to this many decimals (-1: no rounding)",
         K::integer, -1, 6, {}, true},
        {"shape", "none", "test shape: every point on the diagonal or the anti-diagonal",
         K::text, 0, 0, {"none", "diagonal", "antidiagonal"}, true},
        {"seed", "42", "generator seed", K::integer, 0, 9.2e18, {}, true},
    };
  }

  // Generated points must be made within the generation time limit (a pilot times the
  // generator on the point's own first points).
  void check_point(const DataSource& src, const Params& p, const Problem*) const override {
    if (src.file.empty()) check_generation_time(generator(p));
  }

  // The points and a copy (the GPU steps' columns, the reference's window), one int32 flag
  // per point; the full reference's flags, order and sums. A file before it is read: its
  // bytes and at most one value per two bytes of CSV or four of .npy, read (as double from a
  // .npy) and kept as float.
  Footprint footprint(const DataSource& src, const Params& p,
                      const Problem* loaded) const override {
    if (!src.file.empty() && !loaded) {
      const double bytes = data_file_bytes(src.file);
      const bool npy = src.file.size() >= 4 && src.file.compare(src.file.size() - 4, 4, ".npy") == 0;
      return {npy ? 3 * bytes : bytes + 8 * text_values_bound(bytes), 0, 4};
    }
    const double n = loaded ? double(problem_as<SkylineProblem>(*loaded).n()) : double(p.integer("n"));
    const double d = loaded ? double(problem_as<SkylineProblem>(*loaded).d()) : double(p.integer("d"));
    Footprint f{2 * 4.0 * n * d, n, 4, 16.0 * n};
    // Dominance tests per point: against a skyline window, taken as sqrt(n) points of d values.
    f.inner = d * std::sqrt(n);
    return f;
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    auto prob = std::make_unique<SkylineProblem>();
    if (!src.file.empty()) {
      prob->points = read_points(src.file);
      if (double(prob->points.n) > kMaxPoints)
        throw InputError("the file holds " + std::to_string(prob->points.n) +
                         " points, beyond the limit of 2^31 - 1");
      return prob;
    }
    check_point(src, p, nullptr);
    prob->points = generate_points(generator(p));
    apply_shape(prob->points, p.text("shape"));
    round_to(prob->points, int(p.integer("decimals")));
    return prob;
  }

  void write_data(const Problem& problem, const std::string& path) const override {
    write_points(path, problem_as<SkylineProblem>(problem).points);
  }

  std::size_t output_size(const Problem& problem) const override {
    return std::size_t(problem_as<SkylineProblem>(problem).n());
  }

  // Every point at once by the parallel sort-filter pass; a sample point by point.
  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override {
    const auto& p = problem_as<SkylineProblem>(problem);
    std::vector<double> out(indices.size());
    if (std::int64_t(indices.size()) == p.n()) {
      std::vector<std::int32_t> member(std::size_t(p.n()));
      skyline_sort_filter(p.points, member.data());
      for (std::size_t k = 0; k < indices.size(); ++k) out[k] = member[indices[k]];
      return out;
    }
    const auto count = std::int64_t(indices.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t k = 0; k < count; ++k)
      out[k] = dominated_by_any(p.points, std::int64_t(indices[k])) ? 0 : 1;
    return out;
  }

  ValidationResult compare(const Problem& problem, const Output& got,
                           const std::vector<std::size_t>& indices, const std::vector<double>& want,
                           const Tolerance&) const override;

  Tolerance tolerance(const Problem&, const VariantSpec&) const override {
    return {0, 0, "exact: the same set of skyline ids"};
  }

  // No compute bound: the dominance tests a point takes depend on the data. Memory: the points
  // read once (n x d floats; the attribute-major copy some steps read instead is as large) and
  // the 0/1 membership written once, 4 n (d + 1) bytes. Not counted: the sort-filter steps'
  // keys, ids and sorted copy, so the bound is never too low.
  Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const override {
    const auto& p = problem_as<SkylineProblem>(problem);
    Work w{"points_per_s", "Mpoints/s", double(p.n()), 1e6};
    if (v.backend == Backend::gpu)
      w.set_limit({4.0 * double(p.n()) * (p.d() + 1), 2, "points",
                   "points read once, membership written once"},
                  "the dominance tests a point takes depend on the data", d);
    return w;
  }

  std::map<std::string, double> describe(const Problem& problem) const override {
    const auto& p = problem_as<SkylineProblem>(problem);
    return {{"n", double(p.n())}, {"d", double(p.d())}};
  }

  std::map<std::string, double> extras(const Problem&, const Output& out) const override {
    double size = 0;
    for (std::size_t i = 0; i < out.size(); ++i) size += out.at(i) == 1;
    return {{"skyline_size", size}};
  }

  Output dump_form(const Problem&, const Output& out) const override {
    std::vector<std::int64_t> ids;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out.at(i) == 1) ids.push_back(std::int64_t(i));
    return Output{std::move(ids), {}};
  }

  std::vector<Params> test_points() const override;
};

// Exact membership: a point is either in both sets or in neither. The reason names how many
// skyline points are missing and how many are extra, with the first id of each.
ValidationResult SkylineStudy::compare(const Problem& problem, const Output& got,
                                       const std::vector<std::size_t>& indices,
                                       const std::vector<double>& want, const Tolerance&) const {
  ValidationResult r;
  const std::size_t n = output_size(problem);
  if (got.size() != n) {
    r.ok = false;
    r.first_failure = "output has " + std::to_string(got.size()) + " flags, want " + std::to_string(n);
    return r;
  }
  std::size_t missing = 0, extra = 0, invalid = 0;
  std::int64_t first[3] = {-1, -1, -1};
  auto note = [&](std::size_t& count, int kind, std::size_t id) {
    if (count++ == 0) first[kind] = std::int64_t(id);
  };
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const double g = got.at(indices[k]);
    if (g != 0 && g != 1) note(invalid, 2, indices[k]);
    else if (want[k] == 1 && g != 1) note(missing, 0, indices[k]);
    else if (want[k] == 0 && g != 0) note(extra, 1, indices[k]);
  }
  r.checked = indices.size();
  r.failures = missing + extra + invalid;
  r.ok = r.failures == 0;
  r.max_abs = r.ok ? 0 : 1;
  if (!r.ok) {
    std::ostringstream os;
    os << missing << " skyline points missing";
    if (missing) os << " (first id " << first[0] << ")";
    os << ", " << extra << " extra";
    if (extra) os << " (first id " << first[1] << ")";
    if (invalid) os << ", " << invalid << " flags neither 0 nor 1 (first id " << first[2] << ")";
    r.first_failure = os.str();
  }
  return r;
}

// Sizes 1, primes and off every tile, d = 1 to 17 and beyond, the three distributions, ties,
// duplicates and the two lines. The first is one every step runs; n = 0 is not last (the
// poison test needs a point with outputs).
std::vector<Params> SkylineStudy::test_points() const {
  std::vector<Params> out;
  auto add = [&](std::int64_t n, int d, const char* dist) -> Params& {
    Params& p = out.emplace_back();
    p.set("n", std::to_string(n));
    p.set("d", std::to_string(d));
    p.set("distribution", dist);
    return p;
  };
  add(1000, 3, "anticorrelated");
  add(1, 1, "independent");
  add(0, 4, "independent");
  add(37, 1, "independent").set("decimals", "1");  // several copies of the minimum
  for (int d : {2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 33})
    for (const char* dist : {"independent", "correlated", "anticorrelated"})
      add(d < 9 ? 3001 : 997, d, dist);
  add(31, 8, "anticorrelated");  // smaller than a warp
  add(5003, 2, "independent").set("decimals", "1");  // many exact duplicates
  add(4099, 4, "anticorrelated").set("decimals", "2");  // ties in every attribute
  add(2053, 3, "independent").set("shape", "diagonal");
  add(2053, 4, "independent").set("shape", "antidiagonal");
  add(20011, 6, "anticorrelated");  // many blocks and sort-filter passes
  add(65537, 2, "independent").set("decimals", "2");
  return out;
}

const Registrar registrar{std::make_unique<SkylineStudy>()};

}  // namespace
}  // namespace ladder::skyline
