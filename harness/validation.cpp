#include "validation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

namespace ladder {

std::vector<std::size_t> validation_indices(const Validation& v, std::size_t total,
                                            std::uint64_t seed) {
  std::vector<std::size_t> idx;
  if (v.mode == Validation::Mode::off || total == 0) return idx;
  if (v.mode == Validation::Mode::full || v.sample >= total) {
    idx.resize(total);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    return idx;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, total - 1);
  std::set<std::size_t> chosen{0};
  while (chosen.size() < v.sample) chosen.insert(pick(rng));
  return {chosen.begin(), chosen.end()};
}

namespace {

std::string describe_failure(std::size_t index, double got, double want) {
  std::ostringstream os;
  os.precision(9);
  os << "index " << index << ": got " << got << ", want " << want;
  return os.str();
}

}  // namespace

ValidationResult compare_outputs(const Output& got, std::size_t expected_size,
                                 const std::vector<std::size_t>& indices,
                                 const std::vector<double>& want, const Tolerance& tol) {
  ValidationResult r;
  if (got.size() != expected_size) {
    r.ok = false;
    r.first_failure = "output has " + std::to_string(got.size()) + " elements, want " +
                      std::to_string(expected_size);
    return r;
  }
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::size_t i = indices[k];
    const double g = got.at(i), w = want[k];
    bool pass;
    double abs_err = 0;
    if (std::isnan(g) || std::isnan(w)) {
      pass = false;
      abs_err = INFINITY;
    } else if (std::isinf(g) || std::isinf(w)) {
      pass = g == w;
      abs_err = pass ? 0 : INFINITY;
    } else {
      abs_err = std::fabs(g - w);
      pass = abs_err <= tol.abs + tol.rel * std::fabs(w);
    }
    r.max_abs = std::max(r.max_abs, abs_err);
    if (w != 0 && std::isfinite(w)) r.max_rel = std::max(r.max_rel, abs_err / std::fabs(w));
    if (!pass) {
      if (r.failures == 0) r.first_failure = describe_failure(i, g, w);
      ++r.failures;
      r.ok = false;
    }
    ++r.checked;
  }
  return r;
}

}  // namespace ladder
