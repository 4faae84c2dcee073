// Peer: cuBLAS at its best for TF32, not only its default GEMM (step 8). The product is step
// 8's (C = A A^T / m, A = X^T column-major, the full symmetric matrix, every entry written),
// through cublasLt with the fastest of the algorithms its heuristic proposes for this very
// shape, timed at set-up (cublaslt_search.cuh); validated against the study's TF32 tolerance.
// The facts record which algorithm won, its split-K and how many were tried.
#include "cublaslt_search.cuh"

namespace ladder::covariance {
namespace {

Setup setup(const CovProblem& p, const Params&, const DeviceCaps&) {
  auto product = std::make_shared<lt::Product>(CUBLAS_COMPUTE_32F_FAST_TF32,
                                               lt::Operand{CUDA_R_32F, p.n, p.m, p.n, false}, "TF32");
  const float alpha = static_cast<float>(1.0 / double(std::max<std::int64_t>(p.m, 1)));
  const lt::Searched searched = lt::search(product, alpha);
  Setup out{[searched](const DeviceData& d, cudaStream_t stream) { searched.run(d.x, d.cov, stream); }};
  out.facts = searched.facts;
  return out;
}

const Registrar registrar{gpu_step(
    {.name = "cublaslt_tf32",
     .step = 16,
     .label = "cuBLASLt TF32, searched",
     .change = "peer: cublasLt TF32 GEMM, the fastest of the heuristic's algorithms (split-K included) "
               "timed at set-up",
     .role = Role::peer,
     .precision = Precision::tf32,
     .impl = setup,
     .limit = cublas_dimensions_limit,
     .scratch_bytes = [](const CovProblem&, const Params&) { return double(lt::kWorkspaceBytes); }})};

}  // namespace
}  // namespace ladder::covariance
