// The kernels of steps 13-15: the sub-warp register wavefront of steps 10-12
// (warp_wavefront.cuh: lane l of a group of G owns C columns and computes row t - l at step
// t, receiving the cell to its left and the query value from lane l - 1 by shuffles), with
// three changes aimed at the instruction issue limit.
//   - Two subjects per group. Each lane runs two independent dependency chains (every cell
//     waits for its left neighbour), and one query shuffle, one select and one loop step
//     serve twice the cells.
//   - The min of the three neighbours is one Hopper DPX instruction, `__vimin3_s32`, a
//     3-input integer min: DP cells are sums of squares, never negative, and non-negative
//     IEEE floats (and +inf) order exactly like their bit patterns read as integers. A cell
//     is then three instructions (sub, min3, FMA) instead of four, and bit-identical.
//   - A group can align its subjects against a stream of queries without draining the
//     wavefront between them. Between two queries the stream holds a separator row whose
//     query value is +inf: every cell of that row becomes +inf, which is exactly the row 0
//     border the next query needs above it, and lane 0's left wall is 0 there instead of
//     +inf, which becomes the next row's D[0][0]. So the state resets itself as the
//     separator travels along the wavefront, with no per-lane branch; the G - 1 fill and
//     drain steps are paid once per stream instead of once per query.
// dtw_stream_kernel: one launch covers Q queries (a stream of up to `chunk` queries per warp
// and unit; steps 13 and 15). When the
// queries are the subjects themselves (the distance matrix of a set against itself), only
// pairs (i, j) with j <= i are computed and each is written to both places: DTW with squared
// costs is symmetric, D(a, b) computes exactly the transposed cells of D(b, a).
// dtw_subject_stream_kernel (step 14, at the end): one query, streams of subjects.
#pragma once
#include <cmath>

#include "gpu_step.cuh"

namespace ladder::dtw {

// The set-ups of steps 13-15 (stream_wavefront.cu): lanes per group by the sub-warp rule
// (auto_lanes), the fewest cells per lane that cover n. stream_setup: the subjects in
// registers, `all_queries`: one launch for every query, streams of up to kStreamChunk
// queries, the triangle when the queries are the subjects (steps 13 and 15).
// subject_stream_setup: the query in registers, streams of subjects (step 14).
Setup stream_setup(const DtwProblem& p, bool all_queries, const DeviceCaps& d);
Setup subject_stream_setup(const DtwProblem& p, const DeviceCaps& d);
std::string stream_limit(const DtwProblem& p, const Params&, const DeviceCaps&);
constexpr int kStreamChunk = 16;

// One step of the query stream for lane 0: the query value of its row and its left wall.
// A query row is (q, +inf); the separator after each query is (+inf, 0).
__host__ __device__ inline float2 stream_row(float q) { return make_float2(q, INFINITY); }
__host__ __device__ inline float2 stream_separator() { return make_float2(INFINITY, 0.f); }
// Pairs readable past the end of the stream (the kernel loads ahead in blocks).
constexpr int kStreamPadding = 8;

// Q queries of n values -> Q x (n + 1) stream pairs and the padding.
inline std::vector<float2> query_stream(const std::vector<float>& queries, std::int64_t n) {
  std::vector<float2> out;
  out.reserve(queries.size() + queries.size() / std::max<std::int64_t>(n, 1) + kStreamPadding);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    out.push_back(stream_row(queries[i]));
    if ((i + 1) % n == 0) out.push_back(stream_separator());
  }
  out.resize(out.size() + kStreamPadding, stream_separator());
  return out;
}

struct StreamLaunch {
  const float2* stream;  // this launch's queries: Q x (n + 1) pairs, padded
  const float* series;   // entries x n
  float* dist;           // Q x entries
  std::int64_t queries;
  std::int64_t entries;
  int n;
  int band;
  int chunk;       // queries per unit; a multiple of the subjects per warp when symmetric
  bool symmetric;  // the queries are the subjects, in order
};

// The min of the three neighbours of a cell, all >= 0 or +inf (see above).
__device__ __forceinline__ float min3(float diag, float above, float left) {
  return __int_as_float(
      __vimin3_s32(__float_as_int(diag), __float_as_int(above), __float_as_int(left)));
}

// `c ? a : b` that the compiler keeps as a select: written in C++, picking register k by a
// run-time k turns the register array into an indexed local-memory array.
__device__ __forceinline__ float select(bool c, float a, float b) {
  float r;
  asm("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f32 %0, %1, %2, p; }"
      : "=f"(r)
      : "f"(a), "f"(b), "r"(int(c)));
  return r;
}

// One wavefront step of a lane's S chains: C cells of each chain's row, left to right.
// `left[i]` is the cell just left of the lane's columns in chain i's row (the wall for lane
// 0), `cost(i, k)` the difference whose square is cell k's cost; `row` and `col0` (the lane's
// first column) place the cells for the band. Cell k of every chain before cell k + 1 of
// any: S independent dependency chains side by side.
template <int C, int S, bool Banded, class Cost>
__device__ __forceinline__ void advance_rows(float (&prev)[S][C], float (&up_left)[S],
                                             float (&last)[S], const float (&left)[S],
                                             Cost cost, int row, int col0, int band) {
  float diag[S], run[S];
#pragma unroll
  for (int i = 0; i < S; ++i) {
    run[i] = left[i];
    diag[i] = up_left[i];
    up_left[i] = left[i];
  }
#pragma unroll
  for (int k = 0; k < C; ++k) {
#pragma unroll
    for (int i = 0; i < S; ++i) {
      const float d = cost(i, k);
      float cur = fmaf(d, d, min3(diag[i], prev[i][k], run[i]));
      if (Banded) {
        const int off = row - (col0 + k);
        if (off > band || -off > band) cur = INFINITY;
      }
      diag[i] = prev[i][k];
      prev[i][k] = cur;
      run[i] = cur;
    }
  }
#pragma unroll
  for (int i = 0; i < S; ++i) last[i] = prev[i][C - 1];
}

// cells[k] for a run-time k, by selects (see select()).
template <int C>
__device__ __forceinline__ float pick(const float (&cells)[C], int k) {
  float result = cells[0];
#pragma unroll
  for (int c = 1; c < C; ++c) result = select(c == k, cells[c], result);
  return result;
}

// The work list. Unit (c, b) is query chunk c against subject block b (kPerWarp subjects).
// Square: every chunk against every block. Triangle: chunk c against the blocks that hold
// a subject j <= its last query, i.e. the first m * (c + 1) blocks with m = chunk / kPerWarp;
// the chunks before c hold m * c * (c + 1) / 2 units.
struct WorkUnit {
  std::int64_t chunk;
  std::int64_t block;
};

__host__ __device__ inline std::int64_t stream_units(std::int64_t queries, std::int64_t entries,
                                                     int chunk, int per_warp, bool symmetric) {
  const std::int64_t chunks = ceil_div(queries, chunk);
  if (symmetric) return std::int64_t(chunk / per_warp) * chunks * (chunks + 1) / 2;
  return chunks * ceil_div(entries, per_warp);
}

__device__ inline WorkUnit triangle_unit(std::int64_t u, int m) {
  const std::int64_t v = u / m;
  auto before = [](std::int64_t c) { return c * (c + 1) / 2; };
  std::int64_t c = static_cast<std::int64_t>((sqrt(8.0 * double(v) + 1.0) - 1.0) / 2.0);
  while (before(c) > v) --c;  // the double square root may be off by one either way
  while (before(c + 1) <= v) ++c;
  return {c, u - m * before(c)};
}

// Two subjects per group while their cells fit in registers (C <= 16), else one.
__host__ __device__ constexpr int subjects_per_group(int cells_per_lane) {
  return cells_per_lane <= 16 ? 2 : 1;
}

template <int G, int C, bool Banded, int KQ = 2>
__global__ void __launch_bounds__(256, 2) dtw_stream_kernel(StreamLaunch a) {
  constexpr int S = subjects_per_group(C);
  constexpr int kPerWarp = 32 / G * S;  // subjects per warp and unit
  constexpr int kQ = KQ;                // stream pairs loaded per block of steps
  static_assert(2 * kQ <= kStreamPadding + 1, "stream reads may run past the padding");
  const int lane = threadIdx.x % G;
  const int n = a.n;
  const int owner = (n - 1) / C;  // the lane and register holding column n - 1
  const int owner_k = (n - 1) % C;
  const std::int64_t blocks = ceil_div(a.entries, kPerWarp);
  const std::int64_t unit = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (unit >= stream_units(a.queries, a.entries, a.chunk, kPerWarp, a.symmetric)) return;
  const WorkUnit w = a.symmetric ? triangle_unit(unit, a.chunk / kPerWarp)
                                 : WorkUnit{unit / blocks, unit % blocks};
  if (w.block >= blocks) return;  // the triangle's last chunk may reach past the subjects
  const std::int64_t e0 = w.block * kPerWarp + threadIdx.x % 32 / G * S;
  const std::int64_t q0 = w.chunk * a.chunk;
  const int count = static_cast<int>(a.queries - q0 < a.chunk ? a.queries - q0 : a.chunk);
  const float2* stream = a.stream + q0 * (n + 1);
  const int total = count * (n + 1) - 1;  // lane 0's steps: no separator after the last query

  float s[S][C], prev[S][C], up_left[S], last[S];
#pragma unroll
  for (int i = 0; i < S; ++i) {
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const int j = lane * C + k;
      s[i][k] = e0 + i < a.entries && j < n ? a.series[(e0 + i) * n + j] : 0.f;
      prev[i][k] = INFINITY;  // row 0: +inf right of D[0][0]
    }
    up_left[i] = lane == 0 ? 0.f : INFINITY;
    last[i] = INFINITY;
  }
  float q = 0.f;
  int row = -lane - 1;  // this lane's row in the current query (banded kernels only)

  auto step = [&](float2 in, bool update) {
    float from_left[S];
#pragma unroll
    for (int i = 0; i < S; ++i) from_left[i] = __shfl_up_sync(kFullWarp, last[i], 1, G);
    const float q_from_left = __shfl_up_sync(kFullWarp, q, 1, G);
    q = lane == 0 ? in.x : q_from_left;
    if (Banded) row = row == n ? 0 : row + 1;
    if (!update) return;
    float left[S];
#pragma unroll
    for (int i = 0; i < S; ++i) left[i] = lane == 0 ? in.y : from_left[i];
    advance_rows<C, S, Banded>(prev, up_left, last, left,
                               [&](int i, int k) { return q - s[i][k]; }, row, lane * C, a.band);
  };

  // After step `next_store`, lane `owner` holds D[n][n] of query `j` (its row n - 1 of that
  // query); the next step would overwrite it with the separator row.
  int next_store = n - 1 + owner;
  int stored = 0;  // queries of the chunk done
  auto store = [&] {
    const std::int64_t j = q0 + stored;
    if (lane == owner) {
#pragma unroll
      for (int i = 0; i < S; ++i) {
        const float result = pick(prev[i], owner_k);
        const std::int64_t e = e0 + i;
        if (e >= a.entries || (a.symmetric && e > j)) continue;
        a.dist[j * a.entries + e] = result;
        if (a.symmetric && e != j) a.dist[e * a.entries + j] = result;
      }
    }
    next_store += n + 1;
    ++stored;
  };
  // (In the drain of a short series the next store step can come round again: stop after
  // the chunk's last query.)
  auto checked_step = [&](int t, float2 in, bool update) {
    step(in, update);
    if (t == next_store && stored < count) store();
  };

  // Stream pairs come kQ at a time from one warp-uniform address, loaded a block ahead.
  float2 in_now[kQ], in_ahead[kQ];
#pragma unroll
  for (int k = 0; k < kQ; ++k) in_now[k] = stream[k];
  int t = 0;
  for (; t + kQ <= total; t += kQ) {
#pragma unroll
    for (int k = 0; k < kQ; ++k) in_ahead[k] = stream[t + kQ + k];
    if (t + kQ <= next_store) {  // no result falls in this block: the plain loop
#pragma unroll
      for (int k = 0; k < kQ; ++k) step(in_now[k], true);
    } else {
#pragma unroll
      for (int k = 0; k < kQ; ++k) checked_step(t + k, in_now[k], true);
    }
#pragma unroll
    for (int k = 0; k < kQ; ++k) in_now[k] = in_ahead[k];
  }
#pragma unroll
  for (int k = 0; k < kQ; ++k)
    if (t + k < total) checked_step(t + k, in_now[k], true);
  // Drain: lanes past the end of the stream keep their cells.
  for (t = total; t < total + G - 1; ++t) checked_step(t, stream_row(0.f), t - lane < total);
}

}  // namespace ladder::dtw

namespace ladder::dtw {

// The other way round (step 14): one query against many subjects. The query is the column
// series, held in the registers of every group of the warp; each of the warp's chains (S per
// group) streams its own run of `chunk` consecutive subjects as rows, separated the same way
// (a +inf row, lane 0's wall 0). With one query there is no query stream to amortise the
// fill and drain over; a stream of subjects does it instead. Rows come from global memory:
// lane 0 of each group loads the row values of its chains; subjects are contiguous, so a
// chain's rows are too, and a separator is a step that loads nothing.
struct SubjectStreamLaunch {
  const float* query;   // n values
  const float* series;  // entries x n
  float* dist;          // entries
  std::int64_t entries;
  int n;
  int band;
  int chunk;  // subjects per chain and unit
};

template <int G, int C, int S, bool Banded>
__global__ void __launch_bounds__(256, 2) dtw_subject_stream_kernel(SubjectStreamLaunch a) {
  constexpr int kChains = 32 / G * S;  // chains per warp
  constexpr int kQ = 4;                // row values loaded per block of steps
  const int lane = threadIdx.x % G;
  const int n = a.n;
  const int owner = (n - 1) / C;
  const int owner_k = (n - 1) % C;
  const std::int64_t unit = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::int64_t first = unit * kChains * a.chunk;
  if (first >= a.entries) return;
  const int chain0 = threadIdx.x % 32 / G * S;  // this group's first chain
  auto subject = [&](int i, int j) { return first + std::int64_t(chain0 + i) * a.chunk + j; };

  float cols[C], prev[S][C], up_left[S], last[S], v[S];
#pragma unroll
  for (int k = 0; k < C; ++k) cols[k] = lane * C + k < n ? a.query[lane * C + k] : 0.f;
#pragma unroll
  for (int i = 0; i < S; ++i) {
#pragma unroll
    for (int k = 0; k < C; ++k) prev[i][k] = INFINITY;
    up_left[i] = lane == 0 ? 0.f : INFINITY;
    last[i] = INFINITY;
    v[i] = 0.f;
  }
  int row = -lane - 1;  // banded kernels only

  // in[i]: chain i's row value and lane 0's wall for this step.
  auto step = [&](const float2 (&in)[S], bool update) {
    float from_left[S], v_from_left[S];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      from_left[i] = __shfl_up_sync(kFullWarp, last[i], 1, G);
      v_from_left[i] = __shfl_up_sync(kFullWarp, v[i], 1, G);
    }
    if (Banded) row = row == n ? 0 : row + 1;
#pragma unroll
    for (int i = 0; i < S; ++i) v[i] = lane == 0 ? in[i].x : v_from_left[i];
    if (!update) return;
    // advance_rows' loop written out, and pick()'s below: this kernel written through them
    // measured 2% slower (2.54 against 2.49 ms at 2^20 x 128, same H100); the other kernel
    // was no different.
    float diag[S], run[S];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      run[i] = lane == 0 ? in[i].y : from_left[i];
      diag[i] = up_left[i];
      up_left[i] = run[i];
    }
#pragma unroll
    for (int k = 0; k < C; ++k) {
#pragma unroll
      for (int i = 0; i < S; ++i) {
        const float d = v[i] - cols[k];
        float cur = fmaf(d, d, min3(diag[i], prev[i][k], run[i]));
        if (Banded) {
          const int off = row - (lane * C + k);
          if (off > a.band || -off > a.band) cur = INFINITY;
        }
        diag[i] = prev[i][k];
        prev[i][k] = cur;
        run[i] = cur;
      }
    }
#pragma unroll
    for (int i = 0; i < S; ++i) last[i] = prev[i][C - 1];
  };

  int t = 0;
  int next_store = n - 1 + owner;
  int stored = 0;
  auto checked_step = [&](const float2 (&in)[S], bool update) {
    step(in, update);
    if (t == next_store && stored < a.chunk) {
      if (lane == owner) {
#pragma unroll
        for (int i = 0; i < S; ++i) {
          float result = prev[i][0];
#pragma unroll
          for (int k = 1; k < C; ++k) result = select(k == owner_k, prev[i][k], result);
          const std::int64_t e = subject(i, stored);
          if (e < a.entries) a.dist[e] = result;
        }
      }
      next_store += n + 1;
      ++stored;
    }
    ++t;
  };

  for (int j = 0; j < a.chunk; ++j) {
    const float* rows[S];  // chain i's subject j (a valid series past the end: never stored)
#pragma unroll
    for (int i = 0; i < S; ++i) {
      const std::int64_t e = subject(i, j);
      rows[i] = a.series + (e < a.entries ? e : a.entries - 1) * n;
    }
    // Row values a block ahead: the next block's loads are in flight while this one runs.
    float ahead[kQ][S];
    auto load = [&](int r) {
#pragma unroll
      for (int k = 0; k < kQ; ++k)
#pragma unroll
        for (int i = 0; i < S; ++i) ahead[k][i] = r + k < n ? rows[i][r + k] : 0.f;
    };
    load(0);
    int r = 0;
    for (; r + kQ <= n; r += kQ) {
      float2 in[kQ][S];
#pragma unroll
      for (int k = 0; k < kQ; ++k)
#pragma unroll
        for (int i = 0; i < S; ++i) in[k][i] = stream_row(ahead[k][i]);
      if (r + 2 * kQ <= n) load(r + kQ);
      if (t + kQ <= next_store) {
#pragma unroll
        for (int k = 0; k < kQ; ++k) {
          step(in[k], true);
          ++t;
        }
      } else {
#pragma unroll
        for (int k = 0; k < kQ; ++k) checked_step(in[k], true);
      }
    }
    for (; r < n; ++r) {
      float2 in[S];
#pragma unroll
      for (int i = 0; i < S; ++i) in[i] = stream_row(rows[i][r]);
      checked_step(in, true);
    }
    if (j + 1 < a.chunk) {
      float2 sep[S];
#pragma unroll
      for (int i = 0; i < S; ++i) sep[i] = stream_separator();
      checked_step(sep, true);
    }
  }
  const int total = t;
  float2 idle[S];
#pragma unroll
  for (int i = 0; i < S; ++i) idle[i] = stream_row(0.f);
  while (t < total + G - 1) checked_step(idle, t - lane < total);
}

}  // namespace ladder::dtw
