// Step 8: a warp per pair, for batch and triangle modes of short series (the paper's
// validation sets: 600 x 600 pairs of length 60, 60,000 pairs of 28 points in R^28). The steps
// before give one pair the whole device (or a block) and pay a barrier per anti-diagonal;
// with hundreds of thousands of pairs of a few dozen points that parallelism is wasted and
// the barriers dominate. Here a group of G lanes (a warp, or 4 to 16 lanes of one, so that a
// warp holds 32 / G pairs) computes a whole pair as an in-register wavefront, and the grid
// runs over pairs:
//   - lane l owns R consecutive rows (a strip of G * R rows per group) and keeps their DP
//     cells D and match costs c of the last column, and A's timestamps and delete costs, in
//     registers (A's points too in R^1; in higher dimensions in the warp's shared memory);
//   - at step t lane l sweeps column s = t - l + 1: the cell above its first row, D and c of
//     the previous lane's last row in that column, arrives by two __shfl_up_sync; B's point,
//     timestamp and delete cost are read per column (L1/L2: a pair's series are small);
//   - series longer than a strip loop over strips of G * R rows: the group's last lane leaves
//     its bottom row in global scratch for lane 0 of the next strip (scratch sized by the
//     warps in flight).
// A pair costs m + G - 1 steps per strip instead of n + m barriers.
#include <algorithm>
#include <cmath>
#include <string>

#include "../../harness/compiled_set.hpp"
#include "../../harness/cuda_check.hpp"
#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"

namespace ladder::twed {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;
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
// The general path keeps A's points in shared memory; "auto" keeps a warp's share below this
// so that at least ~14 warps fit on an SM.
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

std::int64_t pair_count(const TwedProblem& p) {
  if (p.mode == Mode::triangle) return p.rows() * (p.rows() - 1) / 2;
  return p.rows() * p.cols();
}

int strips_for(const TwedProblem& p, int lanes, int rows) {
  const std::int64_t h = std::int64_t(lanes) * rows;
  return int((p.n() + h - 1) / h);
}

// Shared memory per warp for the general path: R points of `dim` words per lane.
double shared_per_warp(const TwedProblem& p, int rows, std::size_t word) {
  return r1_path(p) ? 0.0 : double(rows) * double(p.dim()) * 32.0 * double(word);
}

// Modelled time of a (G, R): waves of pairs x strips x steps per strip x work per step (R
// cells plus about one cell's worth of shuffles, loads and lane 0's extra cost; more in the
// general path, whose B point is loaded per dimension). Extra strips pay the scratch.
double modelled_cost(const TwedProblem& p, int lanes, int rows) {
  const double waves = std::max(1.0, double(pair_count(p)) * lanes / kResidentLanes);
  const int strips = strips_for(p, lanes, rows);
  const double per_step = rows + (r1_path(p) ? 1.0 : 1.5);
  return waves * strips * double(p.m() + lanes - 1) * per_step * (strips > 1 ? 1.1 : 1.0);
}

// The params' lanes and rows, "auto" ones by the cost model. Depends on the point and the
// precision only (not the device): the scratch size is asked without device caps.
Shape choose(const TwedProblem& p, const Params& params, std::size_t word) {
  const std::string lanes = params.text("lanes"), rows = params.text("rows");
  Shape best;
  double best_cost = INFINITY;
  for (int g : kLaneChoices) {
    if (lanes != "auto" && std::stoi(lanes) != g) continue;
    for (int r : {1, 2, 4, 8}) {
      if (rows != "auto" && std::stoi(rows) != r) continue;
      if (rows == "auto" && r > 1 && shared_per_warp(p, r, word) > kAutoSharedPerWarp) continue;
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
  const std::int64_t sets = (pair_count(p) + per_warp - 1) / per_warp;
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
// the point of A from shared memory (never called for the rooted R^1 case).
template <class T>
__device__ T lp_term(T r, int degree) {
  return degree == 1 ? r : degree == 2 ? r * r : pow(r, T(degree));
}
template <class T>
__device__ T lp_finish(T s, int degree, bool root) {
  if (!root || degree == 1) return s;
  return degree == 2 ? sqrt(s) : pow(s, T(1) / T(degree));
}

// twed_cell, ordered so that only one addition and one minimum wait for the cell above;
// `pre` = min(match, left + del_b) is computed off that chain. The minimum of non-NaN values
// is exact, so the order changes no bit of the result.
template <class T>
__device__ T cell_from_above(T pre, T up, T del_a) {
  return fmin(pre, up + del_a);
}

// B's terms of one column q (1-based, clamped to 1..m): the point (R^1 path), timestamp and
// delete cost.
template <class T>
struct Column {
  T x, t, del;
};

// One lane's state over a strip: its R rows' D and c in the last column swept, and the
// rows' own terms.
template <class T, int R, bool kR1>
struct LaneRows {
  T left[R], cost[R];   // D[i][s - 1], c(i, s - 1) of rows i = first .. first + R - 1
  T x[R], t[R], del[R]; // a_i (R^1 path only), tA_i, delA(i)
  T above_x, above_t;   // R^1 path: the point of the row above the strip (lane 0's use)
};

template <class T, int R, bool kR1>
class PairSweep {
 public:
  __device__ PairSweep(const Lists<T>& l, const Launch& k, T* shared_a, T* buf)
      : l_(l),
        g_(k.lanes),
        lane_(int(threadIdx.x) & (k.lanes - 1)),
        strips_(k.strips),
        shared_a_(shared_a),
        buf_(buf) {}

  // D[n][m] of pair (ia, jb), valid in lane owner() of the group.
  __device__ T run(std::int64_t ia, std::int64_t jb) {
    ia_ = ia, jb_ = jb;
    for (int strip = 0; strip < strips_; ++strip) {
      __syncwarp();  // the last strip's scratch writes before this strip's reads
      load_rows(strip);
      sweep(strip);
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
      s_.t[r] = l_.ta[ia_ * l_.n + i - 1];
      s_.del[r] = l_.del_a[ia_ * (l_.n + 1) + i];
      if constexpr (kR1) {
        s_.x[r] = l_.a[ia_ * l_.n + i - 1];
      } else {
        for (int k = 0; k < l_.dim; ++k)
          shared_a_[(r * l_.dim + k) * 32] = l_.a[(ia_ * l_.n + i - 1) * l_.dim + k];
      }
      s_.left[r] = T(INFINITY);
      s_.cost[r] = T(0);
    }
    if constexpr (kR1) {
      s_.above_x = top_ == 0 ? T(0) : l_.a[ia_ * l_.n + top_ - 1];
      s_.above_t = top_ == 0 ? T(0) : l_.ta[ia_ * l_.n + top_ - 1];
    }
  }

  __device__ Column<T> column(int s) const {
    const int q = min(max(s, 1), int(l_.m));
    Column<T> c;
    c.x = kR1 ? l_.b[jb_ * l_.m + q - 1] : T(0);
    c.t = l_.tb[jb_ * l_.m + q - 1];
    c.del = l_.del_b[jb_ * (l_.m + 1) + q];
    return c;
  }

  // c(i, s) of the lane's rows, and of the row above the strip (used by lane 0 only).
  __device__ void match_costs(int s, const Column<T>& b, T (&c)[R], T& above) const {
    const CostsT<T>& k = l_.costs;
    if constexpr (kR1) {
#pragma unroll
      for (int r = 0; r < R; ++r) c[r] = fabs(s_.x[r] - b.x) + k.nu * fabs(s_.t[r] - b.t);
      above = fabs(s_.above_x - b.x) + k.nu * fabs(s_.above_t - b.t);
    } else {
      const int q = min(max(s, 1), int(l_.m));
      const T* bp = l_.b + (jb_ * l_.m + q - 1) * l_.dim;
      T acc[R];
#pragma unroll
      for (int r = 0; r < R; ++r) acc[r] = T(0);
#pragma unroll 4
      for (int d = 0; d < l_.dim; ++d) {
        const T bd = bp[d];
#pragma unroll
        for (int r = 0; r < R; ++r)
          acc[r] += lp_term(T(fabs(shared_a_[(r * l_.dim + d) * 32] - bd)), k.degree);
      }
#pragma unroll
      for (int r = 0; r < R; ++r)
        c[r] = lp_finish(acc[r], k.degree, k.root) + k.nu * fabs(s_.t[r] - b.t);
      above = T(0);
      if (lane_ == 0) above = match_cost(l_.a_ref(ia_), top_, l_.b_ref(jb_), q, k, l_.zero);
    }
  }

  // Column s of the lane's rows, given the cell above the first row (D and c of the row
  // above in this column) and the diagonal kept from the last step.
  __device__ void cells(const Column<T>& b, const T (&c)[R], T up, T up_cost) {
    T diag = diag_, diag_cost = diag_cost_;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const T pre = fmin(diag + c[r] + diag_cost, s_.left[r] + b.del);
      const T cur = cell_from_above(pre, up, s_.del[r]);
      diag = s_.left[r], diag_cost = s_.cost[r];
      s_.left[r] = cur, s_.cost[r] = c[r];
      up = cur;
    }
  }

  // Lane 0 of a strip after the first reads the previous strip's bottom row from scratch, a
  // chunk of G columns per G steps, loaded one chunk ahead (lane k holds column base + k).
  __device__ T scratch_at(const T* rbuf, int col) const {
    return col <= l_.m ? rbuf[col] : T(INFINITY);
  }

  template <bool kDrain>
  __device__ void step(int t, int strip, const Column<T>& b, T chunk) {
    const int s = t - lane_ + 1;
    T c[R], above;
    match_costs(s, b, c, above);
    T up = __shfl_up_sync(kFullMask, send_, 1, g_);
    T up_cost = __shfl_up_sync(kFullMask, send_cost_, 1, g_);
    if (!kDrain && strip > 0) {
      const T v = __shfl_sync(kFullMask, chunk, t & (g_ - 1), g_);
      if (lane_ == 0) up = v;
    } else if (lane_ == 0) {
      up = T(INFINITY);  // D[0][s], or (drain) a column lane 0 no longer sweeps
    }
    if (lane_ == 0) up_cost = above;
    if (kDrain && s > l_.m) return;  // this lane is done; its cells stay those of column m
    cells(b, c, up, up_cost);
    diag_ = up, diag_cost_ = up_cost;
    send_ = s_.left[R - 1], send_cost_ = s_.cost[R - 1];
    if (strip + 1 < strips_ && lane_ == g_ - 1 && s >= 1)
      buf_[(strip & 1) * (l_.m + 1) + s] = send_;
  }

  __device__ void sweep(int strip) {
    const int m = int(l_.m);
    // D[0][0] = 0 above lane 0's first row in the first strip; D[i][0] = +inf elsewhere.
    diag_ = lane_ == 0 && strip == 0 ? T(0) : T(INFINITY);
    diag_cost_ = T(0);
    send_ = T(INFINITY), send_cost_ = T(0);
    const T* rbuf = buf_ ? buf_ + ((strip + 1) & 1) * (l_.m + 1) : nullptr;
    T chunk = T(INFINITY), chunk_next = T(INFINITY);
    if (strip > 0) chunk_next = scratch_at(rbuf, lane_ + 1);
    Column<T> b = column(1 - lane_);
    for (int t = 0; t < m; ++t) {
      if (strip > 0 && (t & (g_ - 1)) == 0) {
        chunk = chunk_next;
        chunk_next = scratch_at(rbuf, t + g_ + lane_ + 1);
      }
      const Column<T> next = column(t + 2 - lane_);
      step<false>(t, strip, b, chunk);
      b = next;
    }
    for (int t = m; t < m + g_ - 1; ++t) {
      const Column<T> next = column(t + 2 - lane_);
      step<true>(t, strip, b, T(0));
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
  const int g_, lane_, strips_;
  T* const shared_a_;  // this lane's column of the warp's A points (general path)
  T* const buf_;       // this group's two scratch rows (strips > 1)
  std::int64_t ia_ = 0, jb_ = 0, top_ = 0;
  LaneRows<T, R, kR1> s_;
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
  T* shared_a = reinterpret_cast<T*>(shared_raw) +
                std::int64_t(threadIdx.x / 32) * R * l.dim * 32 + (threadIdx.x & 31);
  T* buf = l.scratch ? l.scratch + (warp * per_warp + group) * 2 * (l.m + 1) : nullptr;
  PairSweep<T, R, kR1> sweep(l, k, shared_a, buf);
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
Plan<T> plan(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  const Shape s = choose(p, params, sizeof(T));
  const int warps_per_block = int(params.integer("warps"));
  const Launch k{pair_count(p), warps_in_flight(p, s, sizeof(T)), s.lanes, s.strips};
  const std::size_t shared = std::size_t(shared_per_warp(p, s.rows, sizeof(T))) * warps_per_block;
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
  const std::int64_t blocks = (k.warps + warps_per_block - 1) / warps_per_block;
  Plan<T> out;
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
  out.enqueue = [kernel, k, blocks, threads, shared](const Lists<T>& l) {
    if (k.pairs == 0) return;
    kernel<<<unsigned(blocks), threads, shared>>>(l, k);
    LADDER_CUDA_LAUNCH("warp_batch_kernel");
  };
  return out;
}

template <class T>
std::string limit(const TwedProblem& p, const Params& params, const DeviceCaps& d) {
  if (p.mode == Mode::pair && double(p.n()) * double(p.m()) > kMaxPairCells)
    return "a single long pair (over 2^26 cells) runs on one warp: use the wavefront step";
  const Shape s = choose(p, params, sizeof(T));
  const double shared = shared_per_warp(p, s.rows, sizeof(T)) * double(params.integer("warps"));
  return shared_memory_reason(std::size_t(shared),
                              "A's points of " + std::to_string(s.rows) + " rows x R^" +
                                  std::to_string(p.dim()) + " per lane",
                              d);
}

std::vector<ParamSpec> params() {
  auto choices = [](const auto& list, bool with_auto) {
    std::vector<std::string> out;
    if (with_auto) out.push_back("auto");
    for (int v : list) out.push_back(std::to_string(v));
    return out;
  };
  return {{"lanes", "auto", "lanes per pair (G; 32 / G pairs per warp): auto (cost model), 4, 8, 16, 32",
           ParamSpec::Kind::text, 0, 0, choices(kLaneChoices, true)},
          {"rows", "auto", "rows per lane (R, compiled for " + RowsPerLane::text() +
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
          .plan = plan<T>,
          .limit = limit<T>,
          .scratch_bytes = [](const TwedProblem& p, const Params& params) {
            return scratch_bytes(p, choose(p, params, sizeof(T)), sizeof(T));
          }};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
