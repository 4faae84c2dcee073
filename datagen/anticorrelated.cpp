// The exact sampler of anticorrelated points (anticorrelated.hpp). Notation as there: v in
// [0.25, 0.5], c = min(2, 1/v - 1) (a step of at most 2 is all [-1, 1] allows), K(a, b) = 1
// when b - a lies in [-1, c], and u_0 .. u_{d-1} in [-1, 1] with K(u_{k-1}, u_k) = 1 for every
// k (u_{-1} = u_{d-1}).
//
// Proposal, for v in cell j (phi_j, R_j, phi_min_j as make_cell computes them): the cell with
// probability proportional to E_j = width * prior_max_j * Phi_j * R_j^(d-1) / phi_min_j (Phi_j
// the integral of phi_j), v uniform in it, u_0 with density phi_j / Phi_j, then u_k given
// u_{k-1} = a with density K(a, b) phi_j(b) / Z(a), Z(a) = (K phi_j)(a). The target's density
// over the proposal's is then, up to the constant sum of the E_j,
//   [prior(v) / prior_max_j] * K(u_{d-1}, u_0) * prod_{k<d-1} [Z(u_k) / (phi_j(u_k) R_j)]
//     * [phi_min_j / phi_j(u_{d-1})],
// every factor at most 1 (Z grows with c, and R_j bounds it at the cell's largest c), so
// accepting with that probability draws the target exactly. phi_j near the transfer operator's
// eigenfunction keeps the middle factors near 1; cells narrow in v keep the others so.
#include "anticorrelated.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ladder {
namespace {

constexpr int kCells = 512;   // phi's cells on [-1, 1]
constexpr int kVCells = 64;   // cells of v on [0.25, 0.5]
constexpr double kWidth = 2.0 / kCells;
constexpr double kVLo = 0.25, kVHi = 0.5, kVWidth = (kVHi - kVLo) / kVCells;

double step_limit(double v) { return std::min(2.0, 1 / v - 1); }

// The density of v = normal(0.5, 0.25) = 0.25 + (sum of 12 uniforms) / 24, up to a constant:
// the Irwin-Hall density of the sum at s = 24 (v - 0.25), times 11!.
double prior(double v) {
  static constexpr double kChoose12[] = {1, 12, 66, 220, 495, 792, 924, 792, 495, 220, 66, 12, 1};
  const double s = 24 * (v - kVLo);
  double sum = 0;
  for (int k = 0; k <= 12 && k <= s; ++k) {
    const double t = s - k, t2 = t * t, t4 = t2 * t2;
    sum += (k % 2 ? -1 : 1) * kChoose12[k] * (t4 * t4 * t2 * t);  // (s - k)^11
  }
  return std::max(sum, 0.0);
}

bool in_unit(double x) { return x >= 0 && x <= 1; }

}  // namespace

double AnticorrelatedSampler::integral(const Cell& cell, double x) {
  const double pos = (x + 1) / kWidth;
  const int i = std::clamp(static_cast<int>(pos), 0, kCells - 1);
  return cell.cumulative[i] + std::min(pos - i, 1.0) * kWidth * cell.phi[i];
}

double AnticorrelatedSampler::inverse(const Cell& cell, double t) {
  const auto it = std::upper_bound(cell.cumulative.begin() + 1, cell.cumulative.end() - 1, t);
  const int i = static_cast<int>(it - cell.cumulative.begin()) - 1;
  return std::clamp(-1 + i * kWidth + (t - cell.cumulative[i]) / cell.phi[i], -1.0, 1.0);
}

double AnticorrelatedSampler::phi_at(const Cell& cell, double u) {
  return cell.phi[std::clamp(static_cast<int>((u + 1) / kWidth), 0, kCells - 1)];
}

AnticorrelatedSampler::Cell AnticorrelatedSampler::make_cell(double v_lo, double v_hi) {
  Cell cell;
  cell.v_lo = v_lo;
  cell.c_max = step_limit(v_lo);
  cell.prior_max = prior(v_hi);
  cell.phi.assign(kCells, 1.0);
  cell.cumulative.assign(kCells + 1, 0.0);
  const auto accumulate = [&] {
    for (int i = 0; i < kCells; ++i) cell.cumulative[i + 1] = cell.cumulative[i] + kWidth * cell.phi[i];
  };
  const auto z = [&](double a) {
    return integral(cell, std::min(1.0, a + cell.c_max)) - integral(cell, std::max(-1.0, a - 1));
  };
  // phi: the power iteration phi <- K phi, at the cells' centres (any positive phi keeps the
  // sampler exact; the closer to the eigenfunction, the fewer tries).
  std::vector<double> next(kCells);
  for (int iteration = 0; iteration < 200; ++iteration) {
    accumulate();
    for (int i = 0; i < kCells; ++i) next[i] = z(-1 + (i + 0.5) * kWidth);
    const double top = *std::max_element(next.begin(), next.end());
    double change = 0;
    for (int i = 0; i < kCells; ++i) {
      change = std::max(change, std::abs(next[i] / top - cell.phi[i]));
      cell.phi[i] = next[i] / top;
    }
    if (change < 1e-7) break;
  }
  accumulate();
  cell.phi_min = *std::min_element(cell.phi.begin(), cell.phi.end());
  // R = sup of Z(a) / phi(a). Z is linear between the points where a, a + c or a - 1 crosses
  // a cell edge, phi constant there: the supremum is at one of those points, from one side.
  std::vector<double> at{-1.0, 1.0};
  for (int i = 0; i <= kCells; ++i)
    for (double p : {-1 + i * kWidth, -1 + i * kWidth - cell.c_max, -1 + i * kWidth + 1})
      if (p >= -1 && p <= 1) at.push_back(p);
  std::sort(at.begin(), at.end());
  for (std::size_t k = 1; k < at.size(); ++k) {
    if (!(at[k - 1] < at[k])) continue;
    const double f = phi_at(cell, (at[k - 1] + at[k]) / 2);
    cell.bound = std::max({cell.bound, z(at[k - 1]) / f, z(at[k]) / f});
  }
  cell.bound *= 1 + 1e-9;  // rounding must not make a factor exceed 1
  return cell;
}

const std::vector<AnticorrelatedSampler::Cell>& AnticorrelatedSampler::cells() {
  static const std::vector<Cell> made = [] {
    std::vector<Cell> out;
    for (int j = 0; j < kVCells; ++j) out.push_back(make_cell(kVLo + j * kVWidth, kVLo + (j + 1) * kVWidth));
    return out;
  }();
  return made;
}

AnticorrelatedSampler::AnticorrelatedSampler(int d) : d_(d) {
  if (d < 2) throw std::invalid_argument("AnticorrelatedSampler needs d >= 2");
  std::vector<double> log_weight;
  for (const Cell& c : cells()) {
    log_weight.push_back(std::log(c.prior_max) + std::log(c.cumulative.back()) +
                         (d - 1) * std::log(c.bound) - std::log(c.phi_min));
  }
  const double top = *std::max_element(log_weight.begin(), log_weight.end());
  double sum = 0;
  for (double w : log_weight) cell_cdf_.push_back(sum += std::exp(w - top));
  for (double& w : cell_cdf_) w /= sum;
  cell_cdf_.back() = 1;
}

bool AnticorrelatedSampler::try_draw(Rng& rng, double* x) const {
  const auto j = std::upper_bound(cell_cdf_.begin(), cell_cdf_.end(), rng.uniform()) - cell_cdf_.begin();
  const Cell& cell = cells()[static_cast<std::size_t>(std::min<std::ptrdiff_t>(j, kVCells - 1))];
  const double v = cell.v_lo + kVWidth * rng.uniform();
  const double c = step_limit(v);
  // The proposal is accepted when this uniform lies below the product of the factors; each
  // is at most 1, so the product only falls and a try stops as soon as it is below.
  const double threshold = rng.uniform();
  double p = prior(v) / cell.prior_max;
  if (p <= threshold) return false;
  double* u = x;  // the u_k in place, turned into x_k at the end
  u[0] = inverse(cell, rng.uniform() * cell.cumulative.back());
  for (int k = 1; k < d_; ++k) {
    const double a = u[k - 1];
    const double lo = integral(cell, std::max(-1.0, a - 1)), hi = integral(cell, std::min(1.0, a + c));
    p *= (hi - lo) / (phi_at(cell, a) * cell.bound);
    if (p <= threshold) return false;
    u[k] = inverse(cell, lo + (hi - lo) * rng.uniform());
  }
  const double close = u[0] - u[d_ - 1];
  if (!(close >= -1 && close <= c)) return false;
  p *= cell.phi_min / phi_at(cell, u[d_ - 1]);
  if (p <= threshold) return false;
  // x_k = v (1 + u_k - u_{k-1}), mirrored with probability 1/2; rounding may put a value a
  // hair outside [0, 1], which the rejection sampler would not have kept either.
  const bool mirror = rng.uniform() < 0.5;
  const double last = u[d_ - 1];
  for (int k = d_ - 1; k >= 0; --k) {
    const double xk = v * (1 + u[k] - (k > 0 ? u[k - 1] : last));
    x[k] = mirror ? 1 - xk : xk;
  }
  return std::all_of(x, x + d_, in_unit);
}

}  // namespace ladder
