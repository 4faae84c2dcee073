// Step 8: a warp per pair, for batch and triangle modes of short series (the paper's
// validation sets: 600 x 600 pairs of length 60, 60,000 pairs of 28 points in R^28). Steps
// 5 and 6 sweep every pair's anti-diagonals together, a launch per diagonal with the cells in
// global memory; step 7 gives one long pair the whole device, warps on bands of rows. With
// hundreds of thousands of pairs of a few dozen points neither fits: the launches and global
// round trips dominate, and one pair is far too small for the device. Here a group of G lanes
// (a warp, or 4 to 16 lanes of one, so that a warp holds 32 / G pairs) computes a whole pair
// as an in-register wavefront, and the grid runs over pairs; nothing but inputs and one
// result per pair touches memory:
//   - lane l owns R consecutive rows (a strip of G * R rows per group) and keeps their DP
//     cells D and match costs c of the last column, and A's timestamps and delete costs, in
//     registers (A's points too in R^1; in higher dimensions, or unrooted, in the warp's
//     shared memory, lane-interleaved);
//   - at step t lane l sweeps column s = t - l + 1: the cell above its first row, D and c of
//     the previous lane's last row in that column, arrives by two __shfl_up_sync; B's
//     timestamp and delete cost are read per column (L1/L2: a pair's series are small), and
//     so is B's point in R^1; in higher dimensions the group copies B's points, G at a time
//     and coalesced, into a shared ring of 2G points;
//   - the minimum is a compare and a select in fp64 (fmin adds a NaN fix-up that cannot be
//     needed here: about a third of the instructions of a cell);
//   - series longer than a strip loop over strips of G * R rows: the group's last lane leaves
//     its bottom row in global scratch for lane 0 of the next strip (scratch sized by the
//     warps in flight).
// A pair costs m + G - 1 steps per strip of G * R rows, its cells never leaving registers.
#include <algorithm>
#include <cmath>
#include <string>

#include "../../harness/compiled_set.hpp"
#include "../../harness/cuda_check.hpp"
#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"

namespace ladder::twed {
namespace {

constexpr int kMaxWarpsPerBlock = 8;
using RowsPerLane = CompiledSet<1, 2, 4, 8>;  // R: register arrays need it at compile time
constexpr int kLaneChoices[] = {4, 8, 16, 32};
constexpr int kWarpChoices[] = {1, 2, 4, 8};
// Lanes resident on a large GPU (132 SMs x 2048): the cost model's notion of "few pairs". A
// constant, not the device's, because the choice also sizes the scratch, asked without caps.
constexpr double kResidentLanes = 132.0 * 2048;
// Global scratch for the strips' bottom rows is capped near this; fewer warps run at once
// beyond it (each warp loops over more pairs).
constexpr double kScratchCap = 512.0 * 1024 * 1024;
// The general path keeps points in shared memory; "auto" takes R > 1 only while a warp's share
// stays below this (measured: MNIST-like R^28, fp32 fastest at R = 2, fp64 at R = 1).
constexpr double kAutoSharedPerWarp = 16.0 * 1024;
// Pair mode is one group on one pair: slow for long pairs, which the wavefront step serves.
constexpr double kMaxPairCells = double(1 << 26);

// ---- Launch shape: lanes per pair, rows per lane, warps in flight ----

struct Shape {
  int lanes = 32;  // G, a power of two
  int rows = 1;    // R
  bool r1 = true;  // the R^1 rooted path: |x - y| in registers
  int strips = 1;  // ceil(n / (G * R))
};

bool r1_path(const TwedProblem& p) { return p.dim() == 1 && p.costs.root; }

int strips_for(const TwedProblem& p, int lanes, int rows) {
  const std::int64_t h = std::int64_t(lanes) * rows;
  return int(ceil_div(p.n(), h));
}

// Shared memory of the general path, in words: a lane's R points of A (lane-interleaved), and
// per group a ring of 2G points of B, the point above the strip and one word of padding (so
// that the groups' rings start in different banks).
__host__ __device__ std::int64_t group_words(std::int64_t dim, int lanes) {
  return (2 * lanes + 1) * dim + 1;
}
double shared_per_warp(const TwedProblem& p, int lanes, int rows, std::size_t word) {
  if (r1_path(p)) return 0.0;
  const double words = double(rows) * double(p.dim()) * 32.0 +
                       double(32 / lanes) * double(group_words(p.dim(), lanes));
  return words * double(word);
}

// Modelled time of a (G, R): waves of pairs x strips x steps per strip x work per step (R
// cells plus about one cell's worth of shuffles, loads and lane 0's extra cost; in the general
// path one more point distance, for the row above). Extra strips pay the scratch, and in the
// general path refill the shared points each strip. Fitted to H100 sweeps of lanes x
// rows_per_lane: the choice is within 8% of the best measured (G, R) on Synthetic Control and
// MNIST-like data, both precisions.
double modelled_cost(const TwedProblem& p, int lanes, int rows) {
  const double waves = std::max(1.0, double(p.pairs()) * lanes / kResidentLanes);
  const int strips = strips_for(p, lanes, rows);
  const bool r1 = r1_path(p);
  const double per_step = rows + (r1 ? 1.0 : 1.5);
  const double strip_cost = strips == 1 ? 1.0 : r1 ? 1.1 : 1.0 + 0.1 * strips;
  return waves * strips * double(p.m() + lanes - 1) * per_step * strip_cost;
}

// The params' lanes and rows, "auto" ones by the cost model. Depends on the point and the
// precision only (not the device): the scratch size is asked without device caps.
Shape choose(const TwedProblem& p, const Params& params, std::size_t word) {
  const std::string lanes = params.text("lanes"), rows = params.text("rows_per_lane");
  Shape best;
  double best_cost = INFINITY;
  for (int g : kLaneChoices) {
    if (lanes != "auto" && std::stoi(lanes) != g) continue;
    for (int r : {1, 2, 4, 8}) {
      if (rows != "auto" && std::stoi(rows) != r) continue;
      if (rows == "auto" && r > 1 && shared_per_warp(p, g, r, word) > kAutoSharedPerWarp)
        continue;
      const double cost = modelled_cost(p, g, r);
      if (cost < best_cost) best_cost = cost, best = {g, r, r1_path(p), strips_for(p, g, r)};
    }
  }
  return best;
}

// Warps that run (each owns its groups' scratch slots while strips > 1; each loops over
// pair sets warp, warp + warps, ...).
std::int64_t warps_in_flight(const TwedProblem& p, const Shape& s, std::size_t word) {
  const std::int64_t per_warp = 32 / s.lanes;
  const std::int64_t sets = ceil_div(p.pairs(), per_warp);
  std::int64_t cap = std::int64_t(1) << 30;
  if (s.strips > 1) {
    const double per = double(per_warp) * 2.0 * double(p.m() + 1) * double(word);
    cap = std::max<std::int64_t>(1, std::int64_t(kScratchCap / per));
  }
  return std::min(sets, cap);
}

double scratch_bytes(const TwedProblem& p, const Shape& s, std::size_t word) {
  if (s.strips == 1) return 0.0;
  const double slots = double(warps_in_flight(p, s, word)) * double(32 / s.lanes);
  return slots * 2.0 * double(p.m() + 1) * double(word);
}

// ---- Device side ----

struct Launch {
  std::int64_t pairs;  // pairs to compute
  std::int64_t warps;  // warps taking part; the rest of the grid leaves at once
  int lanes;           // G
  int strips;          // ceil(n / (G * R))
};

// Pair p: row-major in batch and pair modes; in triangle mode p = j (j - 1) / 2 + i with
// i < j, j from the closed form and corrected in integers (the double root may be off by one
// for p near 2^47).
template <class T>
__device__ void pair_at(const Lists<T>& l, std::int64_t p, std::int64_t& i, std::int64_t& j) {
  if (!l.triangle) {
    i = p / l.cols, j = p % l.cols;
    return;
  }
  std::int64_t c = std::int64_t((1.0 + sqrt(1.0 + 8.0 * double(p))) * 0.5);
  while (c * (c - 1) / 2 > p) --c;
  while ((c + 1) * c / 2 <= p) ++c;
  i = p - c * (c - 1) / 2, j = c;
}

// lp_distance's terms and root, split so that the general path can sum over dimensions with
// both points in shared memory (never called for the rooted R^1 case).
template <class T>
__device__ T lp_term(T r, int degree) {
  return degree == 1 ? r : degree == 2 ? r * r : pow(r, T(degree));
}
template <class T>
__device__ T lp_finish(T s, int degree, bool root) {
  if (!root || degree == 1) return s;
  return degree == 2 ? sqrt(s) : pow(s, T(1) / T(degree));
}

// The smaller of two values that are never NaN (costs are finite and non-negative, D is finite
// or +inf). fp64's fmin adds a NaN fix-up to its compare and selects; a compare and a select
// give the same result here. fp32 has a one-instruction minimum.
template <class T>
__device__ T lower(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    return b < a ? b : a;
  } else {
    return fmin(a, b);
  }
}

// B's terms of one column (1-based, clamped to 1..m): the point (R^1 path), timestamp and
// delete cost.
template <class T>
struct Column {
  T x, t, del;
};

// One lane's state over a strip: its R rows' D and c in the last column swept, and the
// rows' own terms.
template <class T, int R>
struct LaneRows {
  T left[R], cost[R];    // D[i][s - 1], c(i, s - 1) of rows i = first .. first + R - 1
  T x[R], t[R], del[R];  // a_i (R^1 path only), tA_i, delA(i)
  T above_x, above_t;    // the point (R^1) and time of the row above the strip
};

// A group of G lanes computing one pair at a time; see the file comment. kR1: the rooted R^1
// path (points in registers); otherwise the general path (points in shared memory: `shared_a`
// is this lane's column of the warp's A points, `group` the group's ring of B points and the
// point above the strip).
template <class T, int R, bool kR1>
class PairSweep {
 public:
  __device__ PairSweep(const Lists<T>& l, const Launch& k, T* shared_a, T* group, T* buf)
      : l_(l),
        g_(k.lanes),
        lane_(int(threadIdx.x) & (k.lanes - 1)),
        strips_(k.strips),
        m_(int(l.m)),
        dim_(l.dim),
        shared_a_(shared_a),
        ring_(group),
        above_(group + 2 * k.lanes * l.dim),
        buf_(buf) {}

  // D[n][m] of pair (ia, jb), valid in lane owner() of the group.
  __device__ T run(std::int64_t ia, std::int64_t jb) {
    a_ = l_.a + ia * l_.n * dim_, ta_ = l_.ta + ia * l_.n, da_ = l_.del_a + ia * (l_.n + 1);
    b_ = l_.b + jb * l_.m * dim_, tb_ = l_.tb + jb * l_.m, db_ = l_.del_b + jb * (l_.m + 1);
    for (int strip = 0; strip < strips_; ++strip) {
      __syncwarp();  // the last strip's scratch writes and shared reads before this strip
      load_rows(strip);
      if (strip == 0) {
        sweep<false>(strip);
      } else {
        sweep<true>(strip);
      }
    }
    return last_row_cell();
  }
  __device__ int owner() const { return int(((l_.n - 1) % height()) / R); }

 private:
  __device__ std::int64_t height() const { return std::int64_t(g_) * R; }

  // A's terms of this lane's rows (rows past n repeat row n: computed, never read) and of the
  // row above the strip; D[i][0] = +inf, and c(i, 0) only ever meets D[i][0] (finite 0 will do).
  __device__ void load_rows(int strip) {
    top_ = std::int64_t(strip) * height();  // the row above the strip (0: the origin)
    const std::int64_t first = top_ + std::int64_t(lane_) * R + 1;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::int64_t i = first + r < l_.n ? first + r : l_.n;
      s_.t[r] = ta_[i - 1];
      s_.del[r] = da_[i];
      if constexpr (kR1) {
        s_.x[r] = a_[i - 1];
      } else {
        for (int d = 0; d < dim_; ++d) shared_a_[(r * dim_ + d) * 32] = a_[(i - 1) * dim_ + d];
      }
      s_.left[r] = T(INFINITY);
      s_.cost[r] = T(0);
    }
    s_.above_t = top_ == 0 ? T(0) : ta_[top_ - 1];
    if constexpr (kR1) {
      s_.above_x = top_ == 0 ? T(0) : a_[top_ - 1];
    } else {
      for (int d = lane_; d < dim_; d += g_)
        above_[d] = top_ == 0 ? T(0) : a_[(top_ - 1) * dim_ + d];
    }
  }

  __device__ Column<T> column(int s) const {
    const int q = min(max(s, 1), m_);
    Column<T> c;
    c.x = kR1 ? b_[q - 1] : T(0);
    c.t = tb_[q - 1];
    c.del = db_[q];
    return c;
  }

  // General path: the group copies B's points of columns t + 1 .. t + G (those <= m) into a
  // ring of 2G slots, coalesced, 8 loads in flight per lane. Column s lives in slot
  // (s - 1) mod 2G, so with t a multiple of G the chunk lands in G consecutive slots, laid out
  // as in global memory (points back to back). At steps t .. t + G - 1 the lanes read columns
  // t - G + 2 .. t + G, all in the ring; the slots overwritten held columns no lane reads again.
  __device__ void fill_ring(int t) {
    __syncwarp();
    const int count = min(g_, m_ - t) * dim_;
    const T* src = b_ + std::int64_t(t) * dim_;  // column t + 1's point
    T* dst = ring_ + (t & (2 * g_ - 1)) * dim_;
    for (int e0 = 0; e0 < count; e0 += 8 * g_) {
      T v[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int e = e0 + k * g_ + lane_;
        v[k] = e < count ? src[e] : T(0);
      }
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int e = e0 + k * g_ + lane_;
        if (e < count) dst[e] = v[k];
      }
    }
    __syncwarp();
  }

  // c(i, s) of the lane's rows, and of the row above the strip (only lane 0 uses it; the
  // others compute it too, the warp would wait for lane 0 anyway).
  __device__ void match_costs(int s, const Column<T>& b, T (&c)[R], T& above) const {
    const CostsT<T>& k = l_.costs;
    if constexpr (kR1) {
#pragma unroll
      for (int r = 0; r < R; ++r) c[r] = fabs(s_.x[r] - b.x) + k.nu * fabs(s_.t[r] - b.t);
      above = fabs(s_.above_x - b.x) + k.nu * fabs(s_.above_t - b.t);
    } else {
      const T* bp = ring_ + ((min(max(s, 1), m_) - 1) & (2 * g_ - 1)) * dim_;
      T acc[R], acc_above = T(0);
#pragma unroll
      for (int r = 0; r < R; ++r) acc[r] = T(0);
#pragma unroll 4
      for (int d = 0; d < dim_; ++d) {
        const T bd = bp[d];
#pragma unroll
        for (int r = 0; r < R; ++r)
          acc[r] += lp_term(T(fabs(shared_a_[(r * dim_ + d) * 32] - bd)), k.degree);
        acc_above += lp_term(T(fabs(above_[d] - bd)), k.degree);
      }
#pragma unroll
      for (int r = 0; r < R; ++r)
        c[r] = lp_finish(acc[r], k.degree, k.root) + k.nu * fabs(s_.t[r] - b.t);
      above = lp_finish(acc_above, k.degree, k.root) + k.nu * fabs(s_.above_t - b.t);
    }
  }

  // Column s of the lane's rows, given the cell above the first row (D and c of the row
  // above in this column) and the diagonal kept from the last step. This is twed_cell,
  // ordered so that only one addition and one minimum wait for the cell above; the minimum of
  // non-NaN values is exact, so the order changes no bit of the result.
  __device__ void cells(const Column<T>& b, const T (&c)[R], T up, T up_cost) {
    T diag = diag_, diag_cost = diag_cost_;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const T pre = lower(diag + c[r] + diag_cost, s_.left[r] + b.del);
      const T cur = lower(pre, up + s_.del[r]);
      diag = s_.left[r], diag_cost = s_.cost[r];
      s_.left[r] = cur, s_.cost[r] = c[r];
      up = cur;
    }
  }

  // Lane 0 of a strip after the first reads the previous strip's bottom row from scratch, a
  // chunk of G columns per G steps, loaded one chunk ahead (lane k holds column base + k + 1).
  __device__ T scratch_at(const T* rbuf, int col) const {
    return col <= m_ ? rbuf[col] : T(INFINITY);
  }

  // Step t: lane l sweeps column s = t - l + 1. kRead: the row above comes from scratch (else
  // it is row 0: D = +inf); kDrain: t >= m, lanes past column m keep their cells.
  template <bool kRead, bool kDrain>
  __device__ void step(int t, int strip, const Column<T>& b, T chunk) {
    const int s = t - lane_ + 1;
    T c[R], above;
    match_costs(s, b, c, above);
    T up = __shfl_up_sync(kFullWarp, send_, 1, g_);
    T up_cost = __shfl_up_sync(kFullWarp, send_cost_, 1, g_);
    if constexpr (kRead && !kDrain) {
      const T v = __shfl_sync(kFullWarp, chunk, t & (g_ - 1), g_);
      if (lane_ == 0) up = v;
    } else {
      if (lane_ == 0) up = T(INFINITY);  // D[0][s], or (drain) a column lane 0 no longer sweeps
    }
    if (lane_ == 0) up_cost = above;
    if (kDrain && s > m_) return;
    cells(b, c, up, up_cost);
    diag_ = up, diag_cost_ = up_cost;
    send_ = s_.left[R - 1], send_cost_ = s_.cost[R - 1];
    if (strip + 1 < strips_ && lane_ == g_ - 1 && s >= 1)
      buf_[(strip & 1) * (l_.m + 1) + s] = send_;
  }

  template <bool kRead>
  __device__ void sweep(int strip) {
    // D[0][0] = 0 above lane 0's first row in the first strip; D[i][0] = +inf elsewhere.
    diag_ = lane_ == 0 && strip == 0 ? T(0) : T(INFINITY);
    diag_cost_ = T(0);
    send_ = T(INFINITY), send_cost_ = T(0);
    const T* rbuf = kRead ? buf_ + ((strip + 1) & 1) * (l_.m + 1) : nullptr;
    T chunk = T(INFINITY), chunk_next = T(INFINITY);
    if (kRead) chunk_next = scratch_at(rbuf, lane_ + 1);
    Column<T> b = column(1 - lane_);
#pragma unroll 2
    for (int t = 0; t < m_; ++t) {
      if ((t & (g_ - 1)) == 0) {
        if constexpr (!kR1) fill_ring(t);
        if constexpr (kRead) {
          chunk = chunk_next;
          chunk_next = scratch_at(rbuf, t + g_ + lane_ + 1);
        }
      }
      const Column<T> next = column(t + 2 - lane_);
      step<kRead, false>(t, strip, b, chunk);
      b = next;
    }
    for (int t = m_; t < m_ + g_ - 1; ++t) {
      const Column<T> next = column(t + 2 - lane_);
      step<kRead, true>(t, strip, b, T(0));
      b = next;
    }
  }

  // D[n][m]: row n's register in its lane after the last strip's sweep.
  __device__ T last_row_cell() const {
    const int r_n = int(((l_.n - 1) % height()) % R);
    T v = s_.left[0];
#pragma unroll
    for (int r = 1; r < R; ++r)
      if (r == r_n) v = s_.left[r];
    return v;
  }

  const Lists<T> l_;
  const int g_, lane_, strips_, m_, dim_;
  T* const shared_a_;  // general path: this lane's column of the warp's A points
  T* const ring_;      // general path: the group's ring of B points
  T* const above_;     // general path: the group's point above the strip
  T* const buf_;       // this group's two scratch rows (strips > 1)
  const T *a_ = nullptr, *ta_ = nullptr, *da_ = nullptr;  // this pair's A series
  const T *b_ = nullptr, *tb_ = nullptr, *db_ = nullptr;  // and B series
  std::int64_t top_ = 0;
  LaneRows<T, R> s_;
  T diag_, diag_cost_;  // D and c of the row above the lane's first row, column s - 1
  T send_, send_cost_;  // the lane's last row in its last column, for the lane below
};

template <class T, int R, bool kR1>
__global__ void __launch_bounds__(kMaxWarpsPerBlock * 32)
    warp_batch_kernel(const Lists<T> l, const Launch k) {
  extern __shared__ __align__(16) unsigned char shared_raw[];
  const std::int64_t warp = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (warp >= k.warps) return;  // whole warps leave together: no shuffle misses a lane
  const int per_warp = 32 / k.lanes, group = int(threadIdx.x & 31) / k.lanes;
  // General path: per warp, R points per lane (lane-interleaved), then each group's words.
  T* warp_shared = reinterpret_cast<T*>(shared_raw) +
                   std::int64_t(threadIdx.x / 32) *
                       (std::int64_t(R) * l.dim * 32 + per_warp * group_words(l.dim, k.lanes));
  T* shared_a = warp_shared + (threadIdx.x & 31);
  T* group_shared =
      warp_shared + std::int64_t(R) * l.dim * 32 + group * group_words(l.dim, k.lanes);
  T* buf = l.scratch ? l.scratch + (warp * per_warp + group) * 2 * (l.m + 1) : nullptr;
  PairSweep<T, R, kR1> sweep(l, k, shared_a, group_shared, buf);
  // Every group of a warp runs the same sets (a group past the last pair redoes the last
  // pair and stores nothing), so the full-mask shuffles always find all 32 lanes.
  for (std::int64_t set = warp; set * per_warp < k.pairs; set += k.warps) {
    const std::int64_t p = set * per_warp + group;
    std::int64_t i, j;
    pair_at(l, p < k.pairs ? p : k.pairs - 1, i, j);
    const T d = sweep.run(i, j);
    if (p < k.pairs && (int(threadIdx.x) & (k.lanes - 1)) == sweep.owner())
      l.out[i * l.cols + j] = d;
  }
}

// ---- Host side ----

template <class T>
Setup<T> setup(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  const Shape s = choose(p, params, sizeof(T));
  const int warps_per_block = int(params.integer("warps"));
  const Launch k{p.pairs(), warps_in_flight(p, s, sizeof(T)), s.lanes, s.strips};
  const std::size_t shared =
      std::size_t(shared_per_warp(p, s.lanes, s.rows, sizeof(T))) * warps_per_block;
  void (*kernel)(const Lists<T>, const Launch) = nullptr;
  RowsPerLane::exactly(s.rows, [&](auto r) {
    constexpr int R = decltype(r)::value;
    kernel = s.r1 ? warp_batch_kernel<T, R, true> : warp_batch_kernel<T, R, false>;
  }, "twed/warp_batch");
  if (shared > 48 * 1024) allow_shared_memory(kernel, shared);
  const int threads = warps_per_block * 32;
  int blocks_per_sm = 0;
  LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads,
                                                            shared));
  cudaFuncAttributes attr{};
  LADDER_CUDA(cudaFuncGetAttributes(&attr, kernel));
  const std::int64_t blocks = ceil_div(k.warps, warps_per_block);
  Setup<T> out;
  out.facts = {{"lanes_per_pair", s.lanes},
               {"rows_per_lane", s.rows},
               {"warps_per_block", warps_per_block},
               {"strips", s.strips},
               {"r1_path", s.r1 ? 1 : 0},
               {"warps_in_flight", double(k.warps)},
               {"shared_bytes_per_block", double(shared)},
               {"registers", attr.numRegs},
               {"local_bytes", double(attr.localSizeBytes)},
               {"blocks_per_sm", blocks_per_sm}};
  out.enqueue = [kernel, k, blocks, threads, shared](const Lists<T>& l, cudaStream_t stream) {
    if (k.pairs == 0) return;
    kernel<<<unsigned(blocks), threads, shared, stream>>>(l, k);
    LADDER_CUDA_LAUNCH("warp_batch_kernel");
  };
  return out;
}

template <class T>
std::string limit(const TwedProblem& p, const Params& params, const DeviceCaps& d) {
  if (p.mode == Mode::pair && double(p.n()) * double(p.m()) > kMaxPairCells)
    return "a single long pair (over 2^26 cells) runs on one warp: use the wavefront step";
  const Shape s = choose(p, params, sizeof(T));
  const double shared =
      shared_per_warp(p, s.lanes, s.rows, sizeof(T)) * double(params.integer("warps"));
  return shared_memory_reason(std::size_t(shared),
                              "points in R^" + std::to_string(p.dim()) + " (" +
                                  std::to_string(s.rows) + " of A per lane, a ring of " +
                                  std::to_string(2 * s.lanes) + " of B per pair)",
                              d);
}

std::vector<ParamSpec> params() {
  auto choices = [](const auto& list, bool with_auto) {
    std::vector<std::string> out;
    if (with_auto) out.push_back("auto");
    for (int v : list) out.push_back(std::to_string(v));
    return out;
  };
  return {{"lanes", "auto",
           "lanes per pair (G; 32 / G pairs per warp): auto (cost model), 4, 8, 16, 32",
           ParamSpec::Kind::text, 0, 0, choices(kLaneChoices, true)},
          {"rows_per_lane", "auto", "rows per lane (R, compiled for " + RowsPerLane::text() +
                               "): auto (cost model)",
           ParamSpec::Kind::text, 0, 0, [] {
             std::vector<std::string> c = RowsPerLane::choices();
             c.insert(c.begin(), "auto");
             return c;
           }()},
          {"warps", "4", "warps per block", ParamSpec::Kind::integer, 1, kMaxWarpsPerBlock,
           choices(kWarpChoices, false)}};
}

template <class T>
GpuStep<T> make() {
  return {.name = "warp_batch",
          .step = 8,
          .label = "warp per pair",
          .change = "a (sub-)warp per pair: in-register wavefront over columns, rows in "
                    "registers, cells above by shuffles; the grid runs over pairs",
          .params = params(),
          .impl = setup<T>,
          .limit = limit<T>,
          .scratch_bytes = [](const TwedProblem& p, const Params& params) {
            return scratch_bytes(p, choose(p, params, sizeof(T)), sizeof(T));
          }};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
