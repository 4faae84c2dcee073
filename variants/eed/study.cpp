// The extended edit distance study: its data (random string pairs, optionally one derived from
// the other by edits, or a text file of pairs), the costs and their exactness condition, the
// sequential reference, exact validation and the cell rate with its integer limit.
#include <algorithm>
#include <cmath>

#include <omp.h>

#include "../../datagen/base/errors.hpp"
#include "../../harness/memory.hpp"
#include "../../harness/hardware.hpp"
#include "problem.hpp"

namespace ladder::eed {
namespace {

using K = ParamSpec::Kind;
constexpr std::int64_t kMaxLength = std::int64_t(1) << 24;
constexpr double kMaxCost = 1 << 20;
// Pairs whose full table has at most this many cells are checked with the full-table
// reference (the paper's sequential H); longer ones in linear memory.
constexpr double kFullTableCells = 1 << 24;

Costs costs_of(const Params& p) {
  return {std::int32_t(p.integer("w_ins")), std::int32_t(p.integer("w_del")),
          std::int32_t(p.integer("w_sub")), std::int32_t(p.integer("w_swap"))};
}

void check_costs(const Costs& c) {
  if (2 * std::int64_t(c.swap) < std::int64_t(c.ins) + c.del)
    throw InputError("w_swap = " + std::to_string(c.swap) + " breaks 2 * w_swap >= w_ins + w_del (" +
                     std::to_string(c.ins) + " + " + std::to_string(c.del) +
                     "): the recurrence is exact only when it holds");
}

// The largest value any cell or sum of the recurrence can take for lengths n and m.
double bound(std::int64_t n, std::int64_t m, const Costs& c) {
  return double(n) * c.del + double(m) * c.ins + double(std::max(c.sub, c.swap));
}

void check_bound(std::int64_t n, std::int64_t m, const Costs& c, const std::string& what) {
  if (bound(n, m, c) >= double(kMaxDistance))
    throw InputError(what + ": lengths " + std::to_string(n) + " and " + std::to_string(m) +
                     " with these costs could reach distances of 2^27 and beyond (32-bit sums "
                     "would overflow): lower the costs or the lengths");
}

class EedStudy : public Study {
 public:
  EedStudy()
      : Study("eed", "extended edit distance (with swaps) between string pairs",
              {"random_pairs"}) {}
  std::vector<std::string> figures() const override { return {"eed_paper"}; }

  std::vector<ParamSpec> data_params() const override {
    return {
        {"pairs", "100", "string pairs", K::integer, 1, 1 << 26, {}, true},
        {"n", "1000", "length of each A string", K::integer, 0, double(kMaxLength), {}, true},
        {"m", "", "length of each B string (default n; not with a mutation rate)", K::integer, 0,
         double(kMaxLength), {}, true},
        {"spread", "0", "lengths uniform in [len (1 - spread), len]", K::real, 0, 1, {}, true},
        {"alphabet", "10", "symbols drawn uniformly from an alphabet of this size", K::integer, 1,
         256, {}, true},
        {"mutation", "", "B is A edited at this rate per position (substitution, insertion, "
                         "deletion or swap); default: B drawn independently",
         K::real, 0, 1, {}, true},
        {"seed", "42", "generator seed", K::integer, 0, 9.2e18, {}, true},
        {"format", "", "layout of a data file: tsv (A<TAB>B per line), lines (A and B on "
                       "consecutive lines) or auto (default: a name ending in .tsv, or one tab "
                       "on every line and no control byte, is tsv; no tab at all is lines; "
                       "anything else is refused until stated)",
         K::text, 0, 0, {"auto", "tsv", "lines"}},
        {"w_ins", "1", "insertion cost", K::integer, 0, kMaxCost},
        {"w_del", "1", "deletion cost", K::integer, 0, kMaxCost},
        {"w_sub", "1", "substitution cost", K::integer, 0, kMaxCost},
        {"w_swap", "1", "cost of swapping adjacent symbols (2 w_swap >= w_ins + w_del)",
         K::integer, 0, kMaxCost},
    };
  }

  void check_point(const DataSource& src, const Params& p, const Problem*) const override {
    const Costs c = costs_of(p);
    check_costs(c);
    if (!src.file.empty()) return;  // the file's lengths are checked once it is read
    if (p.has("format"))
      throw InputError("'format' is the layout of a data file; generated pairs have none: "
                       "remove it");
    if (p.has("mutation") && p.has("m"))
      throw InputError("with a mutation rate B is derived from A: remove 'm'");
    const std::int64_t n = p.integer("n");
    // A mutated B is at most twice as long as A (an insertion at every position).
    const std::int64_t m = p.has("m") ? p.integer("m") : p.has("mutation") ? 2 * n : n;
    check_bound(n, m, c, "the generated pairs");
  }

  // The strings' codes and offsets, twice (a GPU step stages a pinned copy), one int32
  // distance per pair; the reference needs one table per thread for the longest pair. A file
  // before it is read: its text, its codes and at most one offset per byte.
  Footprint footprint(const DataSource& src, const Params& p,
                      const Problem* loaded) const override {
    if (!src.file.empty() && !loaded) {
      const double bytes = data_file_bytes(src.file);
      return {10 * bytes, 0, 4};
    }
    double pairs, n, m, codes, alphabet;
    if (loaded) {
      const auto& l = problem_as<EedProblem>(*loaded);
      pairs = double(l.pairs()), n = double(l.max_a), m = double(l.max_b);
      codes = double(l.data.codes.size()), alphabet = l.alphabet();
    } else {
      pairs = double(p.integer("pairs")), n = double(p.integer("n"));
      // A mutated B is at most twice as long as A (an insertion at every position).
      m = p.has("m") ? double(p.integer("m")) : p.has("mutation") ? 2 * n : n;
      codes = pairs * (n + m), alphabet = double(p.integer("alphabet"));
    }
    const bool full = (n + 1) * (m + 1) <= kFullTableCells;
    const double table = full ? 4 * (n + 1) * (m + 1 + alphabet) : 4 * (m + 1) * (alphabet + 3);
    Footprint f{2 * (codes + 16 * pairs), pairs, 4, double(omp_get_max_threads()) * table};
    f.inner = (n + 1) * (m + 1);  // DP cells per pair
    return f;
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    check_point(src, p, nullptr);
    auto prob = std::make_unique<EedProblem>();
    prob->costs = costs_of(p);
    if (!src.file.empty()) {
      prob->data = read_string_pairs(
          src.file, pairs_format(p.has("format") ? p.text("format") : "auto"));
    } else {
      StringGen g;
      g.pairs = p.integer("pairs");
      g.n = p.integer("n");
      g.m = p.has("m") ? p.integer("m") : g.n;
      g.spread = p.real("spread");
      g.alphabet = int(p.integer("alphabet"));
      g.mutation = p.has("mutation") ? p.real("mutation") : -1.0;
      g.seed = std::uint64_t(p.integer("seed"));
      prob->data = generate_string_pairs(g);
    }
    for (std::int64_t k = 0; k < prob->pairs(); ++k) {
      const std::int64_t n = prob->data.a_length(k), m = prob->data.b_length(k);
      if (std::max(n, m) > kMaxLength)
        throw InputError("pair " + std::to_string(k) + " holds a string of " +
                         std::to_string(std::max(n, m)) + " symbols, beyond the limit of " +
                         std::to_string(kMaxLength));
      check_bound(n, m, prob->costs, "pair " + std::to_string(k));
      prob->max_a = std::max(prob->max_a, n);
      prob->max_b = std::max(prob->max_b, m);
      prob->cells += double(n) * double(m);
    }
    return prob;
  }

  void write_data(const Problem& problem, const std::string& path) const override {
    write_string_pairs(path, problem_as<EedProblem>(problem).data);
  }

  void check_writable(const DataSource& src, const Params& p) const override {
    if (src.file.empty()) check_written_alphabet(int(p.integer("alphabet")));
  }

  std::size_t output_size(const Problem& problem) const override {
    return std::size_t(problem_as<EedProblem>(problem).pairs());
  }

  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override {
    const auto& p = problem_as<EedProblem>(problem);
    std::vector<double> out(indices.size());
    const auto count = std::int64_t(indices.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t i = 0; i < count; ++i) {
      const auto k = std::size_t(indices[i]);
      const std::int64_t n = p.data.a_length(k), m = p.data.b_length(k);
      const bool full = double(n + 1) * double(m + 1) <= kFullTableCells;
      out[i] = (full ? eed_full : eed_linear)(p.data.a(k), n, p.data.b(k), m, p.alphabet(),
                                              p.costs);
    }
    return out;
  }

  Tolerance tolerance(const Problem&, const VariantSpec&) const override {
    return {0, 0, "exact: integer distances"};
  }

  // Cells are counted len_A * len_B per pair (not (n+1)(m+1)). The GPU limit: a cell is at
  // least eight 32-bit integer operations (the symbol compare, the substitution select, three
  // edit sums with their minima, the swap's two sums and its minimum) where the compiler fuses
  // each sum and minimum into one DPX add-min (compute capability 9.0 and later), eleven
  // where it cannot.
  // Memory: every GPU step's timed run copies the strings in (a byte a symbol, an 8-byte offset
  // a string) and the distances out (4 bytes a pair) over the host link, one copy after the
  // other on the run's stream, so the link's bandwidth bounds it. Not counted: the device's
  // own traffic (the DP rows, and the last-occurrence table P of steps 4-6, built on the host
  // and copied or built on the device as their `prep` says), so the bound is never too low.
  Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const override {
    const auto& p = problem_as<EedProblem>(problem);
    Work w{"gcups", "GCUPS", p.cells, 1e9};
    if (v.backend == Backend::gpu) {
      const double bytes = double(p.data.codes.size()) + 8.0 * double(p.data.offset.size()) +
                           4.0 * double(p.pairs());
      w.set_limit({"int32 cells", {{Pipe::int32, dpx_native(d) ? 8.0 : 11.0}}, 1, "cell", "INT32"},
                  {bytes, 1, "cells", "strings and their offsets copied in, distances copied out",
                   Traffic::Link::host},
                  d);
    }
    return w;
  }

  std::map<std::string, double> describe(const Problem& problem) const override {
    const auto& p = problem_as<EedProblem>(problem);
    return {{"pairs", double(p.pairs())},  {"n", double(p.max_a)},
            {"m", double(p.max_b)},        {"alphabet", double(p.alphabet())},
            {"cells", p.cells},            {"w_ins", double(p.costs.ins)},
            {"w_del", double(p.costs.del)}, {"w_sub", double(p.costs.sub)},
            {"w_swap", double(p.costs.swap)}};
  }

  std::vector<Params> test_points() const override;
};

// Lengths 0, 1, 2, around 32 and 1024, unequal and spread lengths, every alphabet size from 1
// to 256, near and far pairs (mutation), non-unit costs at and beyond the exactness edge.
std::vector<Params> EedStudy::test_points() const {
  std::vector<Params> out;
  auto add = [&](std::int64_t pairs, std::int64_t n, std::int64_t m, int alphabet) -> Params& {
    Params& p = out.emplace_back();
    p.set("pairs", std::to_string(pairs));
    p.set("n", std::to_string(n));
    if (m >= 0) p.set("m", std::to_string(m));
    p.set("alphabet", std::to_string(alphabet));
    p.set("seed", std::to_string(n * 7919 + m * 31 + alphabet));
    return p;
  };
  add(9, 45, 37, 4).set("spread", "0.5");  // first: a point every step can run
  const std::int64_t sizes[][2] = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 2}, {2, 1}, {31, 33},
                                   {32, 32}, {33, 31}, {97, 64}};
  for (const auto& s : sizes)
    for (int alphabet : {1, 2, 10, 256}) add(7, s[0], s[1], alphabet);
  add(3, 1000, 1023, 10);
  add(3, 1023, 1000, 26);
  add(2, 1000, 997, 256);
  add(5, 300, -1, 4).set("mutation", "0.1");
  add(40, 60, 61, 20).set("spread", "1");
  // The next three sit at the 16-bit edge of the warp steps' saved rows: 62 w_del + 63 w_ins
  // just fits (w = 259), with a small and a large swap constant, and w = 263 just does not.
  // The last two are near that edge too (31,250 and 23,000 of 32,767), with a large negative
  // and a large positive swap constant (w_swap - 2 w_del - 2 w_ins = -750 and 8,400).
  for (const char* costs : {"2,3,4,3", "1,1,3,1", "5,1,2,3", "0,4,1,2", "3,3,7,3",
                            "259,259,1,259", "259,259,30000,30000", "263,263,300,263",
                            "250,250,250,250", "200,100,100,9000"}) {
    int w[4];
    std::sscanf(costs, "%d,%d,%d,%d", &w[0], &w[1], &w[2], &w[3]);
    Params& p = w[0] < 250 ? add(11, 70, 77, 3) : add(11, 60, 61, 3);
    p.set("w_ins", std::to_string(w[0]));
    p.set("w_del", std::to_string(w[1]));
    p.set("w_sub", std::to_string(w[2]));
    p.set("w_swap", std::to_string(w[3]));
    p.set("seed", std::to_string(w[0] * 1000 + w[1] * 100 + w[2] * 10 + w[3]));
  }
  return out;
}

const Registrar registrar{std::make_unique<EedStudy>()};

}  // namespace
}  // namespace ladder::eed
