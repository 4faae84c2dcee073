// The register-resident DTW kernel behind steps 10-12 (cuDTW++ style). A group of G lanes
// (a whole warp or a power-of-two part of one) aligns one subject (two with half2) against the
// query. Lane l owns C consecutive columns, 1 + l*C .. (l+1)*C, and keeps their DP cells and
// subject values in registers. Rows are processed as a wavefront across the lanes: at step t
// lane l computes row r = t - l, so it needs
//   - the cell just left of its columns in row r: lane l-1 computed it at step t-1,
//   - the cell diagonally up-left: what it received from lane l-1 the step before,
//   - the query value q[r]: lane l-1 used it at step t-1.
// Both travel by one warp shuffle each per step; nothing touches memory inside the loop
// except lane 0's read of the next query value. A series costs n + G - 1 steps of C cells.
#pragma once
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gpu_step.cuh"

namespace ladder::dtw {

// Arithmetic per value type: float (one series per group) or __half2 (two series per group,
// one in each half, so every instruction updates two cells).
template <class V>
struct Cells;

template <>
struct Cells<float> {
  static constexpr int kSeries = 1;
  __device__ static float inf() { return INFINITY; }
  __device__ static float zero() { return 0.f; }
  __device__ static float cell(float diag, float above, float left, float q, float s) {
    return dtw_cell(diag, above, left, q, s);
  }
  // Subject value for column j of the group's series (or series pair) starting at `e`.
  __device__ static float subject(const float* series, std::int64_t e, std::int64_t entries,
                                  int n, int j, float) {
    return series[e * n + j];
  }
  __device__ static float query(float q, float) { return q; }
  __device__ static void store(float* dist, std::int64_t e, std::int64_t entries, float v, float) {
    dist[e] = v;
  }
};

template <>
struct Cells<__half2> {
  static constexpr int kSeries = 2;
  __device__ static __half2 inf() {
    const __half h = __ushort_as_half(0x7C00);
    return __halves2half2(h, h);
  }
  __device__ static __half2 zero() { return __float2half2_rn(0.f); }
  __device__ static __half2 cell(__half2 diag, __half2 above, __half2 left, __half2 q,
                                 __half2 s) {
    const __half2 r = __hsub2(q, s);
    return __hfma2(r, r, __hmin2(left, __hmin2(diag, above)));  // as dtw_cell
  }
  // Inputs are scaled by a power of two chosen on the host so that no path can overflow
  // fp16's range; distances scale by its square and are scaled back on output.
  __device__ static __half2 subject(const float* series, std::int64_t e, std::int64_t entries,
                                    int n, int j, float scale) {
    const float a = series[e * n + j];
    const float b = e + 1 < entries ? series[(e + 1) * n + j] : a;
    return __floats2half2_rn(a * scale, b * scale);
  }
  __device__ static __half2 query(float q, float scale) { return __float2half2_rn(q * scale); }
  __device__ static void store(float* dist, std::int64_t e, std::int64_t entries, __half2 v,
                               float scale) {
    const float unscale = 1.f / (scale * scale);
    dist[e] = __low2float(v) * unscale;
    if (e + 1 < entries) dist[e + 1] = __high2float(v) * unscale;
  }
};

// Two halves' bits in one word, for step 16: DTW cells are non-negative (sums of squares, or
// +inf), and non-negative halves order as their bit patterns do as unsigned integers, so
// Hopper's 16-bit DPX minimum (`__vimin3_u16x2`) takes the min of three half2 cells in one
// instruction where __hmin2 takes two.
struct Half2Bits {
  unsigned bits;
};

__device__ __forceinline__ __half2 as_half2(Half2Bits v) {
  __half2 h;
  memcpy(&h, &v.bits, sizeof h);  // a register move: no conversion
  return h;
}
__device__ __forceinline__ Half2Bits as_bits(__half2 h) {
  Half2Bits v;
  memcpy(&v.bits, &h, sizeof h);
  return v;
}

template <>
struct Cells<Half2Bits> {
  static constexpr int kSeries = 2;
  __device__ static Half2Bits inf() { return {0x7C007C00u}; }
  __device__ static Half2Bits zero() { return {0u}; }
  __device__ static Half2Bits cell(Half2Bits diag, Half2Bits above, Half2Bits left, Half2Bits q,
                                   Half2Bits s) {
    const __half2 r = __hsub2(as_half2(q), as_half2(s));
    const Half2Bits m{__vimin3_u16x2(left.bits, diag.bits, above.bits)};
    return as_bits(__hfma2(r, r, as_half2(m)));  // as dtw_cell
  }
  __device__ static Half2Bits subject(const float* series, std::int64_t e, std::int64_t entries,
                                      int n, int j, float scale) {
    return as_bits(Cells<__half2>::subject(series, e, entries, n, j, scale));
  }
  __device__ static Half2Bits query(float q, float scale) { return as_bits(Cells<__half2>::query(q, scale)); }
  __device__ static void store(float* dist, std::int64_t e, std::int64_t entries, Half2Bits v,
                               float scale) {
    Cells<__half2>::store(dist, e, entries, as_half2(v), scale);
  }
};

// From the lane one below within each group of `width` lanes (lane 0 gets its own value).
template <class V>
__device__ V shuffle_up(V v, int width) {
  return __shfl_up_sync(kFullWarp, v, 1, width);
}
template <>
__device__ inline Half2Bits shuffle_up(Half2Bits v, int width) {
  return {__shfl_up_sync(kFullWarp, v.bits, 1, width)};
}

// Blocks of 256 threads that must fit an SM at once. The half2 kernels with at most 16 cells a
// lane are held to 64 registers, four blocks: 8 warps per scheduler instead of 6 hide more of
// the cells' dependent chain (steps 12 and 16 2-4% faster at n = 128-512 on an H100). The FP32
// kernels stay unbounded: held to 64 they spill and step 11 loses 5-8%.
template <class V, int C>
constexpr int kWavefrontBlocks = Cells<V>::kSeries == 2 && C <= 16 ? 4 : 1;

template <class V, int G, int C, bool Banded>
__global__ void __launch_bounds__(256, kWavefrontBlocks<V, C>)
    dtw_warp_wavefront_kernel(const float* __restrict__ query, const float* __restrict__ series,
                              float* __restrict__ dist, std::int64_t entries, int n, int band,
                              float scale) {
  using K = Cells<V>;
  constexpr int kQ = C <= 8 ? 8 : 4;  // query values per load
  const int lane = threadIdx.x % G;
  // The half2 kernels take the query scaled and converted once per block, from shared memory:
  // converting it per series group cost three instructions a step (scale, convert, pack), 5%
  // of the step's work at 16 cells per lane. It is zero past n, where reads may run.
  constexpr bool kHalfQuery = K::kSeries == 2;
  __shared__ __align__(16) V q_half[kHalfQuery ? G * C + 2 * kQ : 1];
  if constexpr (kHalfQuery) {
    static_assert(sizeof(V) == 4 && kQ % 4 == 0, "query loads are 16 bytes");
    for (int i = threadIdx.x; i < G * C + 2 * kQ; i += blockDim.x)
      q_half[i] = K::query(i < n ? query[i] : 0.f, scale);
    __syncthreads();
  }
  // Every group of a warp runs the same number of series iterations (a group past the end
  // computes on zeros and stores nothing), so shuffles may name the whole warp: a constant
  // full mask compiles to a plain SHFL, a computed one adds convergence checks to each step.
  constexpr int kPerWarp = 32 / G * K::kSeries;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / 32;

  for (std::int64_t base = warp * kPerWarp; base < entries; base += warps * kPerWarp) {
    const std::int64_t e = base + threadIdx.x % 32 / G * K::kSeries;
    const bool valid = e < entries;
    V s[C], prev[C];
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const int j = lane * C + k;  // 0-based column of this cell
      s[k] = valid && j < n ? K::subject(series, e, entries, n, j, scale) : K::zero();
      prev[k] = K::inf();  // row 0: +inf right of D[0][0]
    }
    V up_left = lane == 0 ? K::zero() : K::inf();  // D[r][lane*C] for the coming row r + 1
    V last = K::inf();                              // this lane's rightmost cell, last row
    V q = K::zero();
    // One wavefront step: lane l computes its C cells of row r = t - l; lane 0 takes the
    // query value q_t (converted) of its new row.
    auto step = [&](int t, V q_t, bool update) {
      const V from_left = shuffle_up(last, G);
      const V q_from_left = shuffle_up(q, G);
      // Lane 0 starts a new row: column 0 is a wall of +inf below D[0][0]. Selects rather
      // than a branch keep the group converged.
      const V left = lane == 0 ? K::inf() : from_left;
      q = lane == 0 ? q_t : q_from_left;
      if (!update) return;
      const int r = t - lane;
      V diag = up_left;
      up_left = left;
      V run = left;
#pragma unroll
      for (int k = 0; k < C; ++k) {
        V cur = K::cell(diag, prev[k], run, q, s[k]);
        if (Banded) {
          const int off = r - (lane * C + k);  // (i - j) with i = r + 1, j = lane*C + k + 1
          if (off > band || -off > band) cur = K::inf();
        }
        diag = prev[k];
        prev[k] = cur;
        run = cur;
      }
      last = prev[C - 1];
    };
    // Query values come kQ at a time from one warp-uniform address, loaded a block ahead, so
    // a step spends no instructions on addressing. The query buffer is padded (see
    // kQueryPadding), so reading up to kQ values past its end is safe; they are never used.
    static_assert(kQ <= kQueryPadding, "query reads may run past the padding");
    auto load_query = [&](V (&dst)[kQ], int t) {
      if constexpr (kHalfQuery) {
#pragma unroll
        for (int k = 0; k < kQ; k += 4) {
          const uint4 w = *reinterpret_cast<const uint4*>(q_half + t + k);
          memcpy(dst + k, &w, sizeof w);
        }
      } else {
#pragma unroll
        for (int k = 0; k < kQ; ++k) dst[k] = K::query(query[t + k], scale);
      }
    };
    V q_now[kQ], q_ahead[kQ];
    load_query(q_now, 0);
    // Steps 0..n-1 need no test: a lane that has not reached row 0 yet (r < 0) sees only
    // +inf inputs and keeps computing +inf, exactly the row-0 state it must start from.
    // Unrolling by whole blocks also lets the compiler alternate registers instead of
    // copying every new cell into place.
    int t = 0;
    for (; t + kQ <= n; t += kQ) {
      load_query(q_ahead, t + kQ);
#pragma unroll
      for (int k = 0; k < kQ; ++k) step(t + k, q_now[k], true);
#pragma unroll
      for (int k = 0; k < kQ; ++k) q_now[k] = q_ahead[k];
    }
#pragma unroll
    for (int k = 0; k < kQ; ++k)
      if (t + k < n) step(t + k, q_now[k], true);
    t = n;
    // The last G - 1 steps drain the wavefront: lanes past row n - 1 must keep their cells.
    for (; t < n + G - 1; ++t) step(t, K::zero(), t - lane < n);
    // D[n][n] sits in column n - 1 (0-based): lane (n-1)/C, register (n-1)%C.
    if (valid && lane == (n - 1) / C) {
      V result = prev[0];
#pragma unroll
      for (int k = 1; k < C; ++k)
        if (k == (n - 1) % C) result = prev[k];
      K::store(dist, e, entries, result, scale);
    }
  }
}

constexpr int kWarpBlock = 256;
using Lanes = CompiledSet<4, 8, 16, 32>;         // G: lanes per series
using CellsPerLane = CompiledSet<4, 8, 16, 32>;  // C: a point runs with the smallest G * C >= n

template <class V, int G, int C, bool Banded>
std::function<void(const DeviceData&, cudaStream_t)> enqueue_warp_wavefront(float scale) {
  return [scale](const DeviceData& d, cudaStream_t stream) {
    const std::int64_t groups = ceil_div(d.entries, Cells<V>::kSeries);
    const std::int64_t blocks = std::min<std::int64_t>(ceil_div(groups * G, kWarpBlock), 1 << 30);
    dtw_warp_wavefront_kernel<V, G, C, Banded><<<unsigned(blocks), kWarpBlock, 0, stream>>>(
            d.query, d.series, d.dist, d.entries, static_cast<int>(d.n), d.args.band, scale);
    LADDER_CUDA_LAUNCH("dtw_warp_wavefront_kernel");
  };
}

// The kernel instantiation for this point: `lanes` lanes per series, the fewest cells per
// lane that cover n, the banded kernel only when the point has a band (and the step takes
// one: steps without band support instantiate only the unbanded kernels).
template <class V, bool WithBand>
Setup warp_wavefront_setup(const DtwProblem& p, int lanes, float scale) {
  Setup out;
  Lanes::exactly(lanes, [&](auto g) {
    constexpr int G = decltype(g)::value;
    CellsPerLane::first([&](int c) { return p.n() <= std::int64_t(G) * c; }, [&](auto c) {
      constexpr int C = decltype(c)::value;
      if constexpr (WithBand) {
        if (p.banded()) return void(out.enqueue = enqueue_warp_wavefront<V, G, C, true>(scale));
      }
      out.enqueue = enqueue_warp_wavefront<V, G, C, false>(scale);
    }, "warp wavefront");
  }, "warp wavefront");
  return out;
}

// The half-precision steps scale their inputs by the largest power of two s with
// 2n * (range * s)^2 <= 2^15, so that no warping path (at most 2n - 1 cells, each costing at
// most range^2 before scaling) can exceed fp16's range (65504); distances scale by s^2, which
// is undone exactly on output.
inline float fp16_scale(std::int64_t n, float range) {
  if (!(range > 0)) return 1.f;
  const double limit = std::sqrt(32768.0 / (2.0 * n)) / range;
  return static_cast<float>(std::exp2(std::floor(std::log2(limit))));
}

// The half2 kernel (V: __half2, or Half2Bits for the DPX minimum) for this point, its inputs
// scaled by fp16_scale of the set's range (queries are series of the same set).
template <class V>
Setup half_setup(const DtwProblem& p, int lanes) {
  const auto [lo, hi] = std::minmax_element(p.data.values.begin(), p.data.values.end());
  return warp_wavefront_setup<V, false>(p, lanes, fp16_scale(p.n(), *hi - *lo));
}

// Lanes per series for the sub-warp steps. "auto": the fewest (at least 4) that keep
// C <= 16 cells per lane.
inline int auto_lanes(std::int64_t n) {
  int g = 4;
  while (g < 32 && g * 16 < n) g *= 2;
  return g;
}

inline int lanes_for(std::int64_t n, const Params& params) {
  const std::string v = params.text("lanes");
  return v == "auto" ? auto_lanes(n) : std::stoi(v);
}

inline ParamSpec lanes_param() {
  std::vector<std::string> choices = Lanes::choices();
  choices.insert(choices.begin(), "auto");
  return {"lanes", "auto", "lanes per series: auto (C <= 16 cells per lane), " + Lanes::text(),
          ParamSpec::Kind::text, 0, 0, choices};
}

inline std::string warp_length_limit(std::int64_t n, int lanes) {
  if (n <= std::int64_t(lanes) * CellsPerLane::largest()) return "";
  return "series length " + std::to_string(n) + " exceeds " + std::to_string(lanes) +
         " lanes x " + std::to_string(CellsPerLane::largest()) + " cells per lane";
}

// The half-precision steps take no band, and a series must fit the lanes' registers.
inline std::string half_limit(const DtwProblem& p, const Params& params, const DeviceCaps& d) {
  const std::string why = no_band(p, params, d);
  return why.empty() ? warp_length_limit(p.n(), lanes_for(p.n(), params)) : why;
}

}  // namespace ladder::dtw
