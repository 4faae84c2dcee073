// The toy study: uniform random vectors, the exact sum as the reference, GB/s as the metric.
#include <random>

#include "../../../datagen/base/errors.hpp"
#include "../../../harness/memory.hpp"
#include "problem.hpp"

namespace ladder::toy {
namespace {

class ToyStudy : public Study {
 public:
  ToyStudy() : Study("toy", "vector sum c = a + b (the smallest study)", {"uniform"}) {}
  // Its own figure, drawn by paper.py beside this file (plots/README.md: a study's Python).
  std::vector<std::string> figures() const override { return {"toy_paper"}; }
  std::vector<ParamSpec> data_params() const override {
    return {{"n", "", "vector length", ParamSpec::Kind::integer, 1, 1 << 30, {}, true},
            {"seed", "1", "generator seed", ParamSpec::Kind::integer, 0, 9.2e18, {}, true}};
  }

  void check_point(const DataSource& src, const Params& p, const Problem*) const override {
    if (!src.file.empty()) throw InputError("the toy study generates its data");
    if (!p.has("n")) throw InputError("the toy study needs 'n'");
  }

  // Two float vectors (with the room push_back leaves), a float sum per element.
  Footprint footprint(const DataSource&, const Params& p, const Problem*) const override {
    return {16.0 * double(p.integer("n")), double(p.integer("n")), 4};
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    check_point(src, p, nullptr);
    auto prob = std::make_unique<ToyProblem>();
    std::mt19937_64 rng(p.integer("seed"));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (std::int64_t i = 0; i < p.integer("n"); ++i) {
      prob->a.push_back(u(rng));
      prob->b.push_back(u(rng));
    }
    return prob;
  }

  void write_data(const Problem&, const std::string&) const override {
    throw InputError("the toy study has no data file format");
  }
  std::size_t output_size(const Problem& p) const override { return problem_as<ToyProblem>(p).n(); }

  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override {
    const auto& p = problem_as<ToyProblem>(problem);
    std::vector<double> out;
    for (std::size_t i : indices) out.push_back(double(p.a[i]) + double(p.b[i]));
    return out;
  }

  // One rounding of an exact sum: half an ulp.
  Tolerance tolerance(const Problem&, const VariantSpec&) const override {
    return {0, 0x1.0p-24, "fp32: rel 2^-24 (one rounding)"};
  }

  Work work(const Problem& p, const VariantSpec&, const DeviceCaps&) const override {
    return {"gbps", "GB/s", vector_bytes(problem_as<ToyProblem>(p)), 1e9};
  }

  std::map<std::string, double> describe(const Problem& p) const override {
    return {{"n", double(problem_as<ToyProblem>(p).n())}};
  }

  std::vector<Params> test_points() const override {
    std::vector<Params> out;
    for (const char* n : {"1", "97", "1031", "65537"}) out.emplace_back().set("n", n);
    return out;
  }
};

const Registrar registrar{std::make_unique<ToyStudy>()};

}  // namespace
}  // namespace ladder::toy
