// Step 6: sH_CUDA, the paper's shared-memory step. Still a block per pair over anti-diagonal
// cycles, but the strings, the pair's table P and the three live anti-diagonals sit in shared
// memory, so a cell reads its three neighbours, its symbols and P from there; only the swap's
// look-back H[k-1][l-1] needs the full table, which stays in global memory (every cell is
// still written there). P is built by the backward preprocessing. Shared memory bounds the
// lengths: P alone is 4 (n+1) alphabet bytes.
#include "../../harness/shared_memory.cuh"
#include "global_table.cuh"

namespace ladder::eed {
namespace {

constexpr double kSlotBudget = 4.0 * (1ull << 30);

struct Layout {
  std::size_t a, b, P, diag, lpos, total;  // byte offsets, then the size
};

__host__ __device__ Layout layout(std::int64_t n, std::int64_t m, int S) {
  auto up4 = [](std::size_t x) { return ceil_div(x, 4) * 4; };
  Layout L{};
  L.a = 0;
  L.b = up4(std::size_t(n));
  L.P = L.b + up4(std::size_t(m));
  L.diag = L.P + 4 * std::size_t(n + 1) * std::size_t(S);
  L.lpos = L.diag + 3 * 4 * std::size_t(n + 1);
  L.total = L.lpos + 4 * std::size_t(n + 1);
  return L;
}

__global__ void shared_kernel(Pairs v, const std::int32_t* tables, const std::int64_t* toff,
                              std::int32_t* H_all, std::int64_t slot) {
  extern __shared__ __align__(16) unsigned char smem[];
  std::int32_t* H = H_all + blockIdx.x * slot;
  const int S = v.alphabet;
  const Costs c = v.costs;
  for (std::int64_t k = blockIdx.x; k < v.pairs; k += gridDim.x) {
    const std::int64_t n = v.n(k), m = v.m(k), w = m + 1;
    const Layout L = layout(n, m, S);
    std::uint8_t* a = smem + L.a;
    std::uint8_t* b = smem + L.b;
    auto* P = reinterpret_cast<std::int32_t*>(smem + L.P);
    auto* D = reinterpret_cast<std::int32_t*>(smem + L.diag);  // D[t % 3][i] = H[i][t - i]
    auto* lpos = reinterpret_cast<std::int32_t*>(smem + L.lpos);
    for (std::int64_t x = threadIdx.x; x < n; x += blockDim.x) a[x] = v.a(k)[x];
    for (std::int64_t x = threadIdx.x; x < m; x += blockDim.x) b[x] = v.b(k)[x];
    for (std::int64_t x = threadIdx.x; x < (n + 1) * S; x += blockDim.x) P[x] = tables[toff[k] + x];
    for (std::int64_t i = threadIdx.x; i <= n; i += blockDim.x) {
      lpos[i] = 0;
      H[i * w] = std::int32_t(i * c.del);  // the look-back can reach row 0 and column 0
    }
    for (std::int64_t j = threadIdx.x; j <= m; j += blockDim.x) H[j] = std::int32_t(j * c.ins);
    if (threadIdx.x == 0) {
      D[0] = 0;
      if (m >= 1) D[(n + 1) + 0] = c.ins;
      if (n >= 1) D[(n + 1) + 1] = c.del;
    }
    __syncthreads();
    for (std::int64_t t = 2; t <= n + m; ++t) {
      std::int32_t* cur = D + (t % 3) * (n + 1);
      const std::int32_t* up_diag = D + ((t - 1) % 3) * (n + 1);  // H[.][t-1-.]
      const std::int32_t* back = D + ((t - 2) % 3) * (n + 1);     // H[.][t-2-.]
      if (threadIdx.x == 0) {
        if (t <= m) cur[0] = std::int32_t(t * c.ins);
        if (t <= n) cur[t] = std::int32_t(t * c.del);
      }
      for (std::int64_t i = threadIdx.x + 1; i <= n; i += blockDim.x) {
        const std::int64_t j = t - i;
        if (j < 1 || j > m) continue;
        const int ai = a[i - 1], bj = b[j - 1];
        const std::int32_t swap = swap_from_table(H, w, i, j, P[i * S + bj], lpos[i], c);
        const std::int32_t val = eed_cell(back[i - 1], up_diag[i - 1], up_diag[i], ai == bj, swap, c);
        cur[i] = val;
        H[i * w + j] = val;
        if (ai == bj) lpos[i] = std::int32_t(j);
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) v.out[k] = D[((n + m) % 3) * (n + 1) + n];
    __syncthreads();
  }
}

std::int64_t slots(const EedProblem& p) {
  return slot_count(p, 4.0 * double(table_elements(p)), kSlotBudget);
}

std::string limit(const EedProblem& p, const Params& params, const DeviceCaps& d) {
  const std::string why = shared_memory_reason(layout(p.max_a, p.max_b, p.alphabet()).total,
                                               "the strings, the table P and three diagonals", d);
  return why.empty() ? prep_reason(p, params, d) : why;
}

EedSetup setup(const EedProblem& p, const Params& params, const DeviceCaps&) {
  auto prep = std::make_shared<PrepSetup>(prep_setup(p, prep_of(params)));
  const std::int64_t n_slots = slots(p), slot = table_elements(p);
  auto H = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(n_slots * slot));
  const std::size_t smem = layout(p.max_a, p.max_b, p.alphabet()).total;
  allow_shared_memory(shared_kernel, smem);
  const int threads = row_threads(p);
  return {[prep, &p](const Pairs& v, cudaStream_t stream) { (*prep)(v, p, stream); },
          [=](const Pairs& v, cudaStream_t stream) {
            shared_kernel<<<unsigned(n_slots), threads, smem, stream>>>(
                v, prep->tables->get(), prep->offsets->get(), H->get(), slot);
            LADDER_CUDA(cudaGetLastError());
          },
          {{"threads_per_block", double(threads)},
           {"blocks", double(n_slots)},
           {"shared_bytes_per_block", double(smem)}}};
}

const Registrar registrar{gpu_step(
    {.name = "sh_cuda",
     .step = 6,
     .label = "sH_CUDA: shared memory",
     .change = "strings, P and the three live anti-diagonals in shared memory; only the swap's "
               "look-back reads the global table",
     .params = {prep_param("backward")},
     .impl = setup,
     .limit = limit,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return prep_bytes(p) + 4.0 * double(slots(p)) * double(table_elements(p));
     }})};

}  // namespace
}  // namespace ladder::eed
