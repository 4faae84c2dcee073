// The seed's parallel nested loop, which steps 4-7 (naive, APC, DWE, ALR) instantiate: a
// thread per point, a tile of other points in shared memory, every tile of the set in turn;
// a block stops once all its points are dominated. Each step is the loop at its best measured
// form on Hopper, and differs from the one before it only by the seed's own change:
//   d is compiled in (D, the first compiled width >= d; attributes past d are +inf on both
//   sides, where no test changes), the thread's point lives in registers, and a tile point's
//   row is read whole by every lane at once (a broadcast: one address, no bank to conflict);
//   Load::point(pts, i, p): point i's attributes from the row-major set, point by point
//     (naive: a warp's loads are d floats apart), or from the attribute-major copy, attribute
//     by attribute (APC: a warp reads 32 consecutive floats);
//   Test::dominated(tile, count, stride, own): the loop with an early exit at the first worse
//     attribute and a break at the first dominating point (the seed's Figure 7: naive, APC),
//     or branch-free over every attribute and every tile point (Figure 8: DWE, ALR);
//   the row stride: D, or for ALR the padded stride at which a warp's row stores hit
//     different banks (stores are the only shared accesses left that can conflict).
// Steps 12-15 are the same four steps in the seed's own form (Form::seed), which these steps
// had until they were rewritten: d a run-time value, and the block's own points in shared
// memory beside the tile, each thread's row read attribute by attribute at every pair, as the
// seed's code does. There the lanes of a warp read their own rows at the same attribute, d
// floats apart, and that is where the bank conflicts the seed's DWE and ALR are about arise.
// At 10^6 anticorrelated points, d = 8, on an H100, naive took 1,943 ms and ALR 3,628 ms in
// that form, and 1,209 ms in this Figure 8 form (scripts/skyline_branch_free_rewrites.cu).
#pragma once
#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "../../harness/compiled_set.hpp"
#include "../../harness/shared_memory.cuh"
#include "padded.cuh"

namespace ladder::skyline {

// The widths the nested-loop steps are compiled for: every d up to 16, then padded widths.
using LoopWidths = CompiledSet<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 24, 32, 48, 64>;

// Point by point from the row-major set: thread t reads its point's d consecutive floats.
struct LoadRows {
  static __device__ __forceinline__ float attribute(const Points& pts, std::int64_t i, int k) {
    return pts.rows[i * pts.d + k];
  }
  template <int D>
  static __device__ __forceinline__ void point(const Points& pts, std::int64_t i, float (&p)[D]) {
#pragma unroll
    for (int k = 0; k < D; ++k) p[k] = i < pts.n && k < pts.d ? attribute(pts, i, k) : INFINITY;
  }
};

// Attribute by attribute from the attribute-major copy: a warp reads 32 consecutive floats.
struct LoadColumns {
  static __device__ __forceinline__ float attribute(const Points& pts, std::int64_t i, int k) {
    return pts.cols[k * pts.n + i];
  }
  template <int D>
  static __device__ __forceinline__ void point(const Points& pts, std::int64_t i, float (&p)[D]) {
    load_column_point(pts, i, p);
  }
};

// The seed's form of a copy: point i's d attributes (a run-time d) into a shared row, one by
// one in the Load's order; nothing past the end of the set.
template <class Load>
__device__ __forceinline__ void copy_row(const Points& pts, std::int64_t i, float* row) {
  if (i < pts.n)
    for (int k = 0; k < pts.d; ++k) row[k] = Load::attribute(pts, i, k);
}

// A row of D floats into shared memory: float4 (or float2) stores when D allows, as load_row
// reads it back.
template <int D>
__device__ __forceinline__ void store_row(float* dst, const float (&p)[D]) {
  if constexpr (D % 4 == 0) {
#pragma unroll
    for (int k = 0; k < D; k += 4)
      reinterpret_cast<float4*>(dst)[k / 4] = make_float4(p[k], p[k + 1], p[k + 2], p[k + 3]);
  } else if constexpr (D % 2 == 0) {
#pragma unroll
    for (int k = 0; k < D; k += 2) reinterpret_cast<float2*>(dst)[k / 2] = make_float2(p[k], p[k + 1]);
  } else {
#pragma unroll
    for (int k = 0; k < D; ++k) dst[k] = p[k];
  }
}

// Figure 7: a point is compared attribute by attribute until one is worse, and the tile is
// left at the first point that dominates.
struct TestWithBreak {
  template <int D>
  static __device__ __forceinline__ bool dominated(const float* tile, int count, int stride, const float (&own)[D]) {
    for (int j = 0; j < count; ++j) {
      float t[D];
      load_row(tile + j * stride, t);
      bool better = false, worse = false;
#pragma unroll
      for (int k = 0; k < D && !worse; ++k) {
        worse = t[k] > own[k];
        better |= t[k] < own[k];
      }
      if (!worse && better) return true;
    }
    return false;
  }
  // The seed's form: the thread's own row in shared memory, d a run-time value.
  static __device__ __forceinline__ bool dominated(const float* tile, int count, int stride,
                                                   const float* own, int d) {
    for (int j = 0; j < count; ++j)
      if (dominates(tile + j * stride, own, d)) return true;
    return false;
  }
};

// Figure 8 over the whole tile: "not worse anywhere" and not "equal everywhere", as ands of
// per-attribute bits; every thread runs the same instructions.
struct TestBranchFree {
  template <int D>
  static __device__ __forceinline__ bool dominated(const float* tile, int count, int stride, const float (&own)[D]) {
    int any = 0;
#pragma unroll 2
    for (int j = 0; j < count; ++j) {
      float t[D];
      load_row(tile + j * stride, t);
      int not_worse = 1, equal = 1;
#pragma unroll
      for (int k = 0; k < D; ++k) {
        not_worse &= int(t[k] <= own[k]);
        equal &= int(t[k] == own[k]);
      }
      any |= not_worse & (equal ^ 1);
    }
    return any != 0;
  }
  // The seed's form: the thread's own row in shared memory, d a run-time value.
  static __device__ __forceinline__ bool dominated(const float* tile, int count, int stride,
                                                   const float* own, int d) {
    int any = 0;
    for (int j = 0; j < count; ++j) any |= dominates_branch_free(tile + j * stride, own, d);
    return any != 0;
  }
};

template <int D, class Load, class Test>
__global__ void nested_loop_kernel(Points pts, int stride) {
  extern __shared__ float4 smem4[];  // float4: rows of 4k floats are read and written as float4
  float* tile = reinterpret_cast<float*>(smem4);
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float own[D];
  Load::point(pts, i, own);
  bool alive = i < pts.n;
  for (std::int64_t base = 0; base < pts.n; base += blockDim.x) {
    __syncthreads();  // the previous tile is no longer read
    {
      float p[D];
      Load::point(pts, base + threadIdx.x, p);  // +inf past the end of the set
      store_row(tile + threadIdx.x * stride, p);
    }
    __syncthreads();
    const int count = pts.n - base < blockDim.x ? int(pts.n - base) : int(blockDim.x);
    // A dominated thread sits the tile out (a warp whose threads all are skips it whole).
    if (alive) alive = !Test::dominated(tile, count, stride, own);
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

// The seed's form of the loop: the block's own points in shared memory (rows of `stride`
// floats) and a tile after them; every pair reads the thread's own row from shared memory.
template <class Load, class Test>
__global__ void seed_nested_loop_kernel(Points pts, int stride) {
  extern __shared__ float smem[];
  float* own = smem + threadIdx.x * stride;
  float* tile = smem + blockDim.x * stride;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  copy_row<Load>(pts, i, own);  // read by this thread alone
  bool alive = i < pts.n;
  for (std::int64_t base = 0; base < pts.n; base += blockDim.x) {
    __syncthreads();  // the previous tile is no longer read
    copy_row<Load>(pts, base + threadIdx.x, tile + threadIdx.x * stride);
    __syncthreads();
    const int count = pts.n - base < blockDim.x ? int(pts.n - base) : int(blockDim.x);
    if (alive) alive = !Test::dominated(tile, count, stride, own, pts.d);
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

inline ParamSpec threads_param() {
  return {"threads", "256", "threads per block (points per shared-memory tile)",
          ParamSpec::Kind::integer, 32, 1024};
}

// The words a store of D floats moves at once (float4, float2 or one).
constexpr int store_words(int D) { return D % 4 == 0 ? 4 : D % 2 == 0 ? 2 : 1; }

// ALR's padding: a warp's row stores go in phases of 32 / words lanes, lane t at word
// stride * t; they conflict when two lanes of a phase meet in a bank. Only rows of 8k floats
// do (stride 8: lanes 0 and 4 of a float4 phase share banks); 4 more floats, an odd number of
// float4s, spread them over all 32 banks.
constexpr int padded_stride(int D) { return D % 8 == 0 ? D + 4 : D; }

// How many lanes of one store phase meet in the busiest bank: the conflicts ALR's padding
// removes.
inline int store_conflict_ways(int D, int stride) {
  const int words = store_words(D), lanes = 32 / words;
  int most = 1;
  for (int bank = 0; bank < 32; ++bank) {
    int hits = 0;
    for (int t = 0; t < lanes; ++t)
      for (int w = 0; w < words; ++w)
        if ((stride * t + w) % 32 == bank) ++hits;
    most = std::max(most, hits);
  }
  return most;
}

template <int D>
int loop_stride(bool pad) { return pad ? padded_stride(D) : D; }

// The seed's ALR: one padding float after the last attribute when d is even, so that rows
// start an odd number of words apart.
constexpr int seed_stride(int d, bool pad) { return pad && d % 2 == 0 ? d + 1 : d; }

// How many lanes of a warp meet in one bank when each reads (or writes) attribute k of its own
// row, rows `stride` floats apart: the 32 banks repeat every 32 words, so gcd(stride, 32)
// (d = 8: 8 lanes, d = 16: 16; the seed's 16 banks per half-warp gave 8 and 16 too).
inline int bank_conflict_ways(int stride) { return std::gcd(stride, 32); }

// Ladder's form of the loop (Form::ladder), or the seed's own (Form::seed, steps 12-15).
enum class Form { ladder, seed };

// One instantiation of the loop as a step sets it up at a point: the kernel, its row stride,
// its shared memory per block and the facts the seed's argument rests on.
struct LoopKernel {
  void (*kernel)(Points, int) = nullptr;
  int stride = 0;
  std::size_t smem = 0;
  std::map<std::string, double> facts;
};

// Ladder's form: d compiled in, a tile of rows; the facts are the compiled width, the row
// stride and how many lanes' row stores meet in one bank.
template <class Load, class Test>
LoopKernel ladder_loop(int d, int threads, bool pad, const std::string& who) {
  LoopKernel out;
  with_width<LoopWidths>(d, [&](auto width) {
    constexpr int D = decltype(width)::value;
    out.kernel = nested_loop_kernel<D, Load, Test>;
    out.stride = loop_stride<D>(pad);
    out.smem = std::size_t(threads) * out.stride * sizeof(float);
    out.facts = {{"width", double(D)},
                 {"row_stride", double(out.stride)},
                 {"store_conflict_ways", double(store_conflict_ways(D, out.stride))}};
  }, who);
  return out;
}

// The seed's form: one kernel for every d, the block's rows and a tile; the facts are the row
// stride and how many lanes meet in one bank reading their own rows.
template <class Load, class Test>
LoopKernel seed_loop(int d, int threads, bool pad) {
  LoopKernel out;
  out.kernel = seed_nested_loop_kernel<Load, Test>;
  out.stride = seed_stride(d, pad);
  out.smem = 2 * std::size_t(threads) * out.stride * sizeof(float);
  out.facts = {{"row_stride", double(out.stride)},
               {"bank_conflict_ways", double(bank_conflict_ways(out.stride))}};
  return out;
}

template <Form F, class Load, class Test>
LoopKernel loop_kernel(int d, int threads, bool pad, const std::string& who) {
  if constexpr (F == Form::seed) return seed_loop<Load, Test>(d, threads, pad);
  else return ladder_loop<Load, Test>(d, threads, pad, who);
}

// A nested-loop step: its set-up and its limits (the shared memory of its rows, and the
// threads the kernel's registers allow at this d).
template <class Load, class Test, Form F = Form::ladder>
GpuStep nested_loop_step(GpuStep s, bool pad) {
  s.params = {threads_param()};
  s.impl = [pad, name = s.name](const SkylineProblem& p, const Params& params, const DeviceCaps&) {
    const int threads = int(params.integer("threads"));
    LoopKernel loop = loop_kernel<F, Load, Test>(p.d(), threads, pad, name);
    allow_shared_memory(loop.kernel, loop.smem);
    const auto blocks = ceil_div(p.n(), threads);
    GpuSetup<Points> out;
    out.enqueue = [=](const Points& pts, cudaStream_t stream) {
      loop.kernel<<<unsigned(blocks), threads, loop.smem, stream>>>(pts, loop.stride);
      if constexpr (F == Form::seed) LADDER_CUDA_LAUNCH("seed_nested_loop_kernel");
      else LADDER_CUDA_LAUNCH("nested_loop_kernel");
    };
    out.facts = loop.facts;
    out.facts["shared_bytes_per_block"] = double(loop.smem);
    return out;
  };
  s.limit = [pad, name = s.name](const SkylineProblem& p, const Params& params, const DeviceCaps& caps) {
    const int threads = int(params.integer("threads"));
    const LoopKernel loop = loop_kernel<F, Load, Test>(p.d(), threads, pad, name);
    const char* rows = F == Form::seed ? "the block's points and a tile of points" : "a tile of points";
    std::string why = shared_memory_reason(loop.smem, rows, caps);
    if (!why.empty() || !caps.present) return why;
    cudaFuncAttributes attr{};
    LADDER_CUDA(cudaFuncGetAttributes(&attr, loop.kernel));
    if (threads > attr.maxThreadsPerBlock)
      why = "at d = " + std::to_string(p.d()) + " the kernel's " + std::to_string(attr.numRegs) +
            " registers a thread allow at most " + std::to_string(attr.maxThreadsPerBlock) +
            " threads per block (threads = " + std::to_string(threads) + ")";
    return why;
  };
  return s;
}

}  // namespace ladder::skyline
