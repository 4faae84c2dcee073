// The EED baselines: the golden cases, both sequential recurrences against a shortest-path
// search over edit sequences (Dijkstra on strings: an oracle that knows nothing of the
// recurrence), the two recurrences against each other on longer random pairs, and the CPU
// steps through the registry.
#include <gtest/gtest.h>

#include <map>
#include <queue>
#include <random>
#include <string>

#include "harness/study.hpp"
#include "variants/eed/problem.hpp"

namespace ladder::eed {
namespace {

std::vector<std::uint8_t> codes(const std::string& s) { return {s.begin(), s.end()}; }

std::int32_t full(const std::string& a, const std::string& b, Costs c = {}) {
  const auto x = codes(a), y = codes(b);
  return eed_full(x.data(), std::int64_t(x.size()), y.data(), std::int64_t(y.size()), 256, c);
}
std::int32_t linear(const std::string& a, const std::string& b, Costs c = {}) {
  const auto x = codes(a), y = codes(b);
  return eed_linear(x.data(), std::int64_t(x.size()), y.data(), std::int64_t(y.size()), 256, c);
}

TEST(EedGolden, UnitCosts) {
  const struct {
    const char *a, *b;
    int want;
  } cases[] = {{"pantera", "aorta", 4}, {"CA", "ABC", 2}, {"ab", "ba", 1}, {"abc", "ca", 2},
               {"", "abc", 3},          {"abc", "", 3},   {"", "", 0},     {"zero", "zero", 0},
               {"a", "b", 1},           {"abcdef", "badcfe", 3}};
  for (const auto& c : cases) {
    EXPECT_EQ(full(c.a, c.b), c.want) << c.a << " -> " << c.b;
    EXPECT_EQ(linear(c.a, c.b), c.want) << c.a << " -> " << c.b;
  }
}

// The restricted (OSA) distance of "pantera" -> "aorta" is 5: a swap followed by an edit
// between the swapped symbols is what only the unrestricted distance allows.
TEST(EedGolden, NotTheRestrictedDistance) { EXPECT_LT(full("pantera", "aorta"), 5); }

// The cheapest sequence of single edits (insert, delete, substitute, swap adjacent) turning
// a into b, by Dijkstra over the strings of at most `cap` symbols of the given alphabet.
std::int64_t edit_search(const std::string& a, const std::string& b, const Costs& c,
                         const std::string& sigma, std::size_t cap) {
  std::map<std::string, std::int64_t> dist{{a, 0}};
  using Item = std::pair<std::int64_t, std::string>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  q.push({0, a});
  auto relax = [&](const std::string& s, std::int64_t d) {
    if (s.size() > cap) return;
    auto it = dist.find(s);
    if (it == dist.end() || d < it->second) dist[s] = d, q.push({d, s});
  };
  while (!q.empty()) {
    auto [d, s] = q.top();
    q.pop();
    if (d != dist[s]) continue;
    if (s == b) return d;
    for (std::size_t i = 0; i <= s.size(); ++i)
      for (char x : sigma) relax(s.substr(0, i) + x + s.substr(i), d + c.ins);
    for (std::size_t i = 0; i < s.size(); ++i) {
      relax(s.substr(0, i) + s.substr(i + 1), d + c.del);
      for (char x : sigma)
        if (x != s[i]) relax(s.substr(0, i) + x + s.substr(i + 1), d + c.sub);
      if (i + 1 < s.size() && s[i] != s[i + 1]) {
        std::string t = s;
        std::swap(t[i], t[i + 1]);
        relax(t, d + c.swap);
      }
    }
  }
  return -1;
}

// Lowrance and Wagner: with 2 w_swap >= w_ins + w_del the recurrence is the cheapest edit
// sequence. Random short strings over small alphabets, unit and non-unit costs.
TEST(EedOracle, RecurrencesEqualTheCheapestEditSequence) {
  std::mt19937 rng(20151);
  const Costs cost_sets[] = {{1, 1, 1, 1}, {2, 3, 4, 3}, {1, 1, 3, 1}, {5, 1, 2, 3}, {1, 2, 1, 2}};
  for (const Costs& c : cost_sets)
    for (const std::string sigma : {"ab", "abc"})
      for (int trial = 0; trial < 60; ++trial) {
        auto random = [&](int len) {
          std::string s;
          for (int k = 0; k < len; ++k) s += sigma[rng() % sigma.size()];
          return s;
        };
        const std::string a = random(int(rng() % 6)), b = random(int(rng() % 6));
        const std::int64_t want = edit_search(a, b, c, sigma, std::max(a.size(), b.size()) + 2);
        EXPECT_EQ(full(a, b, c), want) << a << " -> " << b << " costs " << c.ins << c.del
                                       << c.sub << c.swap;
        EXPECT_EQ(linear(a, b, c), want) << a << " -> " << b;
      }
}

TEST(EedOracle, FullAndLinearAgreeOnLongerPairs) {
  std::mt19937 rng(7);
  for (int alphabet : {1, 2, 4, 26, 256})
    for (int trial = 0; trial < 12; ++trial) {
      const int n = int(rng() % 300), m = int(rng() % 300);
      std::vector<std::uint8_t> a(n), b(m);
      for (auto& x : a) x = std::uint8_t(rng() % alphabet);
      for (auto& x : b) x = std::uint8_t(rng() % alphabet);
      const Costs c{int(rng() % 3 + 1), int(rng() % 3 + 1), int(rng() % 5), 3};
      EXPECT_EQ(eed_full(a.data(), n, b.data(), m, alphabet, c),
                eed_linear(a.data(), n, b.data(), m, alphabet, c))
          << "alphabet " << alphabet << " n " << n << " m " << m;
    }
}

TEST(EedPreprocessing, LastOccurrenceTable) {
  const std::vector<std::uint8_t> a = codes(std::string("\x01\x00\x01\x02", 4));
  std::vector<std::int32_t> P(5 * 3, -1);
  last_occurrence_serial(a.data(), 4, 3, P.data());
  const std::vector<std::int32_t> want = {0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 1, 0, 2, 3, 0};
  EXPECT_EQ(P, want);
}

// Every CPU step through the registry on generated data, against the study's reference.
TEST(EedSteps, CpuStepsMatchTheReference) {
  const Study* study = registry().study("eed");
  ASSERT_NE(study, nullptr);
  Params given;
  given.set("pairs", "13");
  given.set("n", "57");
  given.set("m", "40");
  given.set("spread", "0.7");
  given.set("alphabet", "5");
  given.set("w_sub", "2");
  const Params p = resolve(*study, nullptr, given);
  const auto problem = study->make_problem({"random_pairs", ""}, p);
  std::vector<std::size_t> all(13);
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  const std::vector<double> want = study->reference(*problem, all);
  int steps = 0;
  for (const VariantSpec* v : registry().variants("eed")) {
    if (v->backend != Backend::cpu) continue;
    auto inst = v->prepare(*problem, resolve(*study, v, given), DeviceCaps{});
    inst->poison();
    inst->run_ms();
    const Output out = inst->fetch();
    ASSERT_EQ(out.size(), all.size()) << v->id();
    for (std::size_t k = 0; k < all.size(); ++k) EXPECT_EQ(out.at(k), want[k]) << v->id() << " " << k;
    ++steps;
  }
  EXPECT_GE(steps, 3);
}

}  // namespace
}  // namespace ladder::eed
