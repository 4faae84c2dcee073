// Peer: cuBLAS at its best for TF32, not only its default GEMM (step 8). cublasLt's heuristic
// proposes up to kCandidates algorithms for this very shape (tiles, stages, split-K among them,
// with a workspace to split into); the set-up times each on scratch matrices of the same shape
// and keeps the fastest, so the timed runs see the library's best configuration here. The
// product is step 8's (C = A A^T / m, A = X^T column-major, the full symmetric matrix, every
// entry written); validated against the study's TF32 tolerance. The facts record which
// algorithm won, its split-K and how many were tried.
#include <cublasLt.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

constexpr int kCandidates = 16;
constexpr std::size_t kWorkspaceBytes = 64u << 20;  // room for split-K's partial sums

// One Lt handle for the process, made by the first set-up; never destroyed (see cublas_handle).
cublasLtHandle_t lt_handle() {
  static cublasLtHandle_t h = [] {
    cublasLtHandle_t created = nullptr;
    LADDER_CUBLAS(cublasLtCreate(&created));
    return created;
  }();
  return h;
}

// What the heuristic proposes: up to kCandidates algorithms, best guess first.
struct Candidates {
  cublasLtMatmulHeuristicResult_t result[kCandidates] = {};
  int count = 0;
};

// The operation and its three layouts for n x n from k: A is n x k column-major (lda n), used
// as is and transposed.
class LtProduct {
 public:
  LtProduct(std::int64_t n, std::int64_t k) {
    LADDER_CUBLAS(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F));
    const cublasOperation_t no = CUBLAS_OP_N, yes = CUBLAS_OP_T;
    LADDER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &no, sizeof no));
    LADDER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &yes, sizeof yes));
    LADDER_CUBLAS(cublasLtMatrixLayoutCreate(&a_, CUDA_R_32F, std::uint64_t(n), std::uint64_t(k), n));
    LADDER_CUBLAS(cublasLtMatrixLayoutCreate(&c_, CUDA_R_32F, std::uint64_t(n), std::uint64_t(n), n));
  }
  ~LtProduct() {
    cublasLtMatrixLayoutDestroy(c_);
    cublasLtMatrixLayoutDestroy(a_);
    cublasLtMatmulDescDestroy(op_);
  }
  LtProduct(const LtProduct&) = delete;
  LtProduct& operator=(const LtProduct&) = delete;

  // The heuristic's candidates for this shape, best guess first.
  Candidates candidates() const {
    cublasLtMatmulPreference_t pref = nullptr;
    LADDER_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    const std::size_t ws = kWorkspaceBytes;
    Candidates out;
    cublasStatus_t status =
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    if (status == CUBLAS_STATUS_SUCCESS)
      status = cublasLtMatmulAlgoGetHeuristic(lt_handle(), op_, a_, a_, c_, c_, pref, kCandidates, out.result,
                                              &out.count);
    cublasLtMatmulPreferenceDestroy(pref);
    LADDER_CUBLAS(status);
    if (out.count == 0) throw CudaError("cublasLt proposes no TF32 algorithm for this shape");
    return out;
  }

  void run(const cublasLtMatmulAlgo_t& algo, const float* x, float* cov, float alpha, void* workspace,
           std::size_t workspace_bytes, cudaStream_t stream) const {
    const float beta = 0.f;
    LADDER_CUBLAS(cublasLtMatmul(lt_handle(), op_, &alpha, x, a_, x, a_, &beta, cov, c_, cov, c_, &algo,
                                 workspace, workspace_bytes, stream));
  }

 private:
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, c_ = nullptr;
};

// The median of three timed calls after one untimed, in ms.
template <class Call>
float time_algo(Call call, cudaStream_t stream) {
  cudaEvent_t start = nullptr, stop = nullptr;
  LADDER_CUDA(cudaEventCreate(&start));
  LADDER_CUDA(cudaEventCreate(&stop));
  call();
  std::vector<float> ms;
  for (int i = 0; i < 3; ++i) {
    LADDER_CUDA(cudaEventRecord(start, stream));
    call();
    LADDER_CUDA(cudaEventRecord(stop, stream));
    LADDER_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    LADDER_CUDA(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[1];
}

int split_k_of(const cublasLtMatmulAlgo_t& algo) {
  int split = 1;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &split, sizeof split, &written) !=
      CUBLAS_STATUS_SUCCESS)
    return 0;  // not recorded
  return std::max(split, 1);
}

// Times every candidate on scratch matrices of the run's shape (the time of a GEMM does not
// depend on the values) and keeps the fastest. The set-up runs before the run's own buffers
// are made, so the scratch (X's size, C's and the workspace) never sits beside them.
Setup setup(const CovProblem& p, const Params&, const DeviceCaps&) {
  std::shared_ptr<LtProduct> product(new LtProduct(p.n, p.m));
  auto workspace = std::make_shared<DeviceBuffer<float>>(kWorkspaceBytes / sizeof(float));
  const Candidates candidates = product->candidates();
  const float alpha = static_cast<float>(1.0 / double(std::max<std::int64_t>(p.m, 1)));
  cublasLtMatmulHeuristicResult_t best = candidates.result[0];
  float best_ms = 0;
  bool found = false;
  {
    DeviceBuffer<float> a(std::size_t(p.n * p.m)), c(std::size_t(p.n * p.n));
    a.fill_bytes(0, nullptr);
    for (int i = 0; i < candidates.count; ++i) {
      const cublasLtMatmulHeuristicResult_t& cand = candidates.result[i];
      try {
        const float ms = time_algo([&] {
          product->run(cand.algo, a.get(), c.get(), alpha, workspace->get(), cand.workspaceSize, nullptr);
        }, nullptr);
        if (!found || ms < best_ms) best_ms = ms, best = cand, found = true;
      } catch (const CudaError&) {
        // A candidate the library cannot run after all is no candidate.
      }
    }
  }
  if (!found) throw CudaError("cublasLt could run none of its " + std::to_string(candidates.count) +
                                    " TF32 algorithms for this shape");
  int algo_id = 0;
  std::size_t written = 0;
  cublasLtMatmulAlgoConfigGetAttribute(&best.algo, CUBLASLT_ALGO_CONFIG_ID, &algo_id, sizeof algo_id, &written);
  Setup out{[product, workspace, best, alpha](const DeviceData& d, cudaStream_t stream) {
    product->run(best.algo, d.x, d.cov, alpha, workspace->get(), best.workspaceSize, stream);
  }};
  out.facts = {{"algorithms_tried", double(candidates.count)},
               {"algorithm_id", double(algo_id)},
               {"split_k", double(split_k_of(best.algo))},
               {"workspace_bytes", double(best.workspaceSize)},
               {"search_best_ms", double(best_ms)}};
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
     .scratch_bytes = [](const CovProblem&, const Params&) { return double(kWorkspaceBytes); }})};

}  // namespace
}  // namespace ladder::covariance
