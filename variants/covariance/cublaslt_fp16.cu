// Peer: the library's FP16 GEMM beside steps 17 and 18, like for like. It reads the very
// operands step 17 does: the FP16 centring stage's X^T, each feature scaled by its power of two
// into FP16's range (Layout::transposed_f16, the same pipeline stages and times). Row-major
// X^T (n rows of ld halves) is the column-major m x n matrix A with lda = ld, and C = A^T A / m
// is one cublasLt matmul with transa T, transb N: FP16 in, FP32 accumulation
// (CUBLAS_COMPUTE_32F), FP32 out, the full symmetric matrix. Then every entry is scaled back
// by both features' powers of two as step 17's kernel does (unscaled), so the two outputs
// differ by the order of their FP32 additions alone; validated with step 17's tolerance.
// At its best configuration: cublasLt rather than cublasGemmEx, which leaves the choice of
// algorithm to the library's heuristic; here the heuristic's candidates for the shape (split-K
// among them) are all timed at set-up and the fastest kept (cublaslt_search.cuh), its first
// guess among them (the facts keep that one's time beside the winner's). The GEMM computes
// the full matrix, twice the triangle.
#include "cublaslt_search.cuh"

namespace ladder::covariance {
namespace {

// cov[i][j] = unscaled(cov[i][j]): a thread per entry, rows of the matrix along y.
__global__ void unscale_kernel(float* cov, const float* unscale, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j < n) {
    float& v = cov[std::int64_t(i) * n + j];
    v = unscaled(v, unscale, i, j);
  }
}

Setup setup(const CovProblem& p, const Params&, const DeviceCaps&) {
  const std::int64_t ld = row_stride(p, Layout::transposed_f16);  // in halves
  auto product = std::make_shared<lt::Product>(CUBLAS_COMPUTE_32F, lt::Operand{CUDA_R_16F, p.m, p.n, ld, true},
                                               "FP16");
  const float alpha = static_cast<float>(1.0 / double(std::max<std::int64_t>(p.m, 1)));
  const lt::Searched searched = lt::search(product, alpha);
  Setup out{[searched](const DeviceData& d, cudaStream_t stream) {
    searched.run(d.x, d.cov, stream);
    constexpr unsigned kThreads = 256;
    unscale_kernel<<<dim3(unsigned(ceil_div(d.n, kThreads)), unsigned(d.n)), kThreads, 0, stream>>>(
        d.cov, d.unscale, int(d.n));
    LADDER_CUDA_LAUNCH("unscale_kernel");
  }};
  out.facts = searched.facts;
  return out;
}

// cuBLAS's 32-bit dimensions, and X^T's row stride among them.
std::string limit(const CovProblem& p, const Params& params, const DeviceCaps& caps) {
  const std::string why = cublas_dimensions_limit(p, params, caps);
  if (!why.empty()) return why;
  return row_stride(p, Layout::transposed_f16) > 2147483647 ? "cuBLAS dimensions are 32-bit ints" : "";
}

const Registrar registrar{gpu_step(
    {.name = "cublaslt_fp16",
     .step = 19,
     .label = "cuBLASLt GEMM, FP16 in, FP32 accumulate",
     .change = "peer: cublasLt FP16 GEMM with FP32 accumulation on step 17's scaled FP16 X^T, "
               "scaled back as step 17 does; the fastest of the heuristic's algorithms timed at set-up",
     .role = Role::peer,
     .precision = Precision::fp16,
     .impl = setup,
     .limit = limit,
     .scratch_bytes = [](const CovProblem&, const Params&) { return double(lt::kWorkspaceBytes); }},
    Layout::transposed_f16)};

}  // namespace
}  // namespace ladder::covariance
