// The table `run` prints after its runs: each run's median with its spread, so that a reader
// sees at once how far one number can be trusted. One process's spread is half the range of its
// samples (what that process saw; it says nothing of the next process); a file of K processes
// gives the 95% interval of the geometric mean of the process medians, the unit its
// comparisons test.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ladder::cli {

struct SummaryRow {
  std::string id, step, point, status;
  double median_ms = -1;   // -1: untimed
  double spread_pct = -1;  // -1: none to tell (one sample, or times that are not all above 0)
  std::string throughput = "-", pct_of_peak = "-";
};

// Prints the rows as a table on stdout (median with "±x%"), then each failure, then each note
// (one line each); `spread_note` says what the spread is.
void print_run_table(const std::vector<SummaryRow>& rows, const std::vector<std::string>& failures,
                     const std::vector<std::string>& notes, const std::string& spread_note);

// Half the range of `samples` as a percentage of their median; -1 with fewer than two.
double half_range_pct(const std::vector<double>& samples);
// The half-width, in percent, of the 95% t interval of the geometric mean of process medians
// (the upper side, exp(t * se) - 1, on the log scale); -1 with fewer than two or a median not
// above 0.
double geomean_interval_pct(const std::vector<double>& process_medians);

// The same table for a results file read back (a K-process file of `run --processes`).
void print_results_summary(const nlohmann::json& results);

}  // namespace ladder::cli
