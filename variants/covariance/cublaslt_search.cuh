// cublasLt at its best for one shape, for the searched peers (cublaslt_tf32, cublaslt_fp16):
// the heuristic proposes up to kCandidates algorithms for the product (tiles, stages, split-K
// among them, with a workspace to split into); the set-up times each on scratch matrices of
// the run's shape and keeps the fastest, so the timed runs see the library's best
// configuration here, not only its first guess. The facts record which algorithm won, its
// split-K, how many were tried and the first guess's time.
//
// The product is C = alpha op(A) op(A) with one operand matrix A read twice (C = A A^T or
// A^T A, n x n, FP32, column-major; symmetric, so also the row-major result).
#pragma once
#include <cublasLt.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cublas_check.cuh"

namespace ladder::covariance::lt {
namespace {

constexpr int kCandidates = 16;
constexpr std::size_t kWorkspaceBytes = 64u << 20;  // room for split-K's partial sums

// One Lt handle per translation unit, made by the first set-up; never destroyed (see
// cublas_handle).
[[maybe_unused]] cublasLtHandle_t handle() {
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

// The operand A, as cublasLt lays it out: `rows` x `cols` column-major, leading dimension
// `ld`, of `type`; `transposed`: C = A^T A (A holds k rows), else C = A A^T (A holds k columns).
struct Operand {
  cudaDataType_t type;
  std::int64_t rows, cols, ld;
  bool transposed;
  std::int64_t n() const { return transposed ? cols : rows; }
};

// The operation and its layouts: `compute` with FP32 scale and output, A used twice.
class Product {
 public:
  Product(cublasComputeType_t compute, Operand a, std::string what) : a_shape_(a), what_(std::move(what)) {
    LADDER_CUBLAS(cublasLtMatmulDescCreate(&op_, compute, CUDA_R_32F));
    const cublasOperation_t first = a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t second = a.transposed ? CUBLAS_OP_N : CUBLAS_OP_T;
    LADDER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &first, sizeof first));
    LADDER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &second, sizeof second));
    LADDER_CUBLAS(cublasLtMatrixLayoutCreate(&a_, a.type, std::uint64_t(a.rows), std::uint64_t(a.cols), a.ld));
    const std::int64_t n = a.n();
    LADDER_CUBLAS(cublasLtMatrixLayoutCreate(&c_, CUDA_R_32F, std::uint64_t(n), std::uint64_t(n), n));
  }
  ~Product() {
    cublasLtMatrixLayoutDestroy(c_);
    cublasLtMatrixLayoutDestroy(a_);
    cublasLtMatmulDescDestroy(op_);
  }
  Product(const Product&) = delete;
  Product& operator=(const Product&) = delete;

  const Operand& operand() const { return a_shape_; }
  const std::string& what() const { return what_; }

  // The heuristic's candidates for this shape, best guess first.
  Candidates candidates() const {
    cublasLtMatmulPreference_t pref = nullptr;
    LADDER_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    const std::size_t ws = kWorkspaceBytes;
    Candidates out;
    cublasStatus_t status =
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    if (status == CUBLAS_STATUS_SUCCESS)
      status = cublasLtMatmulAlgoGetHeuristic(handle(), op_, a_, a_, c_, c_, pref, kCandidates, out.result,
                                              &out.count);
    cublasLtMatmulPreferenceDestroy(pref);
    LADDER_CUBLAS(status);
    if (out.count == 0) throw CudaError("cublasLt proposes no " + what_ + " algorithm for this shape");
    return out;
  }

  void run(const cublasLtMatmulAlgo_t& algo, const void* a, float* cov, float alpha, void* workspace,
           std::size_t workspace_bytes, cudaStream_t stream) const {
    const float beta = 0.f;
    LADDER_CUBLAS(cublasLtMatmul(handle(), op_, &alpha, a, a_, a, a_, &beta, cov, c_, cov, c_, &algo,
                                 workspace, workspace_bytes, stream));
  }

 private:
  Operand a_shape_;
  std::string what_;
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

[[maybe_unused]] int split_k_of(const cublasLtMatmulAlgo_t& algo) {
  int split = 1;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &split, sizeof split, &written) !=
      CUBLAS_STATUS_SUCCESS)
    return 0;  // not recorded
  return std::max(split, 1);
}

// The searched product, ready to enqueue: the winning algorithm, its workspace, and what the
// search found.
struct Searched {
  std::shared_ptr<Product> product;
  std::shared_ptr<DeviceBuffer<float>> workspace;
  cublasLtMatmulHeuristicResult_t best{};
  float alpha = 0;
  std::map<std::string, double> facts;

  void run(const void* a, float* cov, cudaStream_t stream) const {
    product->run(best.algo, a, cov, alpha, workspace->get(), best.workspaceSize, stream);
  }
};

// Times every candidate on scratch matrices of the run's shape (the time of a GEMM does not
// depend on the values) and keeps the fastest. Called by a step's set-up, which runs before
// the run's own buffers are made, so the scratch (A's size, C's and the workspace) never sits
// beside them.
[[maybe_unused]] Searched search(std::shared_ptr<Product> product, float alpha) {
  const Operand& a = product->operand();
  const std::size_t element = a.type == CUDA_R_16F ? 2 : 4;
  Searched out{product, std::make_shared<DeviceBuffer<float>>(kWorkspaceBytes / sizeof(float)), {}, alpha, {}};
  const Candidates candidates = product->candidates();
  float best_ms = 0, first_ms = 0;
  bool found = false;
  {
    DeviceBuffer<float> scratch(std::size_t(ceil_div(a.ld * a.cols * std::int64_t(element), 4))),
        c(std::size_t(a.n() * a.n()));
    scratch.fill_bytes(0, nullptr);
    for (int i = 0; i < candidates.count; ++i) {
      const cublasLtMatmulHeuristicResult_t& cand = candidates.result[i];
      try {
        const float ms = time_algo([&] {
          product->run(cand.algo, scratch.get(), c.get(), alpha, out.workspace->get(), cand.workspaceSize, nullptr);
        }, nullptr);
        if (i == 0) first_ms = ms;
        if (!found || ms < best_ms) best_ms = ms, out.best = cand, found = true;
      } catch (const CudaError&) {
        // A candidate the library cannot run after all is no candidate.
      }
    }
  }
  if (!found) throw CudaError("cublasLt could run none of its " + std::to_string(candidates.count) + " " +
                              product->what() + " algorithms for this shape");
  int algo_id = 0;
  std::size_t written = 0;
  cublasLtMatmulAlgoConfigGetAttribute(&out.best.algo, CUBLASLT_ALGO_CONFIG_ID, &algo_id, sizeof algo_id, &written);
  out.facts = {{"algorithms_tried", double(candidates.count)},
               {"algorithm_id", double(algo_id)},
               {"split_k", double(split_k_of(out.best.algo))},
               {"workspace_bytes", double(out.best.workspaceSize)},
               {"search_best_ms", double(best_ms)}};
  if (first_ms > 0) out.facts["search_first_guess_ms"] = double(first_ms);
  return out;
}

}  // namespace
}  // namespace ladder::covariance::lt
