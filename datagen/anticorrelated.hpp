// Anticorrelated points of many attributes, drawn exactly from the distribution of Borzsonyi,
// Kossmann and Stocker (points.hpp) without drawing whole vectors until one falls in [0, 1]^d,
// which takes exponentially many tries in d (about 3% of tries succeed at d = 16, 3e-7 at
// d = 64, where a point took tens of milliseconds).
//
// The vector: v = normal(0.5, 0.25), l = min(v, 1 - v), h_k uniform in [-l, l], and
// x_k = v + h_k - h_{k-1} (indices mod d), kept when every x_k lies in [0, 1]. Mirrored
// (x -> 1 - x, v -> 1 - v, h -> -h) the law is the same, so v is drawn in [0.25, 0.5] and the
// point mirrored with probability 1/2. There h_k = v u_k with u_k uniform in [-1, 1], and the
// vector is kept when every step u_k - u_{k-1} lies in [-1, c], c = 1/v - 1: given v, u is
// uniform on that cycle of constraints. The sampler proposes u as a Markov chain that already
// keeps the steps in [-1, c], each u_k drawn with weight phi(u_k) where phi approximates the
// principal eigenfunction of the constraint's transfer operator (so the chain seldom runs into
// a corner), and v from a table of cells weighed by an upper bound of what a cell's chains are
// worth. It then accepts the proposal with the probability that makes it an exact draw of the
// target (rejection sampling against a proposal whose density ratio is bounded, the bounds
// computed exactly for the piecewise-constant phi): the points have the paper's distribution,
// and a point takes a few tries of d steps each whatever d is.
#pragma once
#include <cstdint>
#include <vector>

#include "rng.hpp"

namespace ladder {

class AnticorrelatedSampler {
 public:
  explicit AnticorrelatedSampler(int d);  // d >= 2

  // Draws one point into x[0, d) from `rng`. `keep_going()` is asked every 64 rejected tries:
  // false stops the draw and returns false.
  template <class KeepGoing>
  bool draw(Rng& rng, double* x, KeepGoing keep_going) const {
    for (std::int64_t tries = 1; !try_draw(rng, x); ++tries)
      if (tries % 64 == 0 && !keep_going()) return false;
    return true;
  }

  // One proposal, accepted (x holds the point) or not.
  bool try_draw(Rng& rng, double* x) const;

 private:
  // phi on one cell of v, piecewise constant on kCells equal cells of [-1, 1], with its
  // cumulative integral at the cell edges.
  struct Cell {
    double v_lo = 0, c_max = 0;
    double prior_max = 0;  // the density of v at the cell's end nearer 0.5 (its largest)
    double bound = 0;      // R: (K phi)(a) / phi(a) <= R for every a and every v of the cell
    double phi_min = 0;
    std::vector<double> phi, cumulative;
  };

  static Cell make_cell(double v_lo, double v_hi);
  static const std::vector<Cell>& cells();  // made once: they do not depend on d
  static double integral(const Cell& cell, double x);  // of phi from -1 to x
  static double inverse(const Cell& cell, double t);   // the x whose integral is t
  static double phi_at(const Cell& cell, double u);

  int d_;
  std::vector<double> cell_cdf_;  // the cells' weights for d, cumulative, the last 1
};

}  // namespace ladder
