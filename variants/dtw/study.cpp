// The DTW study: data (CBF generator or a UCR file), the sequential baseline used for
// validation, tolerances and the GCUPS metric with its H100-style compute limit.
#include <algorithm>
#include <cmath>

#include "../../datagen/base/errors.hpp"
#include "../../harness/memory.hpp"
#include "../../harness/hardware.hpp"
#include "problem.hpp"

namespace ladder::dtw {
namespace {

constexpr std::int64_t kMaxLength = 1 << 16;

// Cells (i, j), 1 <= i, j <= n, with |i - j| <= band.
double band_cells(std::int64_t n, std::int64_t band) {
  if (band >= n) return double(n) * n;
  return double(n) * (2 * band + 1) - double(band) * (band + 1);
}

// Bounded inputs keep every float32 distance finite: a path has at most 2n cells of
// (2 * 1e15)^2 each, under 2^17 * 4e30 < FLT_MAX for n <= 2^16.
void check_magnitudes(const SeriesSet& set, const std::string& path) {
  for (std::size_t i = 0; i < set.values.size(); ++i)
    if (std::fabs(set.values[i]) > 1e15f)
      throw InputError("'" + path + "' series " + std::to_string(i / set.length + 1) +
                       " holds " + std::to_string(set.values[i]) +
                       ": values beyond +-1e15 could overflow float32 distances");
}

class DtwStudy : public Study {
 public:
  DtwStudy()
      : Study("dtw",
              "dynamic time warping, queries against many series (squared costs, no root)",
              {"cbf"}) {}
  std::vector<std::string> figures() const override { return {"dtw_paper", "dtw_length_sweep"}; }

  std::vector<ParamSpec> data_params() const override {
    using K = ParamSpec::Kind;
    std::vector<ParamSpec> specs = {
        {"n", "", "series length (generated data)", K::integer, 1, kMaxLength, {}, true},
        {"entries", "", "number of subject series (generated data)", K::integer, 1, 1 << 30, {},
         true},
        {"seed", "42", "generator seed", K::integer, 0, 9.2e18, {}, true},
        {"noise", "uniform", "CBF noise: uniform U[0,1) (notes) or gaussian N(0,1) (classic)",
         K::text, 0, 0, {"uniform", "gaussian"}, true},
        {"band", "", "Sakoe-Chiba radius (0 = diagonal; unset or >= n = unconstrained)",
         K::integer, 0, kMaxLength}};
    for (auto& q : query_params()) specs.push_back(q);
    return specs;
  }

  void check_point(const DataSource& src, const Params& p, const Problem* loaded) const override {
    if (!src.file.empty()) {
      if (p.has("n") || p.has("entries"))
        throw InputError("'n' and 'entries' come from the data file; remove them from the config");
      if (loaded) check_queries(p, problem_as<DtwProblem>(*loaded).entries());
      return;
    }
    if (!p.has("n") || !p.has("entries"))
      throw InputError("generated DTW data needs 'n' and 'entries'");
    check_queries(p, p.integer("entries"));
  }

  // A UCR file before it is read: its text, and at most one value per two bytes, held (with
  // the room a growing vector takes) as it is parsed.
  Footprint footprint(const DataSource& src, const Params& p,
                      const Problem* loaded) const override {
    const double queries = double(p.integer("queries"));
    if (!src.file.empty() && !loaded) {
      const double bytes = data_file_bytes(src.file);
      return {bytes + 3 * 4.0 * text_values_bound(bytes), 0, 4};
    }
    const double n = loaded ? double(problem_as<DtwProblem>(*loaded).n()) : double(p.integer("n"));
    const double entries = loaded ? double(problem_as<DtwProblem>(*loaded).entries())
                                  : double(p.integer("entries"));
    return pairwise_footprint(n, entries, queries);
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    check_point(src, p, nullptr);
    auto prob = std::make_unique<DtwProblem>();
    if (!src.file.empty()) {
      prob->data = read_ucr(src.file);
      check_magnitudes(prob->data, src.file);
    } else {
      prob->data = generate_cbf(p.integer("entries"), p.integer("n"), p.integer("seed"),
                                p.text("noise") == "gaussian" ? CbfNoise::gaussian
                                                              : CbfNoise::uniform);
    }
    if (prob->n() > kMaxLength)
      throw InputError("series length " + std::to_string(prob->n()) + " exceeds the limit of " +
                       std::to_string(kMaxLength));
    select_queries(*prob, p);
    prob->band = static_cast<int>(
        std::min<std::int64_t>(p.has("band") ? p.integer("band") : prob->n(), prob->n()));
    return prob;
  }

  void write_data(const Problem& problem, const std::string& path) const override {
    write_ucr(path, problem_as<DtwProblem>(problem).data);
  }

  std::size_t output_size(const Problem& problem) const override {
    return problem_as<DtwProblem>(problem).output_size();
  }

  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override {
    const auto& prob = problem_as<DtwProblem>(problem);
    std::vector<double> out(indices.size());
    const auto count = static_cast<std::int64_t>(indices.size());
    // Each distance is the sequential two-row DTW; only the loop over pairs is parallel.
#pragma omp parallel
    {
      std::vector<float> rows(2 * (prob.n() + 1));
#pragma omp for schedule(dynamic, 64)
      for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t q = indices[k] / prob.entries(), e = indices[k] % prob.entries();
        out[k] = dtw_two_rows(prob.query(q), prob.data.series(e), prob.n(), rows.data(),
                              prob.band);
      }
    }
    return out;
  }

  // Every step evaluates the same cells in the same order; they differ from the baseline only
  // by rounding (FMA contraction on the GPU), which grows at most linearly along the 2n-cell
  // warping path: allow 4 * n float32 ulps relative.
  // Half precision keeps 11 significant bits. Along a path of up to 2n cells the running sum
  // grows while each cost stays small, so every addition rounds away part of a cost, always
  // in the same direction: the error grows linearly with n (measured on CBF: about
  // n * 2^-13 relative, always an underestimate). Allow twice that, and 1e-2 absolute for
  // tiny distances.
  Tolerance tolerance(const Problem& problem, const VariantSpec& v) const override {
    const double n = static_cast<double>(problem_as<DtwProblem>(problem).n());
    if (v.precision == Precision::fp16x2)
      return {1e-2, std::max(0x1.0p-8, n * 0x1.0p-12), "fp16x2: abs 1e-2, rel max(2^-8, n*2^-12)"};
    return {1e-5, std::max(1e-6, 4.0 * n * 0x1.0p-24), "fp32: abs 1e-5, rel 4*n*2^-24"};
  }

  // Cells are counted n*n per pair (not (n+1)^2), or only those inside the band. The GPU
  // limit: a cell is four instructions, a sub and an FMA on the FP32 pipe and two mins on the
  // ALU's min/max pipe (half the FP32 rate on Hopper); packed half2 does the same four
  // instructions for two cells. With native DPX (steps 13-16) one 3-input min replaces the two
  // mins: three instructions a cell (two cells in half2), bound by issue. Step 15 on a set against itself computes
  // one triangle and writes each distance twice: two cells counted per cell computed (the
  // diagonal, computed once, makes that a hair generous).
  // Memory: the queries and the subjects read once (floats, whatever a step computes in) and
  // the distances written once, 4 (Q n + entries n + Q entries) bytes; no step writes anything
  // it reads back. Steps launched once per query read the subjects again (from L2 if they
  // fit), so this is a floor; with n^2 cells a pair it binds only for series of a few points.
  Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const override {
    const auto& prob = problem_as<DtwProblem>(problem);
    Work w{"gcups", "GCUPS",
           double(prob.num_queries()) * prob.entries() * band_cells(prob.n(), prob.band), 1e9};
    if (v.backend != Backend::gpu) return w;
    const bool dpx = std::find(v.needs.begin(), v.needs.end(), Feature::dpx) != v.needs.end();
    const bool triangle = v.name == "all_pairs" && prob.queries_are_subjects();
    InstructionMix mix{"fp32 cells", {{Pipe::fp32, 2}, {Pipe::minmax, 2}}, 1, "cell", "FP32"};
    if (v.precision == Precision::fp16x2 && dpx && dpx_native(d))
      mix = {"fp16x2 cells", {{Pipe::fp16x2, 2}, {Pipe::dpx, 1}}, 2, "half2 pair", "FP16x2 + DPX"};
    else if (v.precision == Precision::fp16x2)
      mix = {"fp16x2 cells", {{Pipe::fp16x2, 2}, {Pipe::minmax, 2}}, 2, "half2 pair", "FP16x2"};
    else if (dpx && dpx_native(d))
      mix.per_group = {{Pipe::fp32, 2}, {Pipe::dpx, 1}}, mix.name = "FP32 + DPX";
    if (triangle)
      mix = {"fp32 cells counted", mix.per_group, 2, "cell computed", mix.name + ", triangle"};
    const double q = double(prob.num_queries()), e = double(prob.entries()), n = double(prob.n());
    w.set_limit(mix,
                {4 * (q * n + e * n + q * e), 3, "cells",
                 "queries and subjects read once, distances written once"},
                d);
    return w;
  }

  std::map<std::string, double> describe(const Problem& problem) const override {
    const auto& prob = problem_as<DtwProblem>(problem);
    return {{"n", double(prob.n())},
            {"entries", double(prob.entries())},
            {"queries", double(prob.num_queries())},
            {"first_query", double(prob.query_index.front())},
            {"band", double(prob.band)}};
  }

  // n and entries at sizes 1, primes and around the warp and tile edges; several queries with
  // Gaussian noise; banded points; sets against themselves.
  std::vector<Params> test_points() const override {
    std::vector<Params> out;
    auto add = [&](std::int64_t n, std::int64_t entries, int queries, int band, const char* noise) {
      Params& p = out.emplace_back();
      p.set("n", std::to_string(n));
      p.set("entries", std::to_string(entries));
      p.set("seed", std::to_string(n * 7919 + entries));
      p.set("noise", noise);
      p.set("query", std::to_string((entries - queries) / 2));
      p.set("queries", std::to_string(queries));
      if (band >= 0) p.set("band", std::to_string(band));
    };
    for (std::int64_t n : {1, 2, 31, 32, 33, 127, 128, 129, 200})
      for (std::int64_t entries : {1, 31, 1000, 4099}) add(n, entries, 1, -1, "uniform");
    add(45, 301, 5, -1, "gaussian");
    for (std::int64_t n : {1, 37, 130})
      for (int band : {0, 3, 50}) add(n, 257, 2, band, "uniform");
    // A set against itself (the all-pairs triangle), ragged in every block and stream.
    add(37, 53, 53, -1, "uniform");
    add(2, 41, 41, -1, "uniform");
    add(130, 21, 21, 5, "gaussian");
    return out;
  }

  // 1-NN classification: each query's nearest other series votes its label (leave-one-out).
  std::map<std::string, double> extras(const Problem& problem, const Output& out) const override {
    const auto& prob = problem_as<DtwProblem>(problem);
    if (prob.entries() < 2 || out.size() != output_size(problem)) return {};
    std::int64_t correct = 0;
    for (std::int64_t q = 0; q < prob.num_queries(); ++q) {
      std::int64_t best = -1;
      double best_d = INFINITY;
      for (std::int64_t e = 0; e < prob.entries(); ++e) {
        const double d = out.at(q * prob.entries() + e);
        if (e != prob.query_index[q] && d < best_d) best_d = d, best = e;
      }
      correct += best >= 0 && prob.data.labels[best] == prob.data.labels[prob.query_index[q]];
    }
    return {{"nn1_accuracy", double(correct) / prob.num_queries()},
            {"nn1_queries", double(prob.num_queries())}};
  }

};

const Registrar registrar{std::make_unique<DtwStudy>()};

}  // namespace
}  // namespace ladder::dtw
