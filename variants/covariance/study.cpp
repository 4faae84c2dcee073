// The covariance study: data (a seeded low-rank-plus-noise generator or a .npy file), the
// FP64 baseline used for validation, tolerances and the GFLOP/s metric.
#include <algorithm>
#include <cmath>

#include "../../datagen/rng.hpp"
#include "../../datagen/base/errors.hpp"
#include "../../harness/memory.hpp"
#include "../../datagen/npy.hpp"
#include "../../harness/hardware.hpp"
#include "problem.hpp"

namespace ladder::covariance {
namespace {

constexpr std::int64_t kMaxFeatures = 1 << 15;

// Rows look like images of correlated pixels: per-feature means in [0.3, 0.7], a few strong
// components with decaying strength, and small noise. Component c's loading on feature j comes
// from stream (seed, m + c); row r's scores and noise from stream (seed, r), so data sets do
// not depend on the thread count.
std::vector<float> generate(std::int64_t m, std::int64_t n, std::uint64_t seed, int components) {
  std::vector<double> loading(static_cast<std::size_t>(components * n));
  for (int c = 0; c < components; ++c) {
    Rng rng(seed, static_cast<std::uint64_t>(m + c));
    for (std::int64_t j = 0; j < n; ++j) loading[c * n + j] = rng.normal() / std::sqrt(double(n));
  }
  std::vector<double> base(static_cast<std::size_t>(n));  // once per feature, not per entry
  for (std::int64_t j = 0; j < n; ++j) base[j] = 0.5 + 0.2 * std::sin(0.37 * j);
  std::vector<float> data(static_cast<std::size_t>(m * n));
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < m; ++r) {
    Rng rng(seed, static_cast<std::uint64_t>(r));
    std::vector<double> score(components);
    for (int c = 0; c < components; ++c) score[c] = rng.normal() * 4.0 / (1 + c);
    for (std::int64_t j = 0; j < n; ++j) {
      double v = base[j];
      for (int c = 0; c < components; ++c) v += score[c] * loading[c * n + j];
      data[r * n + j] = static_cast<float>(v + 0.05 * rng.normal());
    }
  }
  return data;
}

void fill_from_npy(CovProblem& p, const std::string& path) {
  NpyArray a = read_npy(path);
  if (a.shape.size() != 2)
    throw InputError("'" + path + "' has rank " + std::to_string(a.shape.size()) +
                     "; the covariance study needs a 2-D (entries x features) matrix");
  if (a.shape[0] == 0 || a.shape[1] == 0) throw InputError("'" + path + "' is an empty matrix");
  p.m = static_cast<std::int64_t>(a.shape[0]);
  p.n = static_cast<std::int64_t>(a.shape[1]);
  if (p.n > kMaxFeatures)
    throw InputError("'" + path + "' has " + std::to_string(p.n) + " features, more than " +
                     std::to_string(kMaxFeatures));
  p.data.resize(a.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (!std::isfinite(a.values[i]) || std::fabs(a.values[i]) > 1e15)
      throw InputError("'" + path + "' element " + std::to_string(i) +
                       " is not a finite number of magnitude <= 1e15");
    p.data[i] = static_cast<float>(a.values[i]);
  }
}

// Exact means and the largest variance, in double; O(m n).
// Threads take blocks of features; each feature is summed over the rows in row order, so the
// numbers do not depend on the thread count.
void summarise(CovProblem& p) {
  constexpr std::int64_t kBlock = 64;
  p.mean.assign(p.n, 0.0);
  std::vector<double> sq(p.n, 0.0);
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t j0 = 0; j0 < p.n; j0 += kBlock) {
    const std::int64_t j1 = std::min(p.n, j0 + kBlock);
    for (std::int64_t r = 0; r < p.m; ++r)
      for (std::int64_t j = j0; j < j1; ++j) p.mean[j] += p.row(r)[j];
    for (std::int64_t j = j0; j < j1; ++j) p.mean[j] /= double(p.m);
    for (std::int64_t r = 0; r < p.m; ++r)
      for (std::int64_t j = j0; j < j1; ++j) {
        const double x = p.row(r)[j] - p.mean[j];
        sq[j] += x * x;
      }
  }
  p.max_variance = *std::max_element(sq.begin(), sq.end()) / double(p.m);
}

class CovStudy : public Study {
 public:
  CovStudy()
      : Study("covariance", "covariance C = X^T X / m of a mean-centred m x n data matrix",
              {"components"}) {}
  std::vector<std::string> figures() const override { return {"covariance_chunk_sweep"}; }

  std::vector<ParamSpec> data_params() const override {
    using K = ParamSpec::Kind;
    return {{"m", "", "entries (rows, generated data)", K::integer, 1, 1 << 28, {}, true},
            {"n", "", "features (columns, generated data)", K::integer, 1, kMaxFeatures, {}, true},
            {"seed", "42", "generator seed", K::integer, 0, 9.2e18, {}, true},
            {"components", "5", "strong components in the generated data", K::integer, 1, 64, {},
             true}};
  }

  void check_point(const DataSource& src, const Params& p, const Problem*) const override {
    if (!src.file.empty()) {
      if (p.has("m") || p.has("n"))
        throw InputError("'m' and 'n' come from the data file; remove them from the config");
      return;
    }
    if (!p.has("m") || !p.has("n"))
      throw InputError("generated covariance data needs 'm' and 'n'");
  }

  // The data (float) and its means; the n x n float covariance. A .npy file before it is
  // read: its values, at most one per four bytes, as doubles and then as floats.
  Footprint footprint(const DataSource& src, const Params& p,
                      const Problem* loaded) const override {
    if (!src.file.empty() && !loaded) return {(8.0 + 4.0) * data_file_bytes(src.file) / 4, 0, 4};
    const auto* prob = loaded ? &problem_as<CovProblem>(*loaded) : nullptr;
    const double m = prob ? double(prob->m) : double(p.integer("m"));
    const double n = prob ? double(prob->n) : double(p.integer("n"));
    Footprint f{4.0 * m * n + 16.0 * n, n * n, 4};
    f.inner = m;  // multiply-adds per entry
    return f;
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    check_point(src, p, nullptr);
    auto prob = std::make_unique<CovProblem>();
    if (!src.file.empty()) {
      fill_from_npy(*prob, src.file);
    } else {
      prob->m = p.integer("m");
      prob->n = p.integer("n");
      prob->data = generate(prob->m, prob->n, p.integer("seed"),
                            static_cast<int>(p.integer("components")));
    }
    summarise(*prob);
    return prob;
  }

  void write_data(const Problem& problem, const std::string& path) const override {
    const auto& p = problem_as<CovProblem>(problem);
    write_npy(path, Output{p.data, {std::size_t(p.m), std::size_t(p.n)}});
  }

  std::size_t output_size(const Problem& problem) const override {
    const auto& p = problem_as<CovProblem>(problem);
    return static_cast<std::size_t>(p.n * p.n);
  }

  // C[i][j] in double from the exact means; each entry is one pass over the m rows.
  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override {
    const auto& p = problem_as<CovProblem>(problem);
    std::vector<double> out(indices.size());
    const auto count = static_cast<std::int64_t>(indices.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t i = std::int64_t(indices[k]) / p.n, j = std::int64_t(indices[k]) % p.n;
      double sum = 0;
      for (std::int64_t r = 0; r < p.m; ++r)
        sum += (p.row(r)[i] - p.mean[i]) * (p.row(r)[j] - p.mean[j]);
      out[k] = sum / double(p.m);
    }
    return out;
  }

  // Entries near zero have no useful relative error, so the absolute term is taken against
  // the largest variance. An FP32 sum of m products drifts by about sqrt(m) roundings
  // (random walk), so allow 16 sqrt(m) ulps relative; TF32 rounds every input to 10 bits.
  Tolerance tolerance(const Problem& problem, const VariantSpec& v) const override {
    const auto& p = problem_as<CovProblem>(problem);
    if (v.precision == Precision::tf32 || v.precision == Precision::fp16)
      return {5e-3 * p.max_variance, 1e-2,
              std::string(to_string(v.precision)) + ": rel 1e-2, abs 5e-3 * max variance"};
    const double rel = std::max(1e-5, 16.0 * std::sqrt(double(p.m)) * 0x1.0p-24);
    return {rel * p.max_variance, rel,
            "fp32: rel max(1e-5, 16 sqrt(m) 2^-24), abs rel * max variance"};
  }

  // Each step against the pipe its products run on: FP32 FMA lanes, TF32 or FP16 tensor cores,
  // or the tensor cores three times over (three products per FP32-accurate one); and against
  // the DRAM traffic of its pipeline, which depends on the copy of X its layout writes
  // (gpu_step.cuh's pipeline_traffic: D read twice, the copy written and read, C written).
  Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const override {
    Work w{"gflops", "GFLOP/s", triangle_flops(problem_as<CovProblem>(problem)), 1e9};
    if (v.backend == Backend::gpu) {
      const std::string unit = std::string(to_string(v.precision)) + " flops";
      const Traffic traffic = v.traffic ? v.traffic(problem) : Traffic{};
      InstructionMix mix{unit, {{Pipe::fp32, 1}}, 2, "FMA", "FP32"};
      if (v.precision == Precision::tf32)
        mix = {unit, {{Pipe::tensor_tf32, 1}}, 2, "FMA", "TF32 tensor"};
      else if (v.precision == Precision::tf32x3)
        mix = {unit, {{Pipe::tensor_tf32, 3}}, 2, "FMA", "3xTF32 tensor"};
      else if (v.precision == Precision::fp16)
        mix = {unit, {{Pipe::tensor_fp16, 1}}, 2, "FMA", "FP16 tensor"};
      else if (v.precision == Precision::fp16x3)
        mix = {unit, {{Pipe::tensor_fp16, 3}}, 2, "FMA", "3xFP16 tensor"};
      w.set_limit(mix, traffic, d);
    }
    return w;
  }

  std::map<std::string, double> describe(const Problem& problem) const override {
    const auto& p = problem_as<CovProblem>(problem);
    return {{"m", double(p.m)}, {"n", double(p.n)}, {"max_variance", p.max_variance}};
  }

  // One row, a prime, tile edges +-1, a size past several 32-wide tiles and a prime past
  // two 128-wide ones (three tile rows of the triangle, the last one ragged).
  std::vector<Params> test_points() const override {
    std::vector<Params> out;
    for (std::int64_t m : {1, 7, 1000})
      for (std::int64_t n : {1, 31, 33, 100, 257}) {
        Params& p = out.emplace_back();
        p.set("m", std::to_string(m));
        p.set("n", std::to_string(n));
        p.set("seed", std::to_string(m * 31 + n));
      }
    return out;
  }
};

const Registrar registrar{std::make_unique<CovStudy>()};

}  // namespace
}  // namespace ladder::covariance
