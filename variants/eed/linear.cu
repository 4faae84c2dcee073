// Step 7: linear memory and long strings. The paper's steps keep the whole (n+1) x (m+1)
// table for the swap's look-back H[k-1][l-1] (40 GB for a pair of 100,000) and their shared
// memory ends near length 1000. But a swap with symbol c only reaches back to the row above
// c's last occurrence in A, so it is enough to keep, for every symbol, that one row: alphabet
// + 2 rows per pair (rows are swapped by index, never copied), and no table P either (the
// last occurrence of each symbol is tracked as rows go by). Rows are computed one at a time
// by a block (row_scan.cuh), so a saved row is never overwritten while another thread still
// needs it. The rows live in global memory (L2 for the long pair); a block takes pairs in
// turn from its own slot.
#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"
#include "row_scan.cuh"

namespace ladder::eed {
namespace {

constexpr double kSlotBudget = 2.0 * (1ull << 30);
constexpr int kGroup = 8;
constexpr int kMaxThreads = 512;

// Thread t owns the columns e in [t * per, t * per + per) (per a power of two), but a row is
// stored interleaved: column e at (e % per) * T + e / per. So when every thread is at the
// u-th column of its run, the warp touches 32 consecutive words (one transaction) instead of
// 32 words `per` apart (32 transactions): the first version of this step spent most of its
// time on exactly that. B is copied once per pair into the same order.
struct Shape {
  int threads;          // T, per block
  int shift;            // per = 2^shift columns per thread
  std::int64_t stride;  // entries per row: T * per >= m + 1
  std::int64_t slot;    // entries per block: alphabet + 2 rows, the run table, B (bytes)
};

Shape shape(const EedProblem& p) {
  Shape s{};
  // About eight columns per thread: enough work between the row's barriers.
  s.threads = int(std::clamp<std::int64_t>(ceil_div(p.max_b / 8, 32) * 32, 32, kMaxThreads));
  while ((std::int64_t(s.threads) << s.shift) < p.max_b + 1) ++s.shift;
  s.stride = std::int64_t(s.threads) << s.shift;
  s.slot = (p.alphabet() + 2) * s.stride + std::int64_t(s.threads) * p.alphabet() + s.stride / 4 + 1;
  return s;
}

std::int64_t slots(const EedProblem& p) {
  return slot_count(p, 4.0 * double(shape(p).slot), kSlotBudget);
}

__device__ __forceinline__ std::int64_t at(std::int64_t e, int shift, int T) {
  return (e & ((std::int64_t(1) << shift) - 1)) * T + (e >> shift);
}

// Shared: last[S], buf[S], three bookkeeping ints and 32 for the scan.
__global__ void __launch_bounds__(kMaxThreads)
    linear_kernel(Pairs v, std::int32_t* arena, std::int64_t slot, std::int64_t stride, int shift) {
  extern __shared__ int sh[];
  const int S = v.alphabet, T = blockDim.x, tid = threadIdx.x;
  int* last = sh;           // last row whose A symbol is s (0: none yet)
  int* buf = sh + S;        // which row buffer holds row last[s] - 1
  int* state = sh + 2 * S;  // [0] previous row's buffer, [1] current row's, [2] next unused
  int* warp_min = state + 3;
  const Costs c = v.costs;
  std::int32_t* rows = arena + blockIdx.x * slot;
  std::int32_t* runs = rows + (S + 2) * stride;  // runs[t * S + s]: last s in B before run t
  auto* bsym = reinterpret_cast<std::uint8_t*>(runs + T * S);  // B, interleaved like a row
  const std::int64_t per = std::int64_t(1) << shift;
  for (std::int64_t k = blockIdx.x; k < v.pairs; k += gridDim.x) {
    const std::int64_t n = v.n(k), m = v.m(k);
    const std::uint8_t *a = v.a(k), *b = v.b(k);
    const std::int64_t j0 = tid == 0 ? 1 : tid * per, j1 = min(m, tid * per + per - 1);
    for (std::int64_t e = tid + 1; e <= m; e += T) bsym[at(e, shift, T)] = b[e - 1];
    for (int s = tid; s < S; s += T) last[s] = 0, buf[s] = -1;
    if (tid == 0) state[0] = 0, state[1] = 1, state[2] = 2;
    for (std::int64_t e = tid; e <= m; e += T) rows[at(e, shift, T)] = std::int32_t(e * c.ins);
    __syncthreads();
    // Where each symbol last occurs in B before this thread's run of columns.
    for (int s = 0; s < S; ++s) runs[tid * S + s] = 0;
    for (std::int64_t j = j0; j <= j1; ++j) runs[tid * S + bsym[at(j, shift, T)]] = int(j);
    __syncthreads();
    for (int s = tid; s < S; s += T) {
      int seen = 0;
      for (int t = 0; t < T; ++t) {
        const int here = runs[t * S + s];
        runs[t * S + s] = seen;
        seen = max(seen, here);
      }
    }
    __syncthreads();
    for (std::int64_t i = 1; i <= n; ++i) {
      const int x = a[i - 1];
      const std::int32_t* prev = rows + state[0] * stride;
      std::int32_t* cur = rows + state[1] * stride;
      std::int64_t l = runs[tid * S + x];
      int run = kNoSwap;
      // Columns in groups of kGroup: first every load of the group (symbols, the row above,
      // the swaps' look-backs), which depend on no cell of this row, so they are in flight
      // together; then the group's cells, a chain through `run`.
      for (std::int64_t j = j0; j <= j1; j += kGroup) {
        int sym[kGroup], diag[kGroup], up[kGroup], swap[kGroup];
#pragma unroll
        for (int u = 0; u < kGroup; ++u) {
          const std::int64_t jj = min(j + u, j1);  // past j1: a repeat of j1, not stored
          const int s = sym[u] = bsym[at(jj, shift, T)];
          const std::int64_t kk = last[s];
          swap[u] = kk > 0 && l > 0 ? int(rows[buf[s] * stride + at(l - 1, shift, T)] +
                                          (i - kk - 1) * c.del + c.swap + (jj - l - 1) * c.ins)
                                    : kNoSwap;
          diag[u] = prev[at(jj - 1, shift, T)];
          up[u] = prev[at(jj, shift, T)];
          if (s == x && j + u <= j1) l = jj;
        }
#pragma unroll
        for (int u = 0; u < kGroup; ++u) {
          if (j + u > j1) break;
          run = eed_cell(diag[u], up[u], run, sym[u] == x, swap[u], c);
          cur[at(j + u, shift, T)] = run;
        }
      }
      const int g = j0 <= j1 ? int(run - j1 * c.ins) : INT_MAX;
      const int from_left = block_exclusive_min(g, warp_min);
      const int carry = min(int(i * c.del), from_left);  // H[i][j0-1] - (j0-1) w_ins
      // The value from the left wins over a prefix of the run only: once a column keeps its
      // own value every later one does (a run grows by at most w_ins per column, exactly as
      // the carried value does). Stopping there saves a read and a write per column, each a
      // round trip to L2.
      for (std::int64_t j = j0; j <= j1; ++j) {
        std::int32_t& h = cur[at(j, shift, T)];
        const int t = int(carry + j * c.ins);
        if (t >= h) break;
        h = t;
      }
      if (tid == 0) cur[0] = std::int32_t(i * c.del);  // column 0
      __syncthreads();
      if (tid == 0) {  // row i - 1 becomes x's saved row; x's old one is free
        const int old = buf[x];
        buf[x] = state[0];
        last[x] = int(i);
        state[0] = state[1];
        state[1] = old >= 0 ? old : state[2]++;
      }
      __syncthreads();
    }
    if (tid == 0) v.out[k] = rows[state[0] * stride + at(m, shift, T)];
    __syncthreads();
  }
}

EedSetup setup(const EedProblem& p, const Params&, const DeviceCaps&) {
  const Shape s = shape(p);
  const std::int64_t n_slots = slots(p);
  auto arena = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(n_slots * s.slot));
  const std::size_t smem = 4 * std::size_t(2 * p.alphabet() + 3 + 32);
  return {{},
          [=](const Pairs& v, cudaStream_t stream) {
            linear_kernel<<<unsigned(n_slots), s.threads, smem, stream>>>(v, arena->get(), s.slot,
                                                                          s.stride, s.shift);
            LADDER_CUDA(cudaGetLastError());
          },
          {{"threads_per_block", double(s.threads)},
           {"columns_per_thread", double(1 << s.shift)},
           {"blocks", double(n_slots)}}};
}

const Registrar registrar{gpu_step(
    {.name = "linear",
     .step = 7,
     .label = "linear memory, rows",
     .change = "per symbol only the row above its last occurrence (alphabet + 2 rows, no P), "
               "rows one at a time with a prefix-min scan: any length",
     .impl = setup,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return 4.0 * double(slots(p)) * double(shape(p).slot);
     }})};

}  // namespace
}  // namespace ladder::eed
