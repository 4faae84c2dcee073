// Sort-filter on the GPU (in the manner of GGS, Bogh et al. 2013), which steps 9 and 10
// instantiate. The points are sorted by attribute sum, so a point's dominators come before it
// (or tie with it), and taken in blocks of sorted positions. Per block:
//   A. every candidate against the skyline found so far, a warp of candidates per slice of
//      it (a 2-D grid), each warp leaving as soon as all its lanes are dominated;
//   B. the survivors against the block's other survivors before them (and any point tying
//      with them on the sum, wherever it is), skipping points already known to be dominated;
//   C. the block's survivors appended to the skyline.
// Any point it compares with is sound evidence; completeness: a dominated point has a skyline
// dominator with a sum no larger, either in an earlier block (so in the skyline so far) or in
// its own block's range or tie, where nothing skips it.
// With `kMasks` (steps 10-11) every point also gets a grid cell: per attribute, its level among
// up to three thresholds (below the low mean, the mean, the high mean), written as thermometer
// bits (bit j of an attribute set when the value is above threshold j). p can dominate q only
// if p is at no higher level anywhere, that is only if p's bits are a subset of q's. Candidates
// of a block are taken in mask order, so a warp's lanes share masks, and a 32-point slice of
// the skyline whose common bits miss every lane's mask is skipped whole, and in the others
// one vote drops the points whose bits no group of lanes holds: most pairs are never
// compared. With pruners (step 11), every point is first tested against the P points of
// lowest sum, and only the survivors, compacted, enter the passes.
#pragma once
#include <cub/cub.cuh>

#include <memory>

#include "padded.cuh"

namespace ladder::skyline {

struct Sorted {
  const float* rows;        // n x D, by sorted position
  const float* key;         // attribute sums, sorted
  const std::int32_t* id;   // original id of each sorted position
  const unsigned* mask;     // per sorted position (kMasks), else null
  const std::int32_t* order;  // candidate c is sorted position order[c] (kMasks), else c
  float* sky;               // skyline rows so far, n x D capacity
  unsigned* sky_mask;       // their masks (kMasks)
  unsigned char* alive;     // per sorted position: not (yet) known to be dominated
  std::int32_t* sky_count;
  std::int64_t n;
  int lane_groups;          // groups a warp's candidates form for the per-point cell check (kMasks)
};

constexpr int kThreads = 256;

__device__ __forceinline__ std::int64_t position_of(const Sorted& s, std::int64_t c) {
  return s.order ? s.order[c] : c;
}

static __global__ void sum_keys_kernel(Points pts, float* key, std::int32_t* id) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pts.n) return;
  key[i] = attribute_sum(pts.rows + i * pts.d, pts.d);
  id[i] = std::int32_t(i);
}

// One thread per padded element: neighbours read one point's attributes and write one row.
template <int D>
__global__ void gather_kernel(Points pts, std::int64_t count, const std::int32_t* id, float* rows) {
  const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count * D) return;
  const std::int64_t r = e / D;
  const int k = int(e % D);
  rows[e] = k < pts.d ? pts.rows[std::int64_t(id[r]) * pts.d + k] : INFINITY;
}

// Thresholds per attribute for the cell levels: as many as fit 32 bits of mask (three up to
// d = 10, two up to 16, else one over the first 32 attributes).
constexpr int kMaskBits = 32;
constexpr std::int64_t kThresholdSample = 65536;  // points the thresholds are estimated from
__host__ __device__ constexpr int levels_for(int d) { return d <= 10 ? 3 : d <= 16 ? 2 : 1; }
__host__ __device__ constexpr int masked_attributes(int d) {
  return d < kMaskBits / levels_for(d) ? d : kMaskBits / levels_for(d);
}

// Sum of `value` over this block's threads, in a fixed order (deterministic).
static __device__ double block_sum(double value, double* part) {
  part[threadIdx.x] = value;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  const double total = part[0];
  __syncthreads();
  return total;
}

// One block per attribute, over an evenly strided sample: the mean, then the means of the
// values at or below it and above it. Any thresholds keep the test sound (a dominator is at
// no higher level anywhere); good ones make the cells even.
static __global__ void thresholds_kernel(Points pts, std::int64_t stride, float* thr) {
  __shared__ double part[kThreads];
  const int k = blockIdx.x;
  const int levels = levels_for(pts.d);
  const auto value = [&](std::int64_t i) { return double(pts.rows[i * stride * pts.d + k]); };
  const std::int64_t m = (pts.n + stride - 1) / stride;
  double sum = 0;
  for (std::int64_t i = threadIdx.x; i < m; i += blockDim.x) sum += value(i);
  const double mean = block_sum(sum, part) / double(m);
  double lo = 0, lo_n = 0, hi = 0;
  for (std::int64_t i = threadIdx.x; i < m; i += blockDim.x) {
    const double v = value(i);
    if (v <= mean) lo += v, lo_n += 1;
    else hi += v;
  }
  lo = block_sum(lo, part), lo_n = block_sum(lo_n, part), hi = block_sum(hi, part);
  if (threadIdx.x != 0) return;
  const double lo_mean = lo_n > 0 ? lo / lo_n : mean, hi_mean = m > lo_n ? hi / (m - lo_n) : mean;
  const double t[3] = {lo_mean, hi_mean, mean};  // the mean last: its bits are the mask's top
  const int first = levels == 3 ? 0 : levels == 2 ? 0 : 2;
  for (int j = 0; j < levels; ++j) thr[j * pts.d + k] = float(t[first + j]);
}

// The cell bits of each sorted point: threshold j of attribute k is bit j * a + k, a the
// attributes masked. The processing key puts block b's candidates together, in mask order.
template <int D>
__global__ void mask_kernel(const float* rows, std::int64_t n, int d, const float* thr,
                            std::int64_t block_points, unsigned* mask, unsigned long long* key,
                            std::int32_t* position) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int levels = levels_for(d), a = masked_attributes(d);
  unsigned m = 0;
  for (int j = 0; j < levels; ++j)
    for (int k = 0; k < a; ++k) m |= unsigned(rows[r * D + k] > thr[j * d + k]) << (j * a + k);
  mask[r] = m;
  key[r] = (static_cast<unsigned long long>(r / block_points) << 32) | m;
  position[r] = std::int32_t(r);
}

// Step 11's pre-filter: sorted point r (r >= P) against the P points of lowest sum, which are
// strong dominators on most data, a tile at a time from shared memory. flag[r] = 1 keeps it.
// Any dominator is sound evidence; the pruners themselves are kept (the passes judge them).
template <int D>
__global__ void __launch_bounds__(kThreads) prefilter_kernel(Points pts, const std::int32_t* id,
                                                             std::int64_t pruners,
                                                             unsigned char* flag) {
  constexpr int kTile = 4096 / D > 32 ? 4096 / D : 32;
  __shared__ __align__(16) float tile[kTile * D];
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float q[D];
  const auto load_point = [&](std::int64_t pos, float* out) {
    const float* src = pts.rows + std::int64_t(id[pos]) * pts.d;
    for (int k = 0; k < D; ++k) out[k] = k < pts.d ? src[k] : INFINITY;
  };
  if (r < pts.n) load_point(r, q);
  bool done = r >= pts.n || r < pruners, dominated = false;
  for (std::int64_t t0 = 0; t0 < pruners; t0 += kTile) {
    if (__syncthreads_and(done)) break;
    const int count = int(min(std::int64_t(kTile), pruners - t0));
    for (int e = threadIdx.x; e < count; e += blockDim.x) load_point(t0 + e, tile + e * D);
    __syncthreads();
    for (int j = 0; j < count && !__all_sync(kFullWarp, done); ++j) {
      float p[D];
      load_row(tile + j * D, p);
      dominated |= !done && dominates_padded(p, q);
      done |= dominated;
    }
  }
  if (r < pts.n) flag[r] = !dominated;
}

// Whether a slice of 32 skyline points (masks m, one per lane) can be skipped by this warp:
// some bit every one of them has is in no lane's mask.
__device__ __forceinline__ bool slice_skipped(unsigned m, unsigned lanes_or) {
  return (__reduce_and_sync(kFullWarp, m) & ~lanes_or) != 0;
}

// The union of `open` over each aligned group of `size` lanes (a power of two), in every lane.
__device__ __forceinline__ unsigned group_or(unsigned open, int size) {
  if (size == 32) return __reduce_or_sync(kFullWarp, open);
  for (int offset = 1; offset < size; offset *= 2)
    open |= __shfl_xor_sync(kFullWarp, open, offset);
  return open;
}

// Which of a slice's skyline points (mask m in its lane) may dominate a lane of some group: a
// point whose bits are not within a group's union dominates none of that group's lanes. One
// vote per slice thins the per-point loop when slices are rarely skipped whole (high d, where
// the lanes' cells differ and the union covers most of a slice's common bits).
__device__ __forceinline__ unsigned may_dominate(unsigned m, unsigned mine, int groups) {
  const int size = 32 / groups;
  bool may = false;
  for (int g = 0; g < groups; ++g) may |= (m & ~__shfl_sync(kFullWarp, mine, g * size)) == 0;
  return __ballot_sync(kFullWarp, may);
}

template <int D, bool kMasks>
__device__ __forceinline__ void test_slice(const Sorted& s, const float* rows, const unsigned* masks,
                                           std::int64_t t0, int count, const float (&q)[D],
                                           unsigned mq, std::int64_t r, std::int64_t tie_end,
                                           bool within, bool& dominated) {
  const int lane = threadIdx.x % 32;
  unsigned live = count >= 32 ? kFullWarp : (1u << count) - 1;
  unsigned m = ~0u;
  if (within) live &= __ballot_sync(kFullWarp, lane < count && s.alive[t0 + lane]);
  if constexpr (kMasks) {
    if (lane < count) m = masks[t0 + lane];
    const int groups = s.lane_groups;
    const unsigned mine = group_or(dominated ? 0 : mq, groups > 1 ? 32 / groups : 32);
    const unsigned lanes_or = groups > 1 ? __reduce_or_sync(kFullWarp, mine) : mine;
    if (slice_skipped(live >> lane & 1 ? m : ~0u, lanes_or)) return;
    if (groups > 0) live &= may_dominate(m, mine, groups);
  }
  while (live) {
    const int j = __ffs(live) - 1;
    live &= live - 1;
    if constexpr (kMasks) {
      const unsigned mp = __shfl_sync(kFullWarp, m, j);
      if (!__any_sync(kFullWarp, !dominated && (mp & ~mq) == 0)) continue;
    }
    float p[D];
    load_row(rows + (t0 + j) * D, p);
    const bool counts = !within || (t0 + j != r && t0 + j < tie_end);
    dominated |= counts && dominates_padded(p, q);
  }
}

// One lane's candidate: sorted position c0 + (its thread) in processing order, its row in
// registers, and whether it is dominated yet. scan() tests it against rows [begin, end), 32
// at a time, until every lane of the warp is dominated.
template <int D, bool kMasks>
struct Candidate {
  std::int64_t r;
  bool valid, dominated;
  float q[D];
  unsigned mask;

  __device__ Candidate(const Sorted& s, std::int64_t c0, std::int64_t len) {
    const std::int64_t c = c0 + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    valid = c < c0 + len;
    r = valid ? position_of(s, c) : 0;
    dominated = !valid || !s.alive[r];
    load_row(s.rows + r * D, q);
    mask = kMasks ? s.mask[r] : 0;
  }
  __device__ void scan(const Sorted& s, const float* rows, const unsigned* masks,
                       std::int64_t begin, std::int64_t end, std::int64_t tie_end, bool within) {
    for (std::int64_t t0 = begin; t0 < end; t0 += 32) {
      test_slice<D, kMasks>(s, rows, masks, t0, int(end - t0 < 32 ? end - t0 : 32), q, mask, r,
                            tie_end, within, dominated);
      if (__all_sync(kFullWarp, dominated)) break;
    }
  }
  __device__ void finish(const Sorted& s) const {
    if (valid && dominated) s.alive[r] = 0;
  }
};

// A: candidates [c0, c0 + len) against skyline points [y * slice, (y + 1) * slice).
template <int D, bool kMasks>
__global__ void __launch_bounds__(kThreads) against_skyline_kernel(Sorted s, std::int64_t c0,
                                                                   std::int64_t len, int count,
                                                                   int slice) {
  Candidate<D, kMasks> cand(s, c0, len);
  if (__all_sync(kFullWarp, cand.dominated)) return;
  const std::int64_t begin = std::int64_t(blockIdx.y) * slice;
  cand.scan(s, s.sky, s.sky_mask, begin, min(begin + slice, std::int64_t(count)), 0, false);
  cand.finish(s);
}

// The first sorted position after r whose sum is larger. Ties are rare: one look, then a
// gallop and a binary search.
__device__ inline std::int64_t tie_end_of(const Sorted& s, std::int64_t r) {
  const float k = s.key[r];
  std::int64_t last = r + 1;
  if (last >= s.n || s.key[last] != k) return last;
  std::int64_t hi = s.n;
  for (std::int64_t step = 1;; step *= 2) {
    const std::int64_t next = last + step;
    if (next >= s.n || s.key[next] != k) {
      hi = min(next, s.n);
      break;
    }
    last = next;
  }
  std::int64_t lo = last + 1;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (s.key[mid] == k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// B: survivors of block [c0, c0 + len) against the block's positions before them and ties.
template <int D, bool kMasks>
__global__ void __launch_bounds__(kThreads) within_block_kernel(Sorted s, std::int64_t c0,
                                                                std::int64_t len) {
  Candidate<D, kMasks> cand(s, c0, len);
  if (__all_sync(kFullWarp, cand.dominated)) return;
  const std::int64_t tie_end = cand.dominated ? 0 : tie_end_of(s, cand.r);
  const std::int64_t hi = __reduce_max_sync(kFullWarp, unsigned(tie_end));
  cand.scan(s, s.rows, s.mask, c0, hi, tie_end, true);
  cand.finish(s);
}

// C: the block's survivors join the skyline, a warp's together (one atomic per warp).
template <int D, bool kMasks>
__global__ void append_kernel(Sorted s, std::int64_t c0, std::int64_t len, std::int32_t* member) {
  const std::int64_t c = c0 + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const bool valid = c < c0 + len;
  const std::int64_t r = valid ? position_of(s, c) : 0;
  const bool keep = valid && s.alive[r];
  const unsigned votes = __ballot_sync(kFullWarp, keep);
  if (!votes) return;
  int base = 0;
  if (lane == 0) base = atomicAdd(s.sky_count, __popc(votes));
  base = __shfl_sync(kFullWarp, base, 0);
  if (!keep) return;
  const std::int64_t slot = base + __popc(votes & ((1u << lane) - 1));
  for (int k = 0; k < D; ++k) s.sky[slot * D + k] = s.rows[r * D + k];
  if constexpr (kMasks) s.sky_mask[slot] = s.mask[r];
  member[s.id[r]] = 1;
}

// Device memory a sort-filter step needs beyond the points: two copies of padded rows (sorted
// points, skyline), keys, ids and flags, and with masks the masks, keys and order.
inline double sort_filter_scratch(const SkylineProblem& p, bool masks) {
  const double n = double(p.n()), D = double(width_for(p.d()));
  return 8.0 * n * D + 17.0 * n + (masks ? 32.0 * n : 0.0) + (1 << 20);
}

inline ParamSpec block_points_param() {
  return {"block_points", "65536", "sorted points filtered per pass", ParamSpec::Kind::integer,
          32, 1 << 24};
}

inline ParamSpec lane_groups_param() {
  return {"lane_groups",
          "16",
          "groups of a warp's candidates whose cells each skyline point is checked against "
          "before it is compared (0: only whole 32-point slices are skipped)",
          ParamSpec::Kind::integer,
          0,
          32,
          {"0", "1", "2", "4", "8", "16", "32"}};
}

inline ParamSpec pruners_param() {
  return {"pruners", "1024", "lowest-sum points every point is tested against first",
          ParamSpec::Kind::integer, 1, 1 << 16};
}

// Everything is allocated here, outside the timed window; the run sorts, (step 11) drops what
// the pruners dominate and reads back how many points are left, then filters the blocks in
// turn, reading the skyline's size back after each to size the next grid.
template <int D, bool kMasks>
GpuSetup<Points> sort_filter_setup(const SkylineProblem& p, const Params& params,
                                   std::int64_t pruners) {
  const std::int64_t n = p.n(), block = params.integer("block_points");
  const int lane_groups = kMasks ? int(params.integer("lane_groups")) : 0;
  struct Buffers {
    DeviceBuffer<float> key, key_sorted, rows, sky, thr;
    DeviceBuffer<std::int32_t> id, id_sorted, count, position, order;
    DeviceBuffer<unsigned char> alive;
    DeviceBuffer<unsigned> mask, sky_mask;
    DeviceBuffer<unsigned long long> mkey, mkey_sorted;
    DeviceBuffer<char> temp;
    PinnedBuffer<std::int32_t> host_count{1};
    std::int64_t survivors = 0, passes = 0;  // of the last call
  };
  auto b = std::make_shared<Buffers>();
  const auto un = std::size_t(n);
  b->key = DeviceBuffer<float>(un), b->key_sorted = DeviceBuffer<float>(un);
  b->id = DeviceBuffer<std::int32_t>(un), b->id_sorted = DeviceBuffer<std::int32_t>(un);
  b->rows = DeviceBuffer<float>(un * D), b->sky = DeviceBuffer<float>(un * D);
  b->alive = DeviceBuffer<unsigned char>(un), b->count = DeviceBuffer<std::int32_t>(1);
  std::size_t temp = 0, temp2 = 0, temp3 = 0;
  LADDER_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp, b->key.get(), b->key_sorted.get(),
                                              b->id.get(), b->id_sorted.get(), int(n)));
  if constexpr (kMasks) {
    b->thr = DeviceBuffer<float>(std::size_t(p.d()) * 3);
    b->mask = DeviceBuffer<unsigned>(un), b->sky_mask = DeviceBuffer<unsigned>(un);
    b->mkey = DeviceBuffer<unsigned long long>(un), b->mkey_sorted = DeviceBuffer<unsigned long long>(un);
    b->position = DeviceBuffer<std::int32_t>(un), b->order = DeviceBuffer<std::int32_t>(un);
    LADDER_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp2, b->mkey.get(), b->mkey_sorted.get(),
                                                b->position.get(), b->order.get(), int(n)));
  }
  if (pruners > 0)
    LADDER_CUDA(cub::DeviceSelect::Flagged(nullptr, temp3, b->id_sorted.get(), b->alive.get(),
                                           b->id.get(), b->count.get(), int(n)));
  b->temp = DeviceBuffer<char>(std::max<std::size_t>({temp, temp2, temp3, 1}));
  const Sorted view{b->rows.get(),     b->key_sorted.get(), b->id_sorted.get(),
                    b->mask.get(),     b->order.get(),      b->sky.get(),
                    b->sky_mask.get(), b->alive.get(),      b->count.get(),
                    n,                 lane_groups};
  const int d = p.d();
  auto enqueue = [b, view, n, d, block, pruners](const Points& pts, cudaStream_t stream) {
    const auto grid = [](std::int64_t items) { return unsigned(ceil_div(items, kThreads)); };
    // One number from the device, for the host to size what follows.
    const auto read_count = [&] {
      LADDER_CUDA(cudaMemcpyAsync(b->host_count.get(), b->count.get(), sizeof(std::int32_t),
                                  cudaMemcpyDeviceToHost, stream));
      LADDER_CUDA(cudaStreamSynchronize(stream));
      return std::int64_t(b->host_count.get()[0]);
    };
    sum_keys_kernel<<<grid(n), kThreads, 0, stream>>>(pts, b->key.get(), b->id.get());
    LADDER_CUDA_LAUNCH("sum_keys_kernel");
    std::size_t temp = b->temp.size();
    LADDER_CUDA(cub::DeviceRadixSort::SortPairs(b->temp.get(), temp, b->key.get(),
                                                b->key_sorted.get(), b->id.get(),
                                                b->id_sorted.get(), int(n), 0,
                                                int(sizeof(float) * 8), stream));
    Sorted s = view;  // its n: the points that enter the passes
    if (pruners > 0 && n > pruners) {
      prefilter_kernel<D><<<grid(n), kThreads, 0, stream>>>(pts, b->id_sorted.get(), pruners,
                                                            b->alive.get());
      LADDER_CUDA_LAUNCH("prefilter_kernel");
      // Order-preserving compaction of ids and sums (into the unsorted buffers, then back).
      LADDER_CUDA(cub::DeviceSelect::Flagged(b->temp.get(), temp, b->id_sorted.get(),
                                             b->alive.get(), b->id.get(), b->count.get(), int(n),
                                             stream));
      LADDER_CUDA(cub::DeviceSelect::Flagged(b->temp.get(), temp, b->key_sorted.get(),
                                             b->alive.get(), b->key.get(), b->count.get(), int(n),
                                             stream));
      s.n = read_count();
      LADDER_CUDA(cudaMemcpyAsync(b->id_sorted.get(), b->id.get(), std::size_t(s.n) * 4,
                                  cudaMemcpyDeviceToDevice, stream));
      LADDER_CUDA(cudaMemcpyAsync(b->key_sorted.get(), b->key.get(), std::size_t(s.n) * 4,
                                  cudaMemcpyDeviceToDevice, stream));
    }
    const std::int64_t m = s.n;
    b->survivors = m, b->passes = ceil_div(m, block);
    gather_kernel<D>
        <<<grid(m * D), kThreads, 0, stream>>>(pts, m, b->id_sorted.get(), b->rows.get());
    LADDER_CUDA_LAUNCH("gather_kernel");
    if constexpr (kMasks) {
      thresholds_kernel<<<d, kThreads, 0, stream>>>(
          pts, std::max<std::int64_t>(1, n / kThresholdSample), b->thr.get());
      LADDER_CUDA_LAUNCH("thresholds_kernel");
      mask_kernel<D><<<grid(m), kThreads, 0, stream>>>(b->rows.get(), m, d, b->thr.get(), block,
                                                       b->mask.get(), b->mkey.get(),
                                                       b->position.get());
      LADDER_CUDA_LAUNCH("mask_kernel");
      LADDER_CUDA(cub::DeviceRadixSort::SortPairs(b->temp.get(), temp, b->mkey.get(),
                                                  b->mkey_sorted.get(), b->position.get(),
                                                  b->order.get(), int(m), 0,
                                                  int(sizeof(unsigned long long) * 8), stream));
    }
    LADDER_CUDA(cudaMemsetAsync(pts.member, 0, std::size_t(n) * sizeof(std::int32_t), stream));
    LADDER_CUDA(cudaMemsetAsync(b->alive.get(), 1, std::size_t(m), stream));
    LADDER_CUDA(cudaMemsetAsync(b->count.get(), 0, sizeof(std::int32_t), stream));
    std::int64_t count = 0;
    for (std::int64_t c0 = 0; c0 < m; c0 += block) {
      const std::int64_t len = std::min(block, m - c0);
      if (count > 0) {
        // Slices of at least 2048 skyline points, at most 65535 of them (the grid's y limit).
        const std::int64_t slice = std::max<std::int64_t>(2048, ceil_div(count, 65535));
        const dim3 g(grid(len), unsigned(ceil_div(count, slice)));
        against_skyline_kernel<D, kMasks>
            <<<g, kThreads, 0, stream>>>(s, c0, len, int(count), int(slice));
        LADDER_CUDA_LAUNCH("against_skyline_kernel");
      }
      within_block_kernel<D, kMasks><<<grid(len), kThreads, 0, stream>>>(s, c0, len);
      LADDER_CUDA_LAUNCH("within_block_kernel");
      append_kernel<D, kMasks><<<grid(len), kThreads, 0, stream>>>(s, c0, len, pts.member);
      LADDER_CUDA_LAUNCH("append_kernel");
      count = read_count();
    }
  };
  std::map<std::string, double> facts{{"width", double(D)}, {"block_points", double(block)}};
  if (kMasks) facts["lane_groups"] = double(lane_groups);
  if (pruners > 0) facts["pruners"] = double(pruners);
  // How many points entered the passes (step 11: those the pruners left) and how many passes.
  auto learned = [b, pruners] {
    std::map<std::string, double> out{{"passes", double(b->passes)}};
    if (pruners > 0) out["survivors"] = double(b->survivors);
    return out;
  };
  return GpuSetup<Points>{enqueue, facts, learned};
}

// A sort-filter step: step 9 without masks, step 10 with them, step 11 pre-filtered too.
template <bool kMasks, bool kPrefilter = false>
GpuStep sort_filter_step(GpuStep s) {
  static_assert(kMasks || !kPrefilter, "the pre-filtered step is the masked one");
  s.params = {block_points_param()};
  if (kMasks) s.params.push_back(lane_groups_param());
  if (kPrefilter) s.params.push_back(pruners_param());
  s.impl = [](const SkylineProblem& p, const Params& params, const DeviceCaps&) {
    GpuSetup<Points> out;
    const std::int64_t pruners = kPrefilter ? params.integer("pruners") : 0;
    with_width(p.d(), [&](auto width) {
      out = sort_filter_setup<decltype(width)::value, kMasks>(p, params, pruners);
    }, "sort_filter");
    return out;
  };
  s.scratch_bytes = [](const SkylineProblem& p, const Params&) {
    return sort_filter_scratch(p, kMasks);
  };
  return s;
}

}  // namespace ladder::skyline
