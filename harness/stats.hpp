// The statistics ladder's timing contract rests on: the process is the sample. Samples taken
// in one process share its state (clocks, memory placement, code layout), so they are not
// independent draws; what is compared across processes is each process's median. Here: the
// two-level variance components of a run's samples (within and between processes, on the log
// scale), Kalibera & Jones's allocation, Welch's t test on log process medians with
// Benjamini-Hochberg across a comparison's rows, the minimum detectable effect, the rank test
// kept as a diagnostic, and the distributions they need.
#pragma once
#include <cstddef>
#include <vector>

namespace ladder::stats {

// ---- distributions ---------------------------------------------------------------------------
double normal_cdf(double z);
double normal_quantile(double p);           // 0 < p < 1
double t_cdf(double t, double df);          // Student's t, df > 0 (df may be fractional)
double t_quantile(double p, double df);     // 0 < p < 1

// ---- variance components ---------------------------------------------------------------------
// A run's samples grouped by process, read on the log scale (times are positive and their
// spread multiplicative). One-way random-effects ANOVA with unequal group sizes: sd_within is
// sqrt(MSW), sd_between is sqrt(max(0, (MSB - MSW) / n0)), icc = between^2 / (between^2 +
// within^2) (0 when both are 0). sd_process is the standard deviation of the log process
// medians: what a test of process medians sees. Fields a group count cannot give are 0
// (one process: no between; one sample a process: no within).
struct Components {
  std::size_t processes = 0;
  double samples_per_process = 0;  // mean count
  double sd_log_within = 0, sd_log_between = 0, sd_log_process = 0, icc = 0;
};
Components variance_components(const std::vector<std::vector<double>>& samples_by_process);

double median(std::vector<double> v);  // of an even count: the mean of the middle two

}  // namespace ladder::stats
