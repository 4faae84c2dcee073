#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ladder::stats {

double median(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median of no values");
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + mid) + upper) / 2;
}

namespace {

double sample_sd(const std::vector<double>& x) {
  if (x.size() < 2) return 0;
  double mean = 0;
  for (double v : x) mean += v;
  mean /= double(x.size());
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / double(x.size() - 1));
}

}  // namespace

Components variance_components(const std::vector<std::vector<double>>& samples_by_process) {
  Components c;
  std::vector<std::vector<double>> logs;
  for (const auto& group : samples_by_process) {
    if (group.empty()) continue;
    std::vector<double> l;
    for (double x : group) l.push_back(std::log(x));
    logs.push_back(std::move(l));
  }
  c.processes = logs.size();
  if (logs.empty()) return c;
  double n_total = 0, grand = 0, sum_sq_sizes = 0;
  std::vector<double> means, log_medians;
  for (const auto& l : logs) {
    double m = 0;
    for (double v : l) m += v;
    means.push_back(m / double(l.size()));
    log_medians.push_back(median(l));
    n_total += double(l.size());
    sum_sq_sizes += double(l.size()) * double(l.size());
    grand += m;
  }
  grand /= n_total;
  const double k = double(logs.size());
  c.samples_per_process = n_total / k;
  double ssw = 0, ssb = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    for (double v : logs[i]) ssw += (v - means[i]) * (v - means[i]);
    ssb += double(logs[i].size()) * (means[i] - grand) * (means[i] - grand);
  }
  const double msw = n_total > k ? ssw / (n_total - k) : 0;
  c.sd_log_within = std::sqrt(msw);
  if (k >= 2) {
    const double msb = ssb / (k - 1);
    const double n0 = (n_total - sum_sq_sizes / n_total) / (k - 1);  // the mean group size, weighted
    c.sd_log_between = n0 > 0 ? std::sqrt(std::max(0.0, (msb - msw) / n0)) : 0;
    c.sd_log_process = sample_sd(log_medians);
  }
  const double total = c.sd_log_between * c.sd_log_between + msw;
  c.icc = total > 0 ? c.sd_log_between * c.sd_log_between / total : 0;
  return c;
}

}  // namespace ladder::stats
