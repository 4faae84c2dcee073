// Peer: cuBLAS's FP32 emulation through BF16x9 (CUBLAS_COMPUTE_32F_EMULATED_16BFX9, CUDA 12.9
// and later): each FP32 input split into three BF16 parts and the nine products summed in FP32,
// FP32-accurate on the BF16 tensor cores. It is what a user would pick for an FP32-accurate
// product on tensor cores, the rival of our 3xTF32 step. The handle's emulation strategy is
// eager, so cuBLAS emulates wherever it can rather than only where it judges it faster. The
// product is cublas_sgemm's (the full symmetric matrix, every entry written); validated at the
// FP32 tolerance. Asking is not getting: on Hopper (sm_90, cuBLAS 13.0) the profile shows the very
// kernel cublas_sgemm runs (cutlass_80_simt_sgemm_256x128_8x4_nt_align1, FMA pipe, no tensor
// pipe) and the same time, so the label says what was asked, and the profile says what ran.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "cublas_bf16x9",
     .step = 15,
     .label = "cuBLAS GEMM, BF16x9 asked",
     .change = "peer: cuBLAS GEMM with FP32 emulated through BF16x9 on the tensor cores (eager)",
     .role = Role::peer,
     .impl = cublas_setup(CUBLAS_DEFAULT_MATH, gemm_ex<CUBLAS_COMPUTE_32F_EMULATED_16BFX9>, true),
     .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
