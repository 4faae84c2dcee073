// How a run's samples are taken beyond the config's count, for the process-level measurement
// (each process a sample, compared by its medians): how many samples a GPU run takes under
// `--process-samples`, the rounds `--rounds` spreads them over and the order of a point's steps
// in each round, and the planted slowdown `--plant` that tests the statistics.
#pragma once
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

namespace ladder {

// The samples a GPU run takes under `--process-samples`: the config's count at least, else 20,
// or as many as fill 5 ms of the warm-up calls' median time (`warmup_median_ms`), at most 100.
// Few samples suffice where the process is the unit, but short steps vary more within one
// process than between processes, and their median firms up only with more.
int process_sample_count(int configured, double warmup_median_ms);

// The order of a point's `count` GPU runs in round `round`: a permutation of 0..count-1 drawn
// from `seed` and the round alone (its own generator and shuffle, so every build and standard
// library draws the same one).
std::vector<std::size_t> round_order(std::size_t count, std::uint64_t seed, int round);

// The seed of a point's round orders, from its key (the same on every machine).
std::uint64_t round_seed(const std::string& point_key);

// The samples round `round` of `rounds` takes of `total`: total / rounds (rounded down) each, the
// last round the rest; with fewer samples than rounds, the last round takes them all.
int round_share(int total, int rounds, int round);

// `--plant RE:FACTOR`: the steps whose "study/variant" RE finds run FACTOR times as long, a
// wait of (FACTOR - 1) x their warm-up median appended inside the timed window.
struct Plant {
  std::string pattern;
  double factor = 1;
  std::regex re;
  bool matches(const std::string& variant_id) const { return std::regex_search(variant_id, re); }
};

// Reads RE:FACTOR (split at the last ':'); FACTOR in (1, 10], RE a regular expression of at most
// 256 characters. Throws InputError naming --plant.
Plant parse_plant(const std::string& text);

}  // namespace ladder
