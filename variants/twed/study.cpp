// The TWED study: its data (four generators, or a UCR, .npy or MNIST IDX file, optionally a
// second file for B), the pairs a mode asks for, the sequential reference used for validation,
// tolerances and the GCUPS metric with its FP64/FP32 limit.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <omp.h>

#include "../../datagen/base/errors.hpp"
#include "../../datagen/data_file.hpp"
#include "../../datagen/multiseries.hpp"
#include "../../datagen/series.hpp"
#include "../../harness/memory.hpp"
#include "../../harness/hardware.hpp"
#include "problem.hpp"

namespace ladder::twed {
namespace {

constexpr std::int64_t kMaxLength = std::int64_t(1) << 24;
constexpr std::int64_t kMaxStudyDim = 1024;
// Pairs whose full DP matrix has at most this many cells are checked with the full-matrix
// reference (twed.c's algorithm); longer ones with the linear-memory ITWED.
constexpr double kFullMatrixCells = 1 << 22;

using K = ParamSpec::Kind;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The first bytes of a file, to tell its kind. It is opened as every reader opens a file: a
// FIFO (which would block), a device or a directory is refused before a byte is read.
std::string head(const std::string& path) {
  return read_file_start(path, quoted_name(path), "a data file", 16);
}

// The first bytes of a file no reader refuses for what it is: head's, and not compressed
// (named as such, whatever the file's name).
std::string checked_head(const std::string& path) {
  const std::string h = head(path);
  refuse_compressed(h, quoted_name(path));
  return h;
}

// Reads a data file by its kind: .npy (by its magic string), MNIST IDX (starts with two zero
// bytes, which no text file does), else UCR text (R^1).
MultiSeries read_file(const std::string& path, bool time_channel) {
  const std::string h = checked_head(path);
  if (h.rfind("\x93NUMPY", 0) == 0 || ends_with(path, ".npy"))
    return read_multiseries_npy(path, time_channel);
  if (time_channel)
    throw InputError(quoted_name(path) + " carries no timestamps (only a .npy file can, as "
                     "channel 0); use timestamps 'index' or 'zero'");
  if (h.size() >= 2 && h[0] == 0 && h[1] == 0) return read_idx_images(path);
  const SeriesSet s = read_ucr(path);
  MultiSeries m;
  m.count = s.entries, m.length = s.length, m.dim = 1;
  m.values.assign(s.values.begin(), s.values.end());
  m.labels = s.labels;
  return m;
}

// Generator defaults that depend on the generator: series count and length.
struct Shape {
  std::int64_t series, n, dim;
};

Shape generated_shape(const std::string& gen, const Params& p) {
  auto get = [&](const char* name, std::int64_t fallback) {
    return p.has(name) ? p.integer(name) : fallback;
  };
  auto fixed = [&](const char* name, std::int64_t value) {
    if (p.has(name) && p.integer(name) != value)
      throw InputError("generator " + gen + " makes " + name + " = " + std::to_string(value) +
                       "; remove '" + name + "' or set it to that");
    return value;
  };
  if (gen == "random_walk") {
    if (!p.has("n")) throw InputError("generator random_walk needs 'n' (the series length)");
    return {get("series", 2), p.integer("n"), get("dim", 1)};
  }
  if (gen == "synthetic_control") return {get("series", 600), get("n", 60), fixed("dim", 1)};
  if (gen == "pseudo_periodic") return {get("series", 10), get("n", 100000), fixed("dim", 1)};
  if (gen == "mnist_like") return {get("series", 1000), fixed("n", 28), fixed("dim", 28)};
  throw InputError("unknown TWED generator '" + gen + "'");
}

MultiSeries generate(const std::string& gen, const Shape& s, std::int64_t length,
                     std::uint64_t seed) {
  if (gen == "random_walk") return generate_random_walks(s.series, length, s.dim, seed);
  if (gen == "synthetic_control") return generate_synthetic_control(s.series, length, seed);
  if (gen == "pseudo_periodic") return generate_pseudo_periodic(s.series, length, seed);
  return generate_mnist_like(s.series, seed);
}

// Timestamps as the config asks: index (1..n, aeon), zero (0..n-1, cuTWED's tests) or the
// data's own (checked strictly increasing by the readers and generators).
void set_times(SeriesList& l, const MultiSeries& m, const std::string& how,
               const std::string& what) {
  if (how == "data") {
    if (m.times.empty())
      throw InputError(what + " carries no timestamps; use timestamps 'index' or 'zero'");
    l.times = m.times;
    return;
  }
  const double first = how == "index" ? 1.0 : 0.0;
  l.times.resize(std::size_t(l.count * l.length));
  for (std::int64_t e = 0; e < l.count; ++e)
    for (std::int64_t k = 0; k < l.length; ++k) l.times[e * l.length + k] = first + double(k);
}

// Series [first, first + count) of a set, with its timestamps.
SeriesList slice(const MultiSeries& m, std::int64_t first, std::int64_t count,
                 const std::string& times, const std::string& what) {
  if (first < 0 || count < 1 || first + count > std::int64_t(m.count))
    throw InputError(what + ": series " + std::to_string(first) + ".." +
                     std::to_string(first + count - 1) + " go beyond its " +
                     std::to_string(m.count) + " series");
  SeriesList l;
  l.count = count, l.length = std::int64_t(m.length), l.dim = std::int64_t(m.dim);
  l.source_count = std::int64_t(m.count);
  l.first = first;
  const std::size_t per = m.length * m.dim;
  l.values.assign(m.values.begin() + first * per, m.values.begin() + (first + count) * per);
  MultiSeries part = m;
  if (!m.times.empty())
    part.times.assign(m.times.begin() + first * m.length,
                      m.times.begin() + (first + count) * m.length);
  set_times(l, part, times, what);
  if (!m.labels.empty()) l.labels.assign(m.labels.begin() + first, m.labels.begin() + first + count);
  return l;
}

void check_values(const SeriesList& l, const std::string& what) {
  for (std::size_t k = 0; k < l.values.size(); ++k)
    if (!std::isfinite(l.values[k]))
      throw InputError(what + " holds a non-finite value in series " +
                       std::to_string(k / (l.length * l.dim)));
}

class TwedStudy : public Study {
 public:
  TwedStudy()
      : Study("twed", "time warp edit distance between series in R^dim with timestamps",
              {"random_walk", "synthetic_control", "pseudo_periodic", "mnist_like"}) {}
  std::vector<std::string> figures() const override { return {"twed_paper", "twed_table2"}; }

  std::vector<ParamSpec> data_params() const override {
    return {
        {"n", "", "series length (generated data; some generators have a default)", K::integer, 1,
         double(kMaxLength), {}, true},
        {"m", "", "length of the B series: a second generated list (default: B is A's list)",
         K::integer, 1, double(kMaxLength), {}, true},
        {"series", "", "series in the generated list (default per generator)", K::integer, 1,
         1 << 24, {}, true},
        {"dim", "", "point dimension of random walks (default 1)", K::integer, 1,
         double(kMaxStudyDim), {}, true},
        {"seed", "42", "generator seed", K::integer, 0, 9.2e18, {}, true},
        {"b_file", "", "file holding the B list (default: B is A's list)", K::path, 0, 0},
        {"mode", "pair", "pair (one A against one B), batch (every A against every B), "
                         "triangle (A against itself, i < j only)",
         K::text, 0, 0, {"pair", "batch", "triangle"}},
        {"a", "0", "first A series", K::integer, 0, 1 << 30},
        {"a_count", "", "number of A series (pair: 1; default: all from 'a')", K::integer, 1,
         1 << 30},
        {"b", "", "pair mode: the B series (default: a + 1 in A's own list, else 0)",
         K::integer, 0, 1 << 30},
        {"timestamps", "index", "index (1..n, aeon), zero (0..n-1, cuTWED's tests) or data",
         K::text, 0, 0, {"index", "zero", "data"}},
        {"nu", "1", "stiffness nu >= 0", K::real, 0, 1e15},
        {"lambda", "1", "edit penalty lambda >= 0", K::real, 0, 1e15},
        {"degree", "2", "degree p of the Lp point distance", K::integer, 1, 64},
        {"root", "on", "on: the rooted Lp norm (cuTWED, aeon); off: its p-th power (twed.c)",
         K::text, 0, 0, {"on", "off"}},
    };
  }

  void check_point(const DataSource& src, const Params& p, const Problem* loaded) const override {
    const std::string mode = p.text("mode");
    if (mode == "triangle" && (p.has("m") || p.has("b_file") || p.has("b")))
      throw InputError("triangle mode compares one list with itself: remove 'm', 'b' and 'b_file'");
    if (mode == "pair" && p.has("a_count") && p.integer("a_count") != 1)
      throw InputError("pair mode compares one A series: 'a_count' must be 1 (or use batch)");
    if (mode != "pair" && p.has("b"))
      throw InputError("'b' picks the B series of pair mode; batch compares with all of B");
    if (!src.file.empty()) {
      if (loaded) check_selection(p, problem_as<TwedProblem>(*loaded));
      return;
    }
    const Shape s = generated_shape(src.generator, p);
    check_range(p, s.series, s.series);
    // Generated data are made when the point runs: its b_file is opened now, so that a missing
    // one, a FIFO or a compressed one is refused before anything runs.
    if (p.has("b_file")) checked_head(p.text("b_file"));
  }

  Footprint footprint(const DataSource& src, const Params& p,
                      const Problem* loaded) const override {
    if (!src.file.empty() && !loaded) {
      double bytes = file_bound(src.file);
      if (p.has("b_file")) bytes += file_bound(p.text("b_file"));
      return {bytes, 0, 8};
    }
    Sets sets;
    if (loaded) {
      const auto& l = problem_as<TwedProblem>(*loaded);
      sets = {double(l.source->count), double(l.source->length), double(l.source->dim),
              p.has("b_file") ? double(l.b.source_count) : 0, double(l.m())};
    } else {
      const Shape s = generated_shape(src.generator, p);
      sets = {double(s.series), double(s.n), double(s.dim), p.has("m") ? double(s.series) : 0,
              p.has("m") ? double(p.integer("m")) : double(s.n)};
    }
    return footprint_of(sets, p);
  }

  std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const override {
    check_point(src, p, nullptr);
    const std::string times = p.text("timestamps");
    MultiSeries set;
    std::string what = "the data";
    if (!src.file.empty()) {
      set = read_file(src.file, times == "data");
      what = "'" + src.file + "'";
    } else {
      const Shape s = generated_shape(src.generator, p);
      set = generate(src.generator, s, s.n, std::uint64_t(p.integer("seed")));
    }
    auto prob = std::make_unique<TwedProblem>();
    prob->mode = mode_of(p.text("mode"));
    prob->costs = {p.real("nu"), p.real("lambda"), int(p.integer("degree")),
                   p.text("root") == "on"};
    const bool own_b = p.has("m") || p.has("b_file");
    const std::int64_t first = p.integer("a");
    const std::int64_t count = prob->mode == Mode::pair ? 1
                               : p.has("a_count")       ? p.integer("a_count")
                                                        : std::int64_t(set.count) - first;
    prob->a = slice(set, first, count, times, what);
    prob->data_times = times == "data";
    if (prob->mode != Mode::triangle) prob->b = b_list(src, p, set, own_b, what, times);
    check_problem(*prob, what);
    prob->source = std::make_shared<const MultiSeries>(std::move(set));
    return prob;
  }

  // The whole data set the lists were taken from (not only the selected series), so a peer
  // given the same parameters can make the same selection.
  void write_data(const Problem& problem, const std::string& path) const override {
    const auto& p = problem_as<TwedProblem>(problem);
    MultiSeries m = *p.source;
    if (!p.data_times) m.times.clear();
    if (ends_with(path, ".npy")) return write_multiseries_npy(path, m);
    if (m.dim != 1 || !m.times.empty())
      throw InputError(std::string(m.dim != 1 ? "series in R^" + std::to_string(m.dim)
                                              : "timestamps") +
                       " need a .npy file: UCR text holds values in R^1 only");
    SeriesSet s;
    s.entries = m.count, s.length = m.length;
    s.values.assign(m.values.begin(), m.values.end());
    s.labels = m.labels.empty() ? std::vector<std::int32_t>(m.count, 0) : m.labels;
    write_ucr(path, s);
  }

  std::size_t output_size(const Problem& problem) const override {
    return problem_as<TwedProblem>(problem).output_size();
  }

  std::vector<double> reference(const Problem& problem,
                                const std::vector<std::size_t>& indices) const override;

  Tolerance tolerance(const Problem& problem, const VariantSpec& v) const override;
  Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const override;

  std::map<std::string, double> describe(const Problem& problem) const override {
    const auto& p = problem_as<TwedProblem>(problem);
    // "mode" is 0 (pair), 1 (batch) or 2 (triangle): batch and triangle points of one data
    // set are different points.
    return {{"n", double(p.n())},
            {"m", double(p.m())},
            {"dim", double(p.dim())},
            {"mode", double(int(p.mode))},
            {"a_series", double(p.rows())},
            {"b_series", double(p.cols())},
            // Where the lists lie in their data sets (what `ladder gen` writes), so that a
            // peer takes the point's very series without knowing the selection rules.
            {"a_first", double(p.a.first)},
            {"b_first", double(p.cols_list().first)},
            {"pairs", double(p.pairs())},
            {"nu", p.costs.nu},
            {"lambda", p.costs.lambda},
            {"degree", double(p.costs.degree)}};
  }

  std::vector<Params> test_points() const override;
  std::map<std::string, double> extras(const Problem& problem, const Output& out) const override;

 private:
  static Mode mode_of(const std::string& m) {
    return m == "pair" ? Mode::pair : m == "batch" ? Mode::batch : Mode::triangle;
  }

  // The data set A is taken from (series of length n in R^dim) and B's own set, if any
  // (b_series of length m; 0 when B is taken from A's set).
  struct Sets {
    double series, n, dim, b_series, m;
  };

  // The data sets and the A and B lists taken from them (values and timestamps in double),
  // a GPU step's copy of the lists in its precision, and the rows x cols double distances;
  // the reference needs one DP table (or ITWED's rows) per thread.
  static Footprint footprint_of(const Sets& s, const Params& p) {
    const std::string mode = p.text("mode");
    const double per_a = 8 * s.n * (s.dim + 1), per_b = 8 * s.m * (s.dim + 1);
    const double rows = mode == "pair"      ? 1
                        : p.has("a_count")  ? double(p.integer("a_count"))
                                            : std::max(1.0, s.series - double(p.integer("a")));
    const double cols = mode == "pair"       ? 1
                        : mode == "triangle" ? rows
                        : s.b_series > 0     ? s.b_series
                                             : s.series;
    const double lists = rows * per_a + (mode == "triangle" ? 0 : cols * per_b);
    const double m = mode == "triangle" ? s.n : s.m;
    const double cells = (s.n + 1) * (m + 1);
    const double table = 8 * (cells <= kFullMatrixCells ? cells : 6 * (s.n + m));
    Footprint f{s.series * per_a + s.b_series * per_b + 2 * lists, rows * cols, 8,
                double(omp_get_max_threads()) * table};
    f.inner = cells * (s.dim + 1);  // DP cells per distance, each over dim values
    return f;
  }

  // Bytes a data file may take once read, from its size: its bytes, then at most one value per
  // two bytes of text, per byte of an IDX file or per four bytes of a .npy file, held as doubles
  // in the set, its timestamps, the A list and a step's copy.
  static double file_bound(const std::string& path) {
    const double bytes = data_file_bytes(path);
    const std::string h = bytes > 0 ? head(path) : "";
    const double values = h.rfind("\x93NUMPY", 0) == 0 || ends_with(path, ".npy") ? bytes / 4
                          : h.size() >= 2 && h[0] == 0 && h[1] == 0             ? bytes
                                                                                : text_values_bound(bytes);
    return bytes + 4 * 8 * values;
  }

  // The A (and pair mode's B) series a point selects must exist in a set of `series`.
  static void check_range(const Params& p, std::int64_t series, std::int64_t b_series) {
    const std::int64_t a = p.integer("a");
    const std::int64_t count = p.text("mode") == "pair" ? 1
                               : p.has("a_count")       ? p.integer("a_count")
                                                        : 1;
    auto beyond = [](std::int64_t first, std::int64_t n, std::int64_t total, const char* what) {
      if (first + n > total)
        throw InputError(std::string(what) + " series " + std::to_string(first) + ".." +
                         std::to_string(first + n - 1) + " go beyond the " +
                         std::to_string(total) + " series of the data");
    };
    beyond(a, count, series, "A");
    if (p.has("b") && !p.has("b_file")) beyond(p.integer("b"), 1, b_series, "B");
  }

  // Every point of a config shares the first point's file: check its selection up front.
  static void check_selection(const Params& p, const TwedProblem& loaded) {
    check_range(p, loaded.a.source_count, loaded.a.source_count);
  }

  // The B list: its own (generated with length m, or read from b_file), else A's data set.
  static SeriesList b_list(const DataSource& src, const Params& p, const MultiSeries& set,
                           bool own, const std::string& what, const std::string& times) {
    MultiSeries other;
    std::string where = what;
    if (p.has("b_file")) {
      other = read_file(p.text("b_file"), times == "data");
      where = "'" + p.text("b_file") + "'";
    } else if (p.has("m")) {
      Shape s = generated_shape(src.generator, p);
      // Another stream of the same generator: seed + 1 gives an independent list.
      other = generate(src.generator, s, p.integer("m"), std::uint64_t(p.integer("seed")) + 1);
      where = "the generated B list";
    }
    const MultiSeries& from = own ? other : set;
    const bool pair = p.text("mode") == "pair";
    std::int64_t first = 0, count = std::int64_t(from.count);
    if (pair) {
      const std::int64_t a = p.integer("a");
      first = p.has("b") ? p.integer("b") : own ? 0 : (a + 1 < count ? a + 1 : 0);
      count = 1;
    }
    return slice(from, first, count, times, where);
  }


  static void check_problem(const TwedProblem& p, const std::string& what) {
    if (p.a.length > kMaxLength)
      throw InputError("series length " + std::to_string(p.a.length) + " exceeds the limit of " +
                       std::to_string(kMaxLength));
    if (p.a.dim > kMaxStudyDim)
      throw InputError("points in R^" + std::to_string(p.a.dim) + " exceed the limit of R^" +
                       std::to_string(kMaxStudyDim));
    check_values(p.a, what);
    if (p.mode == Mode::triangle) return;
    if (p.b.dim != p.a.dim)
      throw InputError("A's series are in R^" + std::to_string(p.a.dim) + " but B's in R^" +
                       std::to_string(p.b.dim) + ": both lists need the same dimension");
    check_values(p.b, what);
  }
};

// Output (i, j) of the reference: the pair itself, its mirror or the triangle's zero diagonal.
// Small pairs use the full-matrix algorithm (twed.c's), long ones the linear-memory ITWED,
// parallel along its anti-diagonals when there are few of them to check.
double reference_pair(const TwedProblem& p, std::int64_t i, std::int64_t j, bool parallel) {
  if (p.mode == Mode::triangle) {
    if (i == j) return 0.0;
    if (i > j) std::swap(i, j);
  }
  if (double(p.n() + 1) * double(p.m() + 1) <= kFullMatrixCells) return full_matrix_pair(p, i, j);
  return itwed_pair(p, i, j, parallel);
}

std::vector<double> TwedStudy::reference(const Problem& problem,
                                         const std::vector<std::size_t>& indices) const {
  const auto& p = problem_as<TwedProblem>(problem);
  std::vector<double> out(indices.size());
  const auto count = static_cast<std::int64_t>(indices.size());
  auto at = [&](std::int64_t k, bool parallel) {
    const auto idx = std::int64_t(indices[k]);
    out[k] = reference_pair(p, idx / p.cols(), idx % p.cols(), parallel);
  };
  if (count < 16) {
    for (std::int64_t k = 0; k < count; ++k) at(k, true);
    return out;
  }
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t k = 0; k < count; ++k) at(k, false);
  return out;
}

// Every step evaluates the same recurrence; fp64 steps differ from the reference only by the
// order of additions and FMA contraction: a relative 1e-9 (the path has at most n + m cells of
// a few roundings each, far below it for any supported length). fp32 steps also round every
// input and timestamp to float32: each of the at most n + m cells on the path adds terms of at
// most `scale` with a few roundings, so allow 8 (n + m) float32 ulps of the scale, absolute,
// on top of a relative 8 (n + m) ulps.
Tolerance TwedStudy::tolerance(const Problem& problem, const VariantSpec& v) const {
  const auto& p = problem_as<TwedProblem>(problem);
  if (v.precision == Precision::fp64) return {1e-9, 1e-9, "fp64: abs 1e-9, rel 1e-9"};
  double vmax = 0, tmax = 0;
  for (const SeriesList* l : {&p.a, &p.cols_list()}) {
    for (double x : l->values) vmax = std::max(vmax, std::fabs(x));
    for (double t : l->times) tmax = std::max(tmax, std::fabs(t));
  }
  const double path = double(p.n() + p.m());
  const double scale = 2 * vmax * std::pow(double(p.dim()), 1.0 / p.costs.degree) +
                       p.costs.lambda + 2 * p.costs.nu * tmax;
  const double ulps = 8 * path * 0x1.0p-24;
  return {ulps * scale, std::max(1e-6, ulps),
          "fp32: abs 8(n+m) ulps of the largest cell cost, rel max(1e-6, 8(n+m) ulps)"};
}

// Cells are counted n * m per computed pair (not (n+1)(m+1)); the triangle mode computes
// rows (rows - 1) / 2 pairs. The GPU limit, for R^1 with the rooted norm: a cell is two
// subtractions, one FMA (nu |dt| + |dx|, absolute values as operand modifiers), four additions
// and two minima, 9 instructions: all on the FP64 pipe in FP64; in FP32 seven on the FP32 pipe
// and the two minima on the ALU's min/max pipe, so the schedulers' issue binds. Higher
// dimensions cost more per cell; no compute bound is claimed for them.
// Memory, in the step's precision: the series (values and timestamps) read by the delete-cost
// stage and again by the DP, the delete costs that stage writes and the DP reads back (both
// inherent to computing them apart, as cuTWED does), and the distances written once; in
// triangle mode the kernel writes the upper half, which the mirror reads back.
Work TwedStudy::work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const {
  const auto& p = problem_as<TwedProblem>(problem);
  Work w{"gcups", "GCUPS", double(p.pairs()) * double(p.n()) * double(p.m()), 1e9};
  if (v.backend != Backend::gpu) return w;
  const bool tri = p.mode == Mode::triangle;
  const double series = double(p.a.values.size() + p.a.times.size()) +
                        (tri ? 0.0 : double(p.b.values.size() + p.b.times.size()));
  const double deletes =
      double(p.rows() * (p.n() + 1)) + (tri ? 0.0 : double(p.cols() * (p.m() + 1)));
  const double word = v.precision == Precision::fp64 ? 8 : 4;
  // Passes, per list: values and timestamps read twice, delete costs written and read; then
  // the distances, and the mirror's read.
  const Traffic traffic{
      word * (2 * series + 2 * deletes + double(p.output_size()) + (tri ? double(p.pairs()) : 0)),
      tri ? 6 + 2 : 12 + 1, "cells",
      std::string("series read twice, delete costs written and read back, distances written") +
          (tri ? ", the upper half read back by the mirror" : "")};
  if (p.dim() == 1 && p.costs.root && v.precision == Precision::fp64)
    w.set_limit({"fp64 cells (R^1)", {{Pipe::fp64, 9}}, 1, "cell", "FP64"}, traffic, d);
  else if (p.dim() == 1 && p.costs.root)
    w.set_limit({"fp32 cells (R^1)", {{Pipe::fp32, 7}, {Pipe::minmax, 2}}, 1, "cell", "FP32"},
                traffic, d);
  else
    w.set_limit(traffic, "its instructions a cell grow with the dimension and the norm", d);
  return w;
}

// Lengths 1, 2, primes and warp/tile edges with n != m, dimensions 1, 3 and 28, every mode,
// each timestamp rule, unrooted and higher degrees.
std::vector<Params> TwedStudy::test_points() const {
  std::vector<Params> out;
  auto add = [&](const char* gen, std::int64_t n, std::int64_t m, int dim, const char* mode,
                 std::int64_t series) -> Params& {
    Params& p = out.emplace_back();
    (void)gen;  // the tests use the study's first generator, random_walk
    p.set("n", std::to_string(n));
    if (m != n) p.set("m", std::to_string(m));
    if (dim > 1) p.set("dim", std::to_string(dim));
    p.set("series", std::to_string(series));
    p.set("mode", mode);
    p.set("seed", std::to_string(n * 7919 + m * 31 + dim));
    p.set("timestamps", "data");
    return p;
  };
  // First, a point every step can run (the triangle step needs the triangle mode).
  add("random_walk", 31, 31, 3, "triangle", 7);
  const std::int64_t sizes[][2] = {{1, 2}, {2, 1}, {31, 33}, {32, 31}, {33, 32}, {1000, 997},
                                   {4099, 1000}, {1, 1}, {97, 4099}};
  for (const auto& s : sizes)
    for (int dim : {1, 3, 28}) add("random_walk", s[0], s[1], dim, "pair", 2);
  add("random_walk", 45, 61, 1, "batch", 37).set("a_count", "5");
  add("random_walk", 60, 60, 3, "batch", 70);
  add("random_walk", 33, 33, 1, "triangle", 67);
  add("random_walk", 130, 130, 28, "triangle", 9);
  add("random_walk", 200, 131, 1, "pair", 2).set("timestamps", "index");
  Params& z = add("random_walk", 129, 129, 1, "batch", 20);
  z.set("timestamps", "zero");
  z.set("root", "off");
  Params& d3 = add("random_walk", 50, 47, 3, "pair", 2);
  d3.set("degree", "3");
  d3.set("nu", "0.001");
  d3.set("lambda", "0.5");
  Params& u = add("random_walk", 41, 43, 3, "batch", 11);
  u.set("root", "off");
  u.set("degree", "1");
  return out;
}

// Leave-one-out 1-NN classification on labelled data in triangle mode (each series' nearest
// other series votes its label), as the paper's validation sets are used.
std::map<std::string, double> TwedStudy::extras(const Problem& problem, const Output& out) const {
  const auto& p = problem_as<TwedProblem>(problem);
  if (p.mode != Mode::triangle || p.a.labels.empty() || p.rows() < 2 ||
      out.size() != p.output_size())
    return {};
  std::int64_t correct = 0;
  for (std::int64_t i = 0; i < p.rows(); ++i) {
    std::int64_t best = -1;
    double best_d = INFINITY;
    for (std::int64_t j = 0; j < p.rows(); ++j) {
      const double d = out.at(std::size_t(i * p.rows() + j));
      if (j != i && d < best_d) best_d = d, best = j;
    }
    correct += best >= 0 && p.a.labels[best] == p.a.labels[i];
  }
  return {{"nn1_accuracy", double(correct) / double(p.rows())}};
}

const Registrar registrar{std::make_unique<TwedStudy>()};

}  // namespace
}  // namespace ladder::twed
