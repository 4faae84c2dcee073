// The preprocessing of the paper's steps: for each pair, the table P of the last position of
// every symbol in A[1..i-1], three ways (the paper's experiment 1). Serial: one host pass per
// pair, P[i] = P[i-1] plus a_{i-1}, then one copy. Forward: a block per pair, thread i clears
// its row and scans A[1..i-1] from the start (every thread reads the same early symbols at
// once). Backward: A in shared memory, thread i scans back from i-1 and stops as soon as it
// has found every symbol of the alphabet, so on random strings a row costs a few alphabet
// sizes of steps instead of i (a row whose prefix lacks a symbol still scans to the start).
#include "../../harness/cuda_check.hpp"
#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"

namespace ladder::eed {
namespace {

constexpr int kThreads = 256;

__global__ void forward_kernel(Pairs v, std::int32_t* tables, const std::int64_t* off) {
  const std::int64_t k = blockIdx.x;
  const std::uint8_t* a = v.a(k);
  const std::int64_t n = v.n(k);
  const int S = v.alphabet;
  std::int32_t* P = tables + off[k];
  for (std::int64_t i = threadIdx.x; i <= n; i += blockDim.x) {
    std::int32_t* row = P + i * S;
    for (int c = 0; c < S; ++c) row[c] = 0;
    for (std::int64_t p = 1; p < i; ++p) row[a[p - 1]] = std::int32_t(p);
  }
}

__global__ void backward_kernel(Pairs v, std::int32_t* tables, const std::int64_t* off) {
  extern __shared__ std::uint8_t a_shared[];
  const std::int64_t k = blockIdx.x;
  const std::int64_t n = v.n(k);
  const int S = v.alphabet;
  const std::uint8_t* a = v.a(k);
  for (std::int64_t p = threadIdx.x; p < n; p += blockDim.x) a_shared[p] = a[p];
  __syncthreads();
  std::int32_t* P = tables + off[k];
  for (std::int64_t i = threadIdx.x; i <= n; i += blockDim.x) {
    std::int32_t* row = P + i * S;
    for (int c = 0; c < S; ++c) row[c] = 0;
    int found = 0;
    for (std::int64_t p = i - 1; p >= 1 && found < S; --p) {
      const int c = a_shared[p - 1];
      if (row[c] == 0) row[c] = std::int32_t(p), ++found;
    }
  }
}

}  // namespace

ParamSpec prep_param(const std::string& default_value) {
  return {"prep", default_value,
          "preprocessing: serial (host), forward (device scans from the start) or backward "
          "(device scans back from A in shared memory)",
          ParamSpec::Kind::text, 0, 0, {"serial", "forward", "backward"}};
}

Prep prep_of(const Params& params) {
  const std::string& m = params.text("prep");
  return m == "serial" ? Prep::serial : m == "forward" ? Prep::forward : Prep::backward;
}

std::string prep_reason(const EedProblem& p, const Params& params, const DeviceCaps& d) {
  if (prep_of(params) != Prep::backward) return "";
  return shared_memory_reason(std::size_t(p.max_a), "the backward preprocessing's string A", d);
}

double prep_bytes(const EedProblem& p) {
  double total = 0;
  for (std::int64_t k = 0; k < p.pairs(); ++k) total += double(table_size(p, k));
  return 4.0 * total + 8.0 * double(p.pairs() + 1);
}

PrepSetup prep_setup(const EedProblem& p, Prep method) {
  PrepSetup setup{method};
  setup.host_offsets = arena_offsets(p, [&](std::int64_t k) { return table_size(p, k); });
  const auto entries = std::size_t(setup.host_offsets.back());
  setup.tables = std::make_shared<DeviceBuffer<std::int32_t>>(entries);
  setup.offsets = std::make_shared<DeviceBuffer<std::int64_t>>(setup.host_offsets);
  if (method == Prep::serial)
    setup.host = std::make_shared<PinnedBuffer<std::int32_t>>(entries);
  if (method == Prep::backward) {
    allow_shared_memory(backward_kernel, std::size_t(std::max<std::int64_t>(p.max_a, 1)));
  }
  return setup;
}

void PrepSetup::operator()(const Pairs& view, const EedProblem& p, cudaStream_t stream) const {
  if (view.pairs == 0) return;
  const unsigned blocks = unsigned(view.pairs);
  switch (method) {
    case Prep::serial:
      for (std::int64_t k = 0; k < p.pairs(); ++k)
        last_occurrence_serial(p.data.a(k), p.data.a_length(k), p.alphabet(),
                               host->get() + host_offsets[k]);
      LADDER_CUDA(cudaMemcpyAsync(tables->get(), host->get(), host->bytes(),
                                  cudaMemcpyHostToDevice, stream));
      return;
    case Prep::forward:
      forward_kernel<<<blocks, kThreads, 0, stream>>>(view, tables->get(), offsets->get());
      break;
    case Prep::backward:
      backward_kernel<<<blocks, kThreads, std::size_t(std::max<std::int64_t>(p.max_a, 1)),
                        stream>>>(view, tables->get(), offsets->get());
      break;
  }
  LADDER_CUDA(cudaGetLastError());
}

}  // namespace ladder::eed
