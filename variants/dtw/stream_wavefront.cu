// The launches of the stream wavefront kernels (steps 13-15), compiled once for all three.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "stream_wavefront.cuh"
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

template <int G, int C, bool Banded>
std::function<void(const DeviceData&, cudaStream_t)> enqueue_stream(
    std::shared_ptr<DeviceBuffer<float2>> queries, int chunk, bool symmetric) {
  constexpr int kPerWarp = 32 / G * subjects_per_group(C);
  static_assert(kStreamChunk % kPerWarp == 0, "the triangle's chunks must hold whole blocks");
  return [queries, chunk, symmetric](const DeviceData& d, cudaStream_t stream) {
    const int n = static_cast<int>(d.n);
    const StreamLaunch a{queries->get() + d.first_query * (n + 1),
                         d.series,
                         d.dist,
                         d.queries,
                         d.entries,
                         n,
                         d.args.band,
                         chunk,
                         symmetric};
    const std::int64_t units = stream_units(a.queries, a.entries, a.chunk, kPerWarp, symmetric);
    const std::int64_t blocks = ceil_div(units, kWarpBlock / 32);
    if (blocks > 0x7fffffff) throw std::logic_error("dtw_stream_kernel: grid too large");
    dtw_stream_kernel<G, C, Banded><<<static_cast<unsigned>(blocks), kWarpBlock, 0, stream>>>(a);
    LADDER_CUDA_LAUNCH("dtw_stream_kernel");
  };
}

// Calls f(G, C) as compile-time constants: auto_lanes(n) lanes, the fewest cells per lane
// that cover n. Only these seven shapes are compiled.
template <class F>
void stream_shape(std::int64_t n, F&& f) {
  using std::integral_constant;
  if (n <= 16) return f(integral_constant<int, 4>{}, integral_constant<int, 4>{});
  if (n <= 32) return f(integral_constant<int, 4>{}, integral_constant<int, 8>{});
  if (n <= 64) return f(integral_constant<int, 4>{}, integral_constant<int, 16>{});
  if (n <= 128) return f(integral_constant<int, 8>{}, integral_constant<int, 16>{});
  if (n <= 256) return f(integral_constant<int, 16>{}, integral_constant<int, 16>{});
  if (n <= 512) return f(integral_constant<int, 32>{}, integral_constant<int, 16>{});
  if (n <= 1024) return f(integral_constant<int, 32>{}, integral_constant<int, 32>{});
  throw std::logic_error("stream wavefront: no compiled shape for n = " + std::to_string(n));
}


// Halves `chunk` (down to 1) while `units(chunk)` gives fewer than four waves of warps
// (16 resident per SM): long streams pay the fill and drain least often, but a small launch
// needs short ones to give every SM work.
template <class Units>
int fill_gpu(int chunk, Units units, const DeviceCaps& d) {
  const std::int64_t waves = 4 * std::int64_t(std::max(d.sm_count, 1)) * 16;
  while (chunk > 1 && units(chunk) < waves) chunk /= 2;
  return chunk;
}

// Queries per stream (fill_gpu); the triangle keeps whole subject blocks per stream.
int stream_chunk(const DtwProblem& p, int per_warp, bool symmetric, const DeviceCaps& d) {
  if (symmetric) return kStreamChunk;
  return fill_gpu(kStreamChunk, [&](int c) {
    return stream_units(p.num_queries(), p.entries(), c, per_warp, false);
  }, d);
}

template <int G, int C, bool Banded>
std::function<void(const DeviceData&, cudaStream_t)> enqueue_subject_stream(int chunk) {
  constexpr int S = subjects_per_group(C);
  return [chunk](const DeviceData& d, cudaStream_t stream) {
    const SubjectStreamLaunch a{d.query, d.series, d.dist, d.entries, static_cast<int>(d.n),
                                d.args.band, chunk};
    const std::int64_t per_warp = std::int64_t(32 / G * S) * chunk;
    const std::int64_t blocks = ceil_div(ceil_div(d.entries, per_warp), kWarpBlock / 32);
    if (blocks > 0x7fffffff) throw std::logic_error("dtw_subject_stream_kernel: grid too large");
    dtw_subject_stream_kernel<G, C, S, Banded>
        <<<static_cast<unsigned>(blocks), kWarpBlock, 0, stream>>>(a);
    LADDER_CUDA_LAUNCH("dtw_subject_stream_kernel");
  };
}

}  // namespace

Setup stream_setup(const DtwProblem& p, bool all_queries, const DeviceCaps& d) {
  // One query in one launch: step 14's subject streams are the faster way round.
  if (all_queries && p.num_queries() == 1) {
    Setup one = subject_stream_setup(p, d);
    one.all_queries = true;
    return one;
  }
  auto queries = std::make_shared<DeviceBuffer<float2>>(query_stream(p.queries, p.n()));
  const bool symmetric = all_queries && p.queries_are_subjects();
  Setup out;
  out.all_queries = all_queries;
  stream_shape(p.n(), [&](auto g, auto c) {
    constexpr int G = decltype(g)::value, C = decltype(c)::value;
    static_assert(G * C <= 32 * CellsPerLane::largest(), "beyond warp_length_limit");
    const int chunk = all_queries ? stream_chunk(p, 32 / G * subjects_per_group(C), symmetric, d) : 1;
    out.enqueue = p.banded() ? enqueue_stream<G, C, true>(queries, chunk, symmetric)
                             : enqueue_stream<G, C, false>(queries, chunk, symmetric);
    out.facts = {{"lanes", G},
                 {"cells_per_lane", C},
                 {"subjects_per_group", subjects_per_group(C)},
                 {"queries_per_stream", chunk},
                 {"triangle", symmetric ? 1 : 0}};
  });
  return out;
}

Setup subject_stream_setup(const DtwProblem& p, const DeviceCaps& d) {
  Setup out;
  stream_shape(p.n(), [&](auto g, auto c) {
    constexpr int G = decltype(g)::value, C = decltype(c)::value;
    constexpr int kChains = 32 / G * subjects_per_group(C);
    const int chunk = fill_gpu(kStreamChunk, [&](int ch) {
      return ceil_div(p.entries(), std::int64_t(kChains) * ch);
    }, d);
    out.enqueue = p.banded() ? enqueue_subject_stream<G, C, true>(chunk)
                             : enqueue_subject_stream<G, C, false>(chunk);
    out.facts = {{"lanes", G},
                 {"cells_per_lane", C},
                 {"subjects_per_group", subjects_per_group(C)},
                 {"subjects_per_stream", chunk}};
  });
  return out;
}

std::string stream_limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  return warp_length_limit(p.n(), auto_lanes(p.n()));
}

}  // namespace ladder::dtw
