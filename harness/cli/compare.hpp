// `ladder compare`'s rows and the statistics that judge them, shared by compare.cpp (reading
// the files, printing the table or CSV) and compare_judge.cpp (the test, BH, verdicts).
#pragma once
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "../stats.hpp"

namespace ladder::cli {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One run as compare sees it: its status and, when timed, its median, the range [lo, hi] of
// its samples and its process medians (one for a one-process file).
struct Side {
  std::string status;
  bool timed = false;
  double median = 0, lo = 0, hi = 0;
  std::size_t samples = 0;
  std::vector<double> medians;    // by process
  double icc = kNaN;              // of its samples by process, where known
  std::vector<double> positions;  // each process's order_position, when the file gives all
  int rounds = 1;                 // the rounds its GPU samples were taken in (timing.rounds)
  std::size_t processes() const { return medians.size(); }
  double geomean() const;         // of the process medians (one: that median, exactly)
};

// A time a ratio can be taken of: measured (passed, or incorrect and marked so) and positive.
bool comparable(const std::optional<Side>& s);

// A run's identity: study, variant, sweep, point, and which occurrence of that point in its
// sweep it is (1, 2, ...), kept apart from the names so that no text a point may hold (a point
// named "p #2") can make two runs one.
using RunId = std::tuple<std::string, std::string, std::string, std::string, std::size_t>;

struct Row {
  std::string study, variant, sweep, point;
  std::size_t occurrence = 1;
  std::optional<Side> a, b;
  RunId id() const { return {study, variant, sweep, point, occurrence}; }
  std::string key() const {
    return study + "/" + variant + (sweep.empty() ? "" : " [" + sweep + "]") + " " + point +
           (occurrence > 1 ? " (occurrence " + std::to_string(occurrence) + ")" : "");
  }
};

// A dimensioning run's process noise: the sd of its log process medians, and their robust sd
// (0 where unknown), the scale of its variant's shape.
struct Noise {
  double sd = 0;
  double robust_sd = 0;
};

struct CompareOptions {
  double q = 0.01;              // BH's false discovery rate across the rows tested
  double min_effect = 0.03;     // the practical floor, relative
  std::string calibration;      // the dimensioning file named, or ""
  std::map<RunId, Noise> noise;  // its process noise by run
  // By study and variant, each of its runs' (median ms, noise): a run DIM lacks (a paper-scale
  // file calibrated by the smoke dimensioning) takes the noise of its variant's run nearest in
  // time, since a step's process noise follows what bounds it at that size (launches, memory,
  // compute) more than the step's name.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, Noise>>> variant_noise;
  // That noise for a run of `study/variant` taking `ms`; null when DIM has no run of it.
  const Noise* variant_noise_near(const std::string& study, const std::string& variant, double ms) const;
  // By study and variant, each run's (median ms, shape of its process noise): its log process
  // medians less their median, over their robust sd. A step's spread changes in scale with
  // its size, but its shape (an OpenMP step's rare waits of milliseconds, 100x a short call)
  // is the step's at sizes near it: a wait of milliseconds is 100x a short call and nothing
  // beside one of seconds.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, std::vector<double>>>> variant_shape;
  // The shapes of `study/variant`'s runs within a factor of 10 of `ms` in time, pooled.
  std::vector<double> shape_near(const std::string& study, const std::string& variant, double ms) const;
};

// The fewest processes a side for Welch's test; the absolute floor of a verdict, in ms (4x
// the ~0.5 us resolution of CUDA events).
constexpr std::size_t kMinProcesses = 5;
constexpr double kFloorMs = 0.002;
// The U test of process medians, a diagnostic, from this many processes a side.
constexpr std::size_t kRankTestProcesses = 8;

// What compare says of a row. `test` is "welch" (K >= 5 a side), "z" (--calibration's sd,
// fewer processes) or "" (none taken).
struct Judgement {
  std::string verdict;  // "" when there is nothing to compare
  std::string test;
  stats::Difference d;  // of log geometric means, B - A
  double q = kNaN, mde = kNaN, u_p = kNaN;
  bool heavy_tailed = false;
  bool dim_tail = false;  // p is the share of DIM's resampled differences, above the normal tail's
  // The sides took their samples in different rounds: for host-bound steps that changes the
  // time itself (`run --rounds`), so a difference may be the sampling's, not the code's.
  std::string rounds_differ;
  int drift = -1;  // 1 flagged, 0 checked, -1 not checkable (no order, too few processes)
  bool tested() const { return !test.empty(); }
};

std::vector<Judgement> judge(const std::vector<Row>& rows, const CompareOptions& o);

// "3.1%", "21%": a relative change as the table shows it.
std::string percent(double fraction);

}  // namespace ladder::cli
