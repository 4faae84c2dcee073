// Sets of series in R^dim with timestamps: the generators of TWED's data sets and their .npy
// form. Each series draws only from its own stream Rng(seed, series), so every generator
// parallelises over series and gives the same bytes for any thread count.
#include "multiseries.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <utility>

#include "base/errors.hpp"
#include "base/output.hpp"
#include "data_file.hpp"
#include "npy.hpp"
#include "rng.hpp"

namespace ladder {
namespace {

constexpr double kTwoPi = 6.283185307179586;

// --- sizes and allocation -------------------------------------------------------------------

std::size_t checked_product(const char* what, std::size_t count, std::size_t length,
                            std::size_t dim) {
  if (count == 0 || length == 0 || dim == 0)
    throw InputError(std::string(what) + ": count, length and dim must be at least 1, got " +
                     std::to_string(count) + ", " + std::to_string(length) + " and " +
                     std::to_string(dim));
  std::size_t n = count;
  // Eight bytes a value: the byte count must fit as well as the value count.
  if (__builtin_mul_overflow(n, length, &n) || __builtin_mul_overflow(n, dim, &n) ||
      n > SIZE_MAX / sizeof(double))
    throw InputError(std::string(what) + ": " + std::to_string(count) + " x " +
                     std::to_string(length) + " x " + std::to_string(dim) +
                     " values are more than can be addressed");
  return n;
}

// An empty set of the given shape, with room for timestamps and labels when it carries them.
MultiSeries make_set(const char* what, std::size_t count, std::size_t length, std::size_t dim,
                     bool with_times, bool with_labels) {
  const std::size_t n = checked_product(what, count, length, dim);
  MultiSeries set;
  set.count = count;
  set.length = length;
  set.dim = dim;
  try {
    set.values.resize(n);
    if (with_times) set.times.resize(count * length);
    if (with_labels) set.labels.resize(count);
  } catch (const std::bad_alloc&) {
    throw InputError(std::string(what) + ": " + std::to_string(n) +
                     " values do not fit in memory");
  }
  return set;
}

// Calls f(e) for every series, in parallel. f must touch only series e's storage and draw
// only from Rng(seed, e): then the result does not depend on the thread count.
template <class F>
void for_each_series(std::size_t count, F f) {
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < n; ++e) f(static_cast<std::size_t>(e));
}

// --- random walks ----------------------------------------------------------------------------

// Per point: its time gap, then one step per coordinate.
void random_walk(MultiSeries& set, std::size_t e, std::uint64_t seed) {
  Rng rng(seed, e);
  double* x = set.values.data() + e * set.length * set.dim;
  double* t = set.times.data() + e * set.length;
  t[0] = 1.0 + rng.uniform();
  for (std::size_t c = 0; c < set.dim; ++c) x[c] = rng.normal();
  for (std::size_t i = 1; i < set.length; ++i) {
    t[i] = t[i - 1] + 0.5 + rng.uniform();
    for (std::size_t c = 0; c < set.dim; ++c)
      x[i * set.dim + c] = x[(i - 1) * set.dim + c] + rng.normal();
  }
}

// --- synthetic control -----------------------------------------------------------------------

enum ControlClass { kNormal, kCyclic, kIncreasing, kDecreasing, kUpwardShift, kDownwardShift };

// The class term of Alcock and Manolopoulos: its parameters are drawn once per series, then
// f(t) is added to the noise at every t = 1..length.
struct ControlTerm {
  ControlClass kind = kNormal;
  double a = 0, period = 1, g = 0, x = 0, t3 = 0;

  ControlTerm(ControlClass k, std::size_t length, Rng& rng) : kind(k) {
    const double n = static_cast<double>(length);
    if (kind == kCyclic) {
      a = rng.uniform(10, 15);
      period = rng.uniform(10, 15);
    } else if (kind == kIncreasing || kind == kDecreasing) {
      g = rng.uniform(0.2, 0.5);
    } else if (kind == kUpwardShift || kind == kDownwardShift) {
      x = rng.uniform(7.5, 20);
      t3 = rng.uniform(n / 3, 2 * n / 3);
    }
  }
  double operator()(double t) const {
    switch (kind) {
      case kCyclic: return a * std::sin(kTwoPi * t / period);
      case kIncreasing: return g * t;
      case kDecreasing: return -g * t;
      case kUpwardShift: return t >= t3 ? x : 0.0;
      case kDownwardShift: return t >= t3 ? -x : 0.0;
      default: return 0.0;
    }
  }
};

void synthetic_control(MultiSeries& set, std::size_t e, std::uint64_t seed) {
  Rng rng(seed, e);
  // e < count and count * length values were allocated, so e * 6 cannot overflow.
  const auto kind = static_cast<ControlClass>(e * 6 / set.count);
  set.labels[e] = kind;
  const ControlTerm term(kind, set.length, rng);
  double* y = set.values.data() + e * set.length;
  for (std::size_t i = 0; i < set.length; ++i) {
    const double t = static_cast<double>(i + 1);
    y[i] = 30.0 + 2.0 * rng.uniform(-3, 3) + term(t);
  }
}

// --- pseudo periodic -------------------------------------------------------------------------

void pseudo_periodic(MultiSeries& set, std::size_t e, std::uint64_t seed) {
  Rng rng(seed, e);
  std::array<double, 5> freq{}, amp{};
  for (int i = 3; i <= 7; ++i) {
    freq[i - 3] = static_cast<double>((std::int64_t{1} << (2 + i)) + rng.integer(0, 1 << i));
    amp[i - 3] = std::ldexp(1.0, -i);
  }
  double* y = set.values.data() + e * set.length;
  // t_k = k / (length - 1), so that the last point is exactly t = 1; t = 0 for length 1.
  const double last = set.length > 1 ? static_cast<double>(set.length - 1) : 1.0;
  for (std::size_t k = 0; k < set.length; ++k) {
    const double t = static_cast<double>(k) / last;
    double v = 0.0;
    for (std::size_t i = 0; i < freq.size(); ++i) v += amp[i] * std::sin(kTwoPi * freq[i] * t);
    y[k] = v;
  }
}

// --- MNIST-like digits -----------------------------------------------------------------------

constexpr std::size_t kSide = 28;

struct Point {
  double x, y;
};
using Polyline = std::vector<Point>;
using Glyph = std::vector<Polyline>;

// Glyphs live in the unit square, x to the right and y down (as image rows run).
Polyline line(Point a, Point b) { return {a, b}; }

// An elliptic arc from angle deg0 to deg1 (degrees; 0 is to the right, 90 is down, so
// increasing angles run clockwise on screen), as a polyline of about 10-degree pieces.
Polyline arc(Point c, double rx, double ry, double deg0, double deg1) {
  const int pieces = std::max(2, static_cast<int>(std::abs(deg1 - deg0) / 10.0));
  Polyline p;
  for (int k = 0; k <= pieces; ++k) {
    const double th = (deg0 + (deg1 - deg0) * k / pieces) * kTwoPi / 360.0;
    p.push_back({c.x + rx * std::cos(th), c.y + ry * std::sin(th)});
  }
  return p;
}

// One stroke template per digit, roughly as they are handwritten.
std::array<Glyph, 10> make_glyphs() {
  return {{
      {arc({0.5, 0.5}, 0.3, 0.45, 0, 360)},
      {line({0.5, 0.05}, {0.5, 0.95}), line({0.32, 0.22}, {0.5, 0.05})},
      {arc({0.5, 0.3}, 0.28, 0.25, 180, 400), line({0.74, 0.43}, {0.2, 0.95}),
       line({0.2, 0.95}, {0.82, 0.95})},
      {arc({0.5, 0.28}, 0.27, 0.23, 200, 450), arc({0.5, 0.73}, 0.3, 0.22, 270, 520)},
      {line({0.65, 0.95}, {0.65, 0.05}), line({0.65, 0.05}, {0.15, 0.65}),
       line({0.15, 0.65}, {0.85, 0.65})},
      {line({0.76, 0.05}, {0.3, 0.05}), line({0.3, 0.05}, {0.27, 0.47}),
       arc({0.5, 0.68}, 0.28, 0.27, 220, 520)},
      {arc({0.62, 0.55}, 0.4, 0.5, 250, 165), arc({0.48, 0.72}, 0.26, 0.23, 0, 360)},
      {line({0.15, 0.05}, {0.85, 0.05}), line({0.85, 0.05}, {0.4, 0.95})},
      {arc({0.5, 0.27}, 0.22, 0.22, 0, 360), arc({0.5, 0.72}, 0.27, 0.23, 0, 360)},
      {arc({0.5, 0.3}, 0.26, 0.25, 0, 360), line({0.76, 0.3}, {0.62, 0.95})},
  }};
}

const std::array<Glyph, 10>& glyphs() {
  static const std::array<Glyph, 10> g = make_glyphs();
  return g;
}

// How one image differs from its template: an affine map (scale, slant, turn, shift) from the
// unit square to pixels, and the stroke's half width in pixels.
struct Pose {
  double sx, sy, slant, turn, dx, dy, half_width;

  explicit Pose(Rng& rng)
      : sx(rng.uniform(0.75, 1.05)), sy(rng.uniform(0.85, 1.05)), slant(rng.uniform(-0.3, 0.3)),
        turn(rng.uniform(-0.15, 0.15)), dx(rng.uniform(-2, 2)), dy(rng.uniform(-2, 2)),
        half_width(rng.uniform(0.8, 1.6)) {}

  // The 20-pixel box MNIST centres its digits in, moved and deformed.
  Point to_pixels(Point p) const {
    const double x = sx * (p.x - 0.5) + slant * (p.y - 0.5), y = sy * (p.y - 0.5);
    const double c = std::cos(turn), s = std::sin(turn);
    return {14.0 + dx + 20.0 * (c * x - s * y), 14.0 + dy + 20.0 * (s * x + c * y)};
  }
};

double distance_to_segment(Point p, Point a, Point b) {
  const double ux = b.x - a.x, uy = b.y - a.y;
  const double len2 = ux * ux + uy * uy;
  double f = len2 > 0 ? ((p.x - a.x) * ux + (p.y - a.y) * uy) / len2 : 0.0;
  f = std::clamp(f, 0.0, 1.0);
  // Not std::hypot: pixel distances cannot overflow, and hypot would double the render time.
  const double dx = p.x - a.x - f * ux, dy = p.y - a.y - f * uy;
  return std::sqrt(dx * dx + dy * dy);
}

// Ink of a segment of half width w: full within w of its axis, fading to none over one more
// pixel (the anti-aliasing). Only the segment's bounding box is visited.
void draw_segment(Point a, Point b, double w, std::array<float, kSide * kSide>& ink) {
  const double reach = w + 1.0;
  const auto lo = [&](double v) { return std::max(0, static_cast<int>(std::floor(v - reach))); };
  const auto hi = [&](double v) {
    return std::min(static_cast<int>(kSide) - 1, static_cast<int>(std::ceil(v + reach)));
  };
  for (int r = lo(std::min(a.y, b.y)); r <= hi(std::max(a.y, b.y)); ++r)
    for (int c = lo(std::min(a.x, b.x)); c <= hi(std::max(a.x, b.x)); ++c) {
      const double d = distance_to_segment({c + 0.5, r + 0.5}, a, b);
      const auto v = static_cast<float>(std::clamp(w + 0.5 - d, 0.0, 1.0));
      float& cell = ink[static_cast<std::size_t>(r) * kSide + static_cast<std::size_t>(c)];
      cell = std::max(cell, v);
    }
}

void mnist_like(MultiSeries& set, std::size_t e, std::uint64_t seed) {
  Rng rng(seed, e);
  const std::size_t digit = e % 10;
  set.labels[e] = static_cast<std::int32_t>(digit);
  const Pose pose(rng);
  std::array<float, kSide * kSide> ink{};
  for (const Polyline& stroke : glyphs()[digit])
    for (std::size_t k = 1; k < stroke.size(); ++k)
      draw_segment(pose.to_pixels(stroke[k - 1]), pose.to_pixels(stroke[k]), pose.half_width,
                   ink);
  double* out = set.values.data() + e * kSide * kSide;
  for (std::size_t i = 0; i < ink.size(); ++i) out[i] = std::round(255.0 * ink[i]);
}

// --- .npy ------------------------------------------------------------------------------------

std::string shape_words(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string number_words(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// count, length and channels (1 for a 2-d array) from the shape, refusing any other shape.
std::array<std::size_t, 3> series_shape(const std::vector<std::size_t>& shape, bool time_channel,
                                        const std::string& file) {
  const std::string what = file + " has shape " + shape_words(shape);
  const std::string wanted = time_channel ? "(count, length, 1 + dim) with the timestamps in "
                                            "channel 0"
                                          : "(count, length) or (count, length, dim)";
  if (shape.size() != 3 && !(shape.size() == 2 && !time_channel))
    throw InputError(what + "; a set of series needs " + wanted);
  const std::array<std::size_t, 3> s{shape[0], shape[1], shape.size() == 3 ? shape[2] : 1};
  if (s[0] == 0 || s[1] == 0 || s[2] == 0)
    throw InputError(what + "; a set of series needs " + wanted +
                     ", every dimension at least 1");
  if (time_channel && s[2] < 2)
    throw InputError(what + ": with timestamps in channel 0 the last axis needs at least 2 "
                            "channels (the time and one coordinate)");
  return s;
}

// Every value of the file must be finite: the distances would silently turn into NaN.
void check_finite(const std::vector<double>& v, const std::array<std::size_t, 3>& s, bool rank3,
                  bool time_channel, const std::string& file) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isfinite(v[i])) continue;
    const std::size_t c = i % s[2], t = i / s[2] % s[1], e = i / s[2] / s[1];
    const std::string index = "[" + std::to_string(e) + ", " + std::to_string(t) +
                              (rank3 ? ", " + std::to_string(c) : "") + "]";
    throw InputError(file + ": the " + (time_channel && c == 0 ? "timestamp" : "value") +
                     " of series " + std::to_string(e) + " point " + std::to_string(t) + " " +
                     index + " is " + number_words(v[i]) + "; values must be finite");
  }
}

void check_increasing(const MultiSeries& set, const std::string& file) {
  for (std::size_t e = 0; e < set.count; ++e) {
    const double* t = set.time(e);
    for (std::size_t i = 1; i < set.length; ++i)
      if (!(t[i] > t[i - 1]))
        throw InputError(file + ": series " + std::to_string(e) + " point " +
                         std::to_string(i) + " has timestamp " + number_words(t[i]) +
                         ", not after point " + std::to_string(i - 1) + "'s " +
                         number_words(t[i - 1]) + " (timestamps must increase strictly)");
  }
}

// Splits channel 0 (the time) off the coordinates.
void split_time_channel(std::vector<double>& all, MultiSeries& set) {
  const std::size_t points = set.count * set.length, channels = set.dim + 1;
  set.times.resize(points);
  set.values.resize(points * set.dim);
  for (std::size_t p = 0; p < points; ++p) {
    set.times[p] = all[p * channels];
    std::copy_n(all.data() + p * channels + 1, set.dim, set.values.data() + p * set.dim);
  }
  std::vector<double>().swap(all);
}

// The series of an array read from a .npy file, checked as read_multiseries_npy promises.
MultiSeries series_from_npy(NpyArray a, bool time_channel, const std::string& file) {
  const std::array<std::size_t, 3> s = series_shape(a.shape, time_channel, file);
  check_finite(a.values, s, a.shape.size() == 3, time_channel, file);
  MultiSeries set;
  set.count = s[0];
  set.length = s[1];
  set.dim = time_channel ? s[2] - 1 : s[2];
  if (!time_channel) {
    set.values = std::move(a.values);
    return set;
  }
  split_time_channel(a.values, set);
  check_increasing(set, file);
  return set;
}

}  // namespace

MultiSeries generate_random_walks(std::size_t count, std::size_t length, std::size_t dim,
                                  std::uint64_t seed) {
  MultiSeries set = make_set("random walks", count, length, dim, true, false);
  for_each_series(count, [&](std::size_t e) { random_walk(set, e, seed); });
  return set;
}

MultiSeries generate_synthetic_control(std::size_t count, std::size_t length,
                                       std::uint64_t seed) {
  MultiSeries set = make_set("synthetic control", count, length, 1, false, true);
  for_each_series(count, [&](std::size_t e) { synthetic_control(set, e, seed); });
  return set;
}

MultiSeries generate_pseudo_periodic(std::size_t count, std::size_t length, std::uint64_t seed) {
  MultiSeries set = make_set("pseudo periodic", count, length, 1, false, false);
  for_each_series(count, [&](std::size_t e) { pseudo_periodic(set, e, seed); });
  return set;
}

MultiSeries generate_mnist_like(std::size_t count, std::uint64_t seed) {
  MultiSeries set = make_set("MNIST-like", count, kSide, kSide, false, true);
  glyphs();  // built once, before the threads share it
  for_each_series(count, [&](std::size_t e) { mnist_like(set, e, seed); });
  return set;
}

MultiSeries read_multiseries_npy(const std::string& path, bool time_channel) {
  return series_from_npy(read_npy(path), time_channel, quoted_name(path));
}

MultiSeries parse_multiseries_npy(const std::string& bytes, const std::string& name,
                                  bool time_channel) {
  return series_from_npy(parse_npy(bytes, name), time_channel, quoted_name(name));
}

void write_multiseries_npy(const std::string& path, const MultiSeries& set) {
  const std::size_t points = set.count * set.length;
  if (set.values.size() != points * set.dim || (!set.times.empty() && set.times.size() != points))
    throw std::invalid_argument("write_multiseries_npy: the set's arrays do not match its " +
                                std::to_string(set.count) + " x " + std::to_string(set.length) +
                                " x " + std::to_string(set.dim) + " shape");
  Output out;
  if (set.times.empty()) {
    out.shape = set.dim == 1 ? std::vector<std::size_t>{set.count, set.length}
                             : std::vector<std::size_t>{set.count, set.length, set.dim};
    out.data = set.values;
  } else {
    const std::size_t channels = set.dim + 1;
    std::vector<double> all(points * channels);
    for (std::size_t p = 0; p < points; ++p) {
      all[p * channels] = set.times[p];
      std::copy_n(set.values.data() + p * set.dim, set.dim, all.data() + p * channels + 1);
    }
    out.shape = {set.count, set.length, channels};
    out.data = std::move(all);
  }
  write_npy(path, out);
}

}  // namespace ladder
