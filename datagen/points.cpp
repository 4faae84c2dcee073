// Point sets for the skyline study (points.hpp): the Borzsonyi-Kossmann-Stocker generator, the
// .npy and CSV readers and the writer. Each point draws only from Rng(seed, point), so
// generation runs in parallel over points and gives the same set for any thread count. The CSV
// reader makes one pass over the lines, keeping the first column until the last line says
// whether it holds ids; no table of lines is kept.
#include "points.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "anticorrelated.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/progress.hpp"
#include "data_file.hpp"
#include "npy.hpp"
#include "numbers.hpp"
#include "rng.hpp"

namespace ladder {
namespace {

constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 31;

// --- generation ------------------------------------------------------------------------------

void check_request(const PointGen& g) {
  const auto refuse = [](const std::string& why) { throw InputError("points: " + why); };
  if (g.d < 1 || g.d > kMaxPointDims)
    refuse("d must be 1 to " + std::to_string(kMaxPointDims) + " attributes, got " +
           std::to_string(g.d));
  if (g.n < 0) refuse("n must be at least 0, got " + std::to_string(g.n));
  if (static_cast<std::uint64_t>(g.n) >
      static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(float) /
          static_cast<std::uint64_t>(g.d))
    refuse(std::to_string(g.n) + " points of " + std::to_string(g.d) +
           " attributes are more values than can be addressed");
}

// The paper's RandomPeak: the mean of k uniforms, scaled to [lo, hi].
double peak(Rng& rng, double lo, double hi, int k) {
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += rng.uniform();
  return lo + (hi - lo) * (sum / k);
}

// The paper's RandomNormal: a peak of 12 uniforms, bell-shaped within mean +- spread.
double bks_normal(Rng& rng, double mean, double spread) {
  return peak(rng, mean - spread, mean + spread, 12);
}

bool in_unit(double x) { return x >= 0 && x <= 1; }

// One try at a correlated or anticorrelated vector: every attribute v, then each pair of
// neighbours pushed apart by h (the sum stays d v). False when an attribute leaves [0, 1].
// x_k (k >= 1) is final once h_k is added, so a try stops at the first such attribute instead
// of drawing the rest (anticorrelated sets reject about 97% of tries at d = 16: a tenth faster
// there, a third at d = 32). Which tries are kept, and so the distribution, is the paper's;
// only the use of the stream differs.
bool try_linked(Rng& rng, bool correlated, int d, double* x) {
  const double v = correlated ? peak(rng, 0, 1, d) : bks_normal(rng, 0.5, 0.25);
  const double l = std::min(v, 1 - v);
  std::fill(x, x + d, v);
  for (int k = 0; k < d; ++k) {
    const double h = correlated ? bks_normal(rng, 0, l) : rng.uniform(-l, l);
    x[k] += h;
    x[(k + 1) % d] -= h;
    if (k > 0 && !in_unit(x[k])) return false;
  }
  return in_unit(x[0]);  // changed last by h_{d-1} (with d = 1, x_0 is v again)
}

// Anticorrelated points of this many attributes and more are drawn by AnticorrelatedSampler
// (anticorrelated.hpp), which draws the same distribution in a few tries whatever d is: whole
// vectors drawn again keep 3% of tries at d = 16 and 3e-7 at d = 64. Below, drawing whole
// vectors is as fast or faster, and the sets stay the ones earlier versions made.
constexpr int kSamplerFromDims = 20;

const AnticorrelatedSampler& anticorrelated_sampler(int d) {
  static std::array<std::once_flag, kMaxPointDims + 1> once;
  static std::array<std::unique_ptr<AnticorrelatedSampler>, kMaxPointDims + 1> samplers;
  std::call_once(once[d], [d] { samplers[d] = std::make_unique<AnticorrelatedSampler>(d); });
  return *samplers[d];
}

// Draws point i into x[0, d). `keep_going()` is asked every 256 rejected tries (64 of the
// sampler's): false stops the draw (the pilot's way out of a point that takes long) and
// returns false.
template <class KeepGoing>
bool draw_point(const PointGen& g, std::int64_t i, double* x, KeepGoing keep_going) {
  Rng rng(g.seed, static_cast<std::uint64_t>(i));
  if (g.distribution == PointDistribution::independent) {
    for (int k = 0; k < g.d; ++k) x[k] = rng.uniform();
    return true;
  }
  const bool correlated = g.distribution == PointDistribution::correlated;
  if (!correlated && g.d >= kSamplerFromDims) return anticorrelated_sampler(g.d).draw(rng, x, keep_going);
  for (std::int64_t tries = 1; !try_linked(rng, correlated, g.d, x); ++tries)
    if (tries % 256 == 0 && !keep_going()) return false;
  return true;
}

// Point i into out[0, d). Values are checked in double and rounded once: rounding a value in
// [0, 1] to float32 stays in [0, 1], so no clamp is needed.
void generate_point(const PointGen& g, std::int64_t i, float* out) {
  double x[kMaxPointDims];
  draw_point(g, i, x, [] { return true; });
  for (int k = 0; k < g.d; ++k) out[k] = static_cast<float>(x[k]);
}

// Points between two progress counts (one thread's).
constexpr std::int64_t kProgressChunk = 32;
// The pilot of estimate_generation runs at most this long (only near the limit: elsewhere
// its count settles the answer within milliseconds), and at least this long before it refuses
// (a refusal must not rest on the threads' start or a moment of load on a busy machine). Its
// rate is taken after the first kPilotWarmSeconds, which starting the threads may take.
constexpr double kPilotSeconds = 1;
constexpr double kPilotSecondsToRefuse = 0.5;
constexpr double kPilotWarmSeconds = 0.005;

const char* distribution_name(PointDistribution d) {
  return d == PointDistribution::independent  ? "independent"
         : d == PointDistribution::correlated ? "correlated"
                                               : "anticorrelated";
}

// "40 s", "12 min", "4.4 hours", "3.1 days".
std::string duration_text(double s) {
  char buf[32];
  if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 2 * 86400) std::snprintf(buf, sizeof buf, "%.2g hours", s / 3600);
  else std::snprintf(buf, sizeof buf, "%.2g days", s / 86400);
  return buf;
}

// The pilot's state, shared by its threads: the points made, and the count and time it
// stopped at.
class Pilot {
 public:
  explicit Pilot(const PointGen& g) : g_(g), start_(Clock::now()) {}

  // Makes point i as generate_point does; false when the pilot stopped before it was made.
  bool make(std::int64_t i) {
    double x[kMaxPointDims];
    if (!draw_point(g_, i, x, [this] { return !stopped(); })) return false;
    volatile double keep = x[0];  // the draws are not optimised away
    (void)keep;
    ++made_;
    return !stopped();
  }

  // Points made and seconds taken (after the warm-up, once it is over): when the pilot
  // stopped, or now (every point made).
  std::int64_t points() const {
    if (stop_) return stop_points_;
    const std::int64_t k = made_.load();
    return warm() && k > warm_points_ ? k - warm_points_ : k;
  }
  double seconds() const {
    if (stop_) return stop_seconds_;
    const double t = elapsed();
    return warm() && made_.load() > warm_points_ ? t - warm_seconds_ : t;
  }

 private:
  using Clock = std::chrono::steady_clock;

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  bool warm() const { return warm_.load(std::memory_order_acquire); }

  // Whether the count of points, give or take three standard deviations (tries succeed
  // independently, so the count is nearly Poisson), puts n points clearly on one side of the
  // limit. A refusal needs the whole pilot's count over kPilotSecondsToRefuse; an acceptance
  // enough points after the warm-up, so that starting threads and a slow first point do not
  // decide it.
  bool settled(double t, double k) const {
    const double n = double(g_.n);
    const double fastest = n * t / (k + 3 * std::sqrt(k) + 3);
    if (t > kPilotSeconds || (t > kPilotSecondsToRefuse && fastest > kMaxGenerationSeconds))
      return true;
    if (!warm()) return false;
    const double dt = t - warm_seconds_, dk = k - double(warm_points_);
    return dk >= 30 && dt > 0.01 && n * dt / (dk - 3 * std::sqrt(dk)) < kMaxGenerationSeconds;
  }

  bool stopped() {
    if (stop_) return true;
    const double t = elapsed();
    const std::int64_t k = made_;
    if (!warm() && t > kPilotWarmSeconds) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!warm()) warm_seconds_ = t, warm_points_ = k, warm_.store(true, std::memory_order_release);
    }
    if (!settled(t, double(k))) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stop_) {
      const bool after_warm = warm() && k > warm_points_;
      stop_points_ = after_warm ? k - warm_points_ : k;
      stop_seconds_ = after_warm ? t - warm_seconds_ : t;
      stop_ = true;
    }
    return true;
  }

  const PointGen& g_;
  const Clock::time_point start_;
  std::atomic<std::int64_t> made_{0};
  std::mutex mutex_;
  std::atomic<bool> stop_{false}, warm_{false};
  std::int64_t stop_points_ = 0, warm_points_ = 0;
  double stop_seconds_ = 0, warm_seconds_ = 0;
};

// --- reading CSV -----------------------------------------------------------------------------

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// Bytes below 32 but tab, LF and CR, and DEL: what a text file does not hold.
bool control_byte(unsigned char b) {
  return (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F;
}

std::string field_count(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " field" : " fields");
}

std::string at(const std::string& file, std::size_t line) {
  return file + " line " + std::to_string(line);
}

std::string at(const std::string& file, std::size_t line, std::size_t column) {
  return at(file, line) + " column " + std::to_string(column);
}

// "line L column C" of byte p: lines from 1, columns from 1 (one more than the commas before).
std::string line_and_column(const std::string& bytes, std::size_t p) {
  const auto line = 1 + std::count(bytes.begin(), bytes.begin() + p, '\n');
  const std::size_t nl = p == 0 ? std::string::npos : bytes.rfind('\n', p - 1);
  const std::size_t start = nl == std::string::npos ? 0 : nl + 1;
  const auto column = 1 + std::count(bytes.begin() + start, bytes.begin() + p, ',');
  return "line " + std::to_string(line) + " column " + std::to_string(column);
}

// What the file must not be before its lines are looked at: too large, a .npy file under
// another name, compressed, text with a byte-order mark, binary, or with a carriage return that
// does not end a line (each line is then known to end in LF, CRLF or the end of the file).
void check_text(const std::string& bytes, const std::string& file) {
  if (bytes.size() > kMaxFileBytes)
    throw InputError(file + " holds " + std::to_string(bytes.size()) +
                     " bytes, more than the 2^31 (2147483648) a CSV file of points may hold; "
                     "use a .npy file");
  if (bytes.rfind("\x93NUMPY", 0) == 0)
    throw InputError(file + " is a NumPy .npy file, not CSV: give it a name ending in .npy");
  check_text_start(bytes, file);
  for (std::size_t p = 0; p < bytes.size(); ++p) {
    const auto b = static_cast<unsigned char>(bytes[p]);
    if (control_byte(b))
      throw InputError(file + " is not a text file (a binary file?): byte " +
                       printable(std::string(1, bytes[p])) + " at " +
                       line_and_column(bytes, p));
    if (b == '\r' && (p + 1 == bytes.size() || bytes[p + 1] != '\n'))
      throw InputError(file + " " + line_and_column(bytes, p) +
                       " holds a carriage return that does not end a line: lines must end in "
                       "LF or CRLF");
  }
}

// Whether the text is a number to from_chars, finite or not, in range or not ("1", "nan",
// "-inf", "1e999"), or several separated by blanks (a file not separated by commas): such a
// field makes a line data, never a header.
bool looks_numeric(std::string_view s) {
  bool any = false;
  for (std::size_t i = 0; i < s.size();) {
    if (blank(s[i])) {
      ++i;
      continue;
    }
    const char* p = s.data() + i + (s[i] == '+');
    double v = 0;
    const auto [end, ec] = std::from_chars(p, s.data() + s.size(), v);
    if (ec == std::errc::invalid_argument || (end != s.data() + s.size() && !blank(*end)))
      return false;
    i = static_cast<std::size_t>(end - s.data());
    any = true;
  }
  return any;
}

bool is_nan_or_infinite(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return end == s.data() + s.size() && ec == std::errc() && !std::isfinite(v);
}

// The field as an id: plain decimal digits (what every tool writes for a row index), else -1.
std::int64_t id_of(std::string_view s) {
  std::int64_t v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty() && s.front() != '-' ? v
                                                                                          : -1;
}

// A line's fields, split on commas and trimmed of spaces and tabs (possibly empty).
void split(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  for (;;) {
    const std::size_t comma = line.find(',');
    fields.push_back(trimmed(line.substr(0, comma)));
    if (comma == std::string_view::npos) return;
    line.remove_prefix(comma + 1);
  }
}

const std::string kNoName;  // parse_float32's `what` on the fast path: only failures need one

bool parse_value(std::string_view field, float& value) {
  try {
    value = parse_float32(std::string(field), kNoName);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// Calls f(number, line) for every line (numbered from 1) without its LF or CRLF. A final LF
// ends the last line; it does not start another.
template <class F>
void for_each_line(const std::string& bytes, F f) {
  std::size_t pos = 0, number = 0;
  while (pos < bytes.size()) {
    const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
    const std::size_t end =
        nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) : bytes.size();
    std::string_view line(bytes.data() + pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(++number, line);
    pos = end + 1;
  }
}

// The reader's state between lines.
class CsvPoints {
 public:
  CsvPoints(const std::string& bytes, const std::string& file) : bytes_(bytes), file_(file) {}

  PointSet read() {
    for_each_line(bytes_, [this](std::size_t number, std::string_view line) {
      take_line(number, line);
    });
    return finish();
  }

 private:
  void take_line(std::size_t number, std::string_view line) {
    if (trimmed(line).empty()) {
      if (blank_since_ == 0) blank_since_ = number;
      return;
    }
    if (blank_since_ != 0)
      throw InputError(at(file_, blank_since_) + " is blank: blank lines may only end the file "
                       "(line " + std::to_string(number) + " holds data)");
    check_layout(number, line);
    split(line, fields_);
    const bool comma_ended = drop_final_comma(fields_);
    if (number == 1) {
      first_line(fields_);
      if (header_) return;
    }
    check_final_comma(number, comma_ended);
    // One field too many, and empty: a comma too many at the end, named as such.
    if (fields_.size() == columns_ + 1 && fields_.back().empty()) refuse_empty(number, columns_);
    if (fields_.size() != columns_)
      throw InputError(at(file_, number) + " has " + field_count(fields_.size()) + ", line 1" +
                       (header_ ? " (the header)" : "") + " has " + std::to_string(columns_) +
                       ": every line needs as many");
    add_point(number);
  }

  // Semicolons and quotes have no place in a line of numbers: the message names the layout
  // (and not, say, line 2 as a second header, which is what such a line would look like).
  void check_layout(std::size_t number, std::string_view line) const {
    if (line.find_first_of(";\"'") == std::string_view::npos) return;
    const std::string layout = foreign_number_layout(line);
    if (!layout.empty())
      throw InputError(at(file_, number) + " " + layout +
                       ": a point is its values, unquoted, separated by commas");
  }

  // SkyBench ends every line with a comma ("0.12, 0.55, 0.97,"): one empty last field after a
  // value is dropped, and whether it was there is checked against the other lines. A second
  // comma leaves an empty field, refused as such.
  static bool drop_final_comma(std::vector<std::string_view>& fields) {
    if (fields.size() < 2 || !fields.back().empty()) return false;
    if (std::all_of(fields.begin(), fields.end() - 1,
                    [](std::string_view f) { return f.empty(); }))
      return false;
    fields.pop_back();
    return true;
  }

  // Either every point's line ends in one comma or none does (the header may do either): a
  // comma missing from one line, or found on one line only, is a broken line, not a layout.
  void check_final_comma(std::size_t number, bool comma_ended) {
    if (first_point_ == 0) {
      first_point_ = number;
      comma_ended_ = comma_ended;
      return;
    }
    if (comma_ended == comma_ended_) return;
    const std::string first = "line " + std::to_string(first_point_) + " (the first point)";
    if (comma_ended_)
      throw InputError(at(file_, number) + " does not end in a comma, but " + first + " does: "
                       "either every line ends in one comma (SkyBench's layout) or none does");
    // An empty last value (one comma too many for the columns) is reported as such.
    if (fields_.size() != columns_) {
      fields_.emplace_back();
      return;
    }
    throw InputError(at(file_, number) + " ends in a comma, but " + first + " does not: either "
                     "every line ends in one comma (SkyBench's layout) or none does");
  }

  // Line 1 sets the number of columns, and is the header when it holds no number.
  void first_line(const std::vector<std::string_view>& fields) {
    columns_ = fields.size();
    if (columns_ > static_cast<std::size_t>(kMaxPointDims) + 1)
      throw InputError(at(file_, 1) + " has " + field_count(columns_) + ": a point has "
                       "at most " + std::to_string(kMaxPointDims) + " attributes (" +
                       std::to_string(kMaxPointDims + 1) + " fields with an id column)");
    header_ = std::none_of(fields.begin(), fields.end(), looks_numeric);
    if (!header_) {
      reserve();
      return;
    }
    // pandas writes an unnamed index column as an empty first name; any other is a mistake.
    for (std::size_t c = 1; c < fields.size(); ++c)
      if (fields[c].empty()) refuse_empty(1, c);
  }

  // Room for as many points as there are lines, so that values grows once; but no more than
  // the bytes can hold (a line of c fields takes at least 2c bytes with its LF), whatever
  // trailing blank lines a file ends in.
  void reserve() {
    const auto lines = static_cast<std::size_t>(std::count(bytes_.begin(), bytes_.end(), '\n')) + 1;
    const std::size_t fit = (bytes_.size() + 1) / (2 * columns_);
    values_.reserve(std::max<std::size_t>(1, std::min(lines, fit)) * columns_);
  }

  void add_point(std::size_t number) {
    if (values_.capacity() == 0) reserve();
    for (std::size_t c = 0; c < fields_.size(); ++c) {
      float v = 0;
      if (fields_[c].empty()) refuse_empty(number, c);
      if (!parse_value(fields_[c], v)) refuse_value(number, c);
      values_.push_back(v);
    }
    if (columns_ > 1 && (ids_from_0_ || ids_from_1_)) {
      const std::int64_t id = id_of(fields_[0]);
      ids_from_0_ = ids_from_0_ && id == n_;
      ids_from_1_ = ids_from_1_ && id == n_ + 1;
    }
    ++n_;
  }

  [[noreturn]] void refuse_empty(std::size_t number, std::size_t c) const {
    throw InputError(at(file_, number, c + 1) +
                     " is empty (two commas in a row, or one at the end of the line?)");
  }

  // Why field c of the line does not read as a float32, as clearly as the line allows.
  [[noreturn]] void refuse_value(std::size_t number, std::size_t c) const {
    const std::string text(fields_[c]);
    const std::string where = at(file_, number, c + 1);
    if (is_nan_or_infinite(text))
      throw InputError(where + ": '" + printable(text) + "' is not a finite number; skyline data "
                       "must be finite (fill or drop missing values first)");
    if (number > 1 && std::none_of(fields_.begin(), fields_.end(), looks_numeric))
      throw InputError(at(file_, number) + " holds no number: a header is only allowed as line 1");
    try {
      parse_float32(text, where);
    } catch (const InputError& e) {
      std::string hint;
      if (std::any_of(text.begin(), text.end(), blank))
        hint = " (attributes are separated by commas)";
      else if (number == 1)
        hint = " (line 1 is a header only when none of its fields is a number)";
      throw InputError(e.what() + hint);
    }
    throw std::logic_error("refuse_value: '" + text + "' reads as a float32");
  }

  PointSet finish() {
    if (n_ == 0)
      throw InputError(file_ + " holds no points" +
                       (header_ ? " (only a header line)" : bytes_.empty() ? " (it is empty)" : ""));
    const bool ids = columns_ > 1 && (ids_from_0_ || ids_from_1_);
    const std::size_t d = columns_ - (ids ? 1 : 0);
    if (d > static_cast<std::size_t>(kMaxPointDims))
      throw InputError(file_ + " has " + std::to_string(d) + " attributes per point (and no id "
                       "column 0..n-1 or 1..n): a point has at most " +
                       std::to_string(kMaxPointDims));
    if (ids) drop_first_column();
    PointSet set;
    set.n = n_;
    set.d = static_cast<int>(d);
    set.values = std::move(values_);
    set.values.shrink_to_fit();
    return set;
  }

  void drop_first_column() {
    std::size_t to = 0;
    for (std::size_t from = 0; from < values_.size(); ++from)
      if (from % columns_ != 0) values_[to++] = values_[from];
    values_.resize(to);
  }

  const std::string& bytes_;
  const std::string& file_;
  std::vector<std::string_view> fields_;
  std::size_t columns_ = 0;
  bool header_ = false;
  std::size_t blank_since_ = 0;  // the first blank line since the last point, or 0
  std::size_t first_point_ = 0;  // the line of the first point, or 0 before it
  bool comma_ended_ = false;     // that line ended in a comma (SkyBench's layout)
  std::int64_t n_ = 0;
  bool ids_from_0_ = true, ids_from_1_ = true;  // every first field so far is its row (+ 1)
  std::vector<float> values_;                   // n x columns: ids are dropped at the end
};

// --- reading .npy ----------------------------------------------------------------------------

std::string shape_words(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// (n, d) from the array's shape: (n, d) or (n,), with 1 <= d <= kMaxPointDims.
void check_shape(const std::vector<std::size_t>& shape, const std::string& file) {
  const std::string has = file + " has shape " + shape_words(shape);
  if (shape.size() != 1 && shape.size() != 2)
    throw InputError(has + ": points are a 2-D array (n, d), or 1-D (n,) for d = 1");
  if (shape.size() == 2 && shape[1] == 0)
    throw InputError(has + ": a point needs at least one attribute");
  if (shape.size() == 2 && shape[1] > static_cast<std::size_t>(kMaxPointDims))
    throw InputError(has + ": a point has at most " + std::to_string(kMaxPointDims) +
                     " attributes");
}

// The values as float32, refusing what skyline data cannot hold.
std::vector<float> finite_floats(const NpyArray& a, std::size_t d, const std::string& file) {
  std::vector<float> out(a.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double v = a.values[i];
    if (std::isfinite(v) && std::fabs(v) <= std::numeric_limits<float>::max()) {
      out[i] = static_cast<float>(v);
      continue;
    }
    const std::string where = file + " point " + std::to_string(i / d) + " attribute " +
                              std::to_string(i % d) + " (from 0)";
    if (std::isnan(v)) throw InputError(where + " is NaN; skyline data must be finite");
    if (std::isinf(v))
      throw InputError(where + " is " + (v > 0 ? "+" : "-") + "infinity; skyline data must be "
                       "finite");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    throw InputError(where + " is " + buf + ", beyond float32's range (magnitude at most "
                     "3.4e38)");
  }
  return out;
}

PointSet read_npy_points(const std::string& path) {
  const std::string file = quoted_name(path);
  const NpyArray a = read_npy(path);
  check_shape(a.shape, file);
  PointSet set;
  set.d = a.shape.size() == 2 ? static_cast<int>(a.shape[1]) : 1;
  set.n = static_cast<std::int64_t>(a.shape[0]);
  try {
    set.values = finite_floats(a, static_cast<std::size_t>(set.d), file);
  } catch (const std::bad_alloc&) {
    throw InputError(file + ": " + std::to_string(a.values.size()) +
                     " values do not fit in memory");
  }
  return set;
}

bool ends_with_npy(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

// --- writing ---------------------------------------------------------------------------------

// A set that does not hold together is the caller's bug, not the user's.
void check_consistent(const PointSet& set) {
  if (set.n < 0 || set.d < 1 || set.d > kMaxPointDims ||
      set.values.size() != static_cast<std::size_t>(set.n) * static_cast<std::size_t>(set.d))
    throw std::invalid_argument("write_points: n = " + std::to_string(set.n) + ", d = " +
                                std::to_string(set.d) + " and " +
                                std::to_string(set.values.size()) + " values do not agree");
}

// The readers refuse what is not finite, so it is not written either.
void check_finite(const PointSet& set, const std::string& file) {
  const auto bad = std::find_if(set.values.begin(), set.values.end(),
                                [](float v) { return !std::isfinite(v); });
  if (bad == set.values.end()) return;
  const auto i = static_cast<std::size_t>(bad - set.values.begin());
  const auto d = static_cast<std::size_t>(set.d);
  throw InputError("cannot write " + file + ": point " + std::to_string(i / d) + " attribute " +
                   std::to_string(i % d) + " is " + (std::isnan(*bad) ? "NaN" : "infinite") +
                   " (it could not be read back)");
}

// "id,x0,x1,...\n" per point; to_chars gives the shortest text that reads back as the same
// float32, so the file reads back bit for bit.
std::string csv_text(const PointSet& set, const std::string& file) {
  std::string text;
  char buf[64];
  for (std::int64_t i = 0; i < set.n; ++i) {
    text += std::to_string(i);
    for (int k = 0; k < set.d; ++k) {
      buf[0] = ',';
      const auto r = std::to_chars(buf + 1, buf + sizeof buf, set.point(i)[k]);
      text.append(buf, r.ptr);
    }
    text += '\n';
    if (text.size() > kMaxFileBytes)
      throw InputError("cannot write " + file + " as CSV: " + std::to_string(set.n) +
                       " points take more than the 2^31 bytes the reader accepts; write .npy");
  }
  return text;
}

}  // namespace

PointDistribution point_distribution(const std::string& name) {
  if (name == "independent") return PointDistribution::independent;
  if (name == "correlated") return PointDistribution::correlated;
  if (name == "anticorrelated") return PointDistribution::anticorrelated;
  throw InputError("unknown distribution '" + printable(name) +
                   "' (independent, correlated, anticorrelated)");
}

GenerationEstimate estimate_generation(const PointGen& g) {
  check_request(g);
  GenerationEstimate e;
  e.threads = omp_get_max_threads();
  Pilot pilot(g);
  // Every thread makes its share of the set's first points, as generate_points would, so the
  // pilot measures this machine's throughput, shared cores and other load included.
#pragma omp parallel num_threads(e.threads)
  {
    const int t = omp_get_thread_num(), step = omp_get_num_threads();
    for (std::int64_t i = t; i < g.n && pilot.make(i); i += step) {
    }
  }
  e.pilot_seconds = pilot.seconds();
  e.pilot_points = pilot.points();
  // No point made: fewer than 3 would have been made with 95% confidence.
  e.seconds = double(g.n) * e.pilot_seconds /
              (e.pilot_points > 0 ? double(e.pilot_points) : 3.0);
  return e;
}

void check_generation_time(const PointGen& g) {
  const GenerationEstimate e = estimate_generation(g);
  if (e.seconds <= kMaxGenerationSeconds) return;
  throw InputError(
      "points: generating " + std::to_string(g.n) + " " + distribution_name(g.distribution) +
      " points of " + std::to_string(g.d) + " attributes would take " +
      (e.pilot_points == 0 ? "more than " : "about ") + duration_text(e.seconds) + " on " +
      std::to_string(e.threads) + (e.threads == 1 ? " thread" : " threads") + " (a pilot made " +
      std::to_string(e.pilot_points) + " of them in " +
      std::to_string(std::lround(e.pilot_seconds * 1e3)) + " ms), more than the limit of " +
      duration_text(kMaxGenerationSeconds) + " for generating data; use fewer points or "
      "attributes");
}

PointSet generate_points(const PointGen& g) {
  check_request(g);
  PointSet set;
  set.n = g.n;
  set.d = g.d;
  try {
    set.values.resize(static_cast<std::size_t>(g.n) * static_cast<std::size_t>(g.d));
  } catch (const std::bad_alloc&) {
    throw InputError("points: " + std::to_string(g.n) + " points of " + std::to_string(g.d) +
                     " attributes do not fit in memory");
  }
  float* const out = set.values.data();
  progress_start(g.n);
  // Nothing in the loop throws. Static chunks balance: every point's cost has the same law.
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < g.n; ++i) {
    generate_point(g, i, out + i * g.d);
    if (i % kProgressChunk == kProgressChunk - 1) progress_advance(kProgressChunk);
  }
  return set;
}

PointSet parse_points_csv(const std::string& bytes, const std::string& name) {
  const std::string file = quoted_name(name);
  check_text(bytes, file);
  try {
    return CsvPoints(bytes, file).read();
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  throw InputError(file + " holds more points than fit in memory");
}

PointSet read_points(const std::string& path) {
  if (ends_with_npy(path)) return read_npy_points(path);
  const std::string file = quoted_name(path);
  const std::string bytes =
      read_whole_file(path, file, "a CSV file of points", [&](std::uintmax_t size) {
        if (size > kMaxFileBytes)
          throw InputError(file + " holds " + std::to_string(size) +
                           " bytes, more than the 2^31 (2147483648) a CSV file of points may "
                           "hold; use a .npy file");
      });
  return parse_points_csv(bytes, path);
}

void write_points(const std::string& path, const PointSet& points) {
  const std::string file = quoted_name(path);
  check_consistent(points);
  check_finite(points, file);
  if (ends_with_npy(path)) {
    Output out;
    out.data = points.values;
    out.shape = {static_cast<std::size_t>(points.n), static_cast<std::size_t>(points.d)};
    write_npy(path, out);
    return;
  }
  if (points.n == 0)
    throw InputError("cannot write " + file + ": the set holds no points (an empty CSV file "
                     "cannot be read back; .npy can hold one)");
  write_file_atomically(path, csv_text(points, file));
}

}  // namespace ladder
