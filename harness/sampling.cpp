#include "sampling.hpp"

#include <algorithm>
#include <cmath>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "../datagen/numbers.hpp"
#include "plan.hpp"

namespace ladder {
namespace {

// splitmix64: a small generator whose sequence is fixed by its definition, unlike the
// distributions and shuffles of <random>, which differ between standard libraries.
std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

int process_sample_count(int configured, double warmup_median_ms) {
  constexpr double kFill = 5, kLeast = 20, kMost = 100;  // ms of samples; sample counts
  const double fill = warmup_median_ms > 0 ? std::ceil(kFill / warmup_median_ms) : kMost;
  return std::max(configured, int(std::min(kMost, std::max(kLeast, fill))));
}

std::vector<std::size_t> round_order(std::size_t count, std::uint64_t seed, int round) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  std::uint64_t state = seed ^ (0x2545f4914f6cdd1dull * std::uint64_t(round + 1));
  for (std::size_t i = count; i > 1; --i) {  // Fisher-Yates
    const std::size_t j = std::size_t(splitmix(state) % i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

std::uint64_t round_seed(const std::string& point_key) {
  return std::stoull(stable_hash(point_key), nullptr, 16);
}

int round_share(int total, int rounds, int round) {
  const int each = total / rounds;
  return round + 1 < rounds ? each : total - each * (rounds - 1);
}

Plant parse_plant(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw InputError("--plant '" + printable(text, 80) + "': give RE:FACTOR, e.g. dtw/shared:1.1");
  Plant p;
  p.pattern = text.substr(0, colon);
  p.factor = parse_double(text.substr(colon + 1), "--plant's FACTOR");
  if (!(p.factor > 1 && p.factor <= 10))
    throw InputError("--plant's FACTOR must be above 1 and at most 10, not " + printable(text.substr(colon + 1), 40));
  // std::regex compiles recursively: a bounded pattern keeps a hostile one from the stack.
  if (p.pattern.size() > 256) throw InputError("--plant's RE is longer than 256 characters");
  try {
    p.re = std::regex(p.pattern);
  } catch (const std::regex_error&) {
    throw InputError("--plant '" + printable(p.pattern, 80) + "' is not a valid regular expression");
  }
  return p;
}

}  // namespace ladder
