// The mean and centring stages every covariance GPU step runs first (see gpu_step.cuh).
#include <cuda_fp16.h>

#include "gpu_step.cuh"

namespace ladder::covariance {
namespace {

constexpr int kMeanRows = 1024;        // rows per chunk in the mean kernel
constexpr unsigned kMaxGridY = 65535;  // the grid's y dimension limit
// Row tiles per block of the transposing kernels: a block's set-up (its columns' means and
// scales) is paid once for several tiles. One tile per block spent more issue slots on set-up
// than on moving data (Nsight Compute: the TF32 kernel issue-bound at 74%, DRAM at 63%).
constexpr std::int64_t kTilesPerBlock = 16;

// Blocks along y for `row_tiles` tiles of rows: kTilesPerBlock each, within the grid's limit.
unsigned row_blocks(std::int64_t row_tiles) {
  const std::int64_t blocks = ceil_div(row_tiles, kTilesPerBlock);
  return unsigned(blocks < std::int64_t(kMaxGridY) ? blocks : kMaxGridY);
}

// v rounded to nearest TF32 (10-bit mantissa), its low 13 bits zero.
__device__ __forceinline__ float round_tf32(float v) {
  std::uint32_t t;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(v));
  return __uint_as_float(t & 0xffffe000u);
}

// Block (x, y) sums chunks y, y + gridDim.y, ... of kMeanRows rows for its 256 columns, so any
// m fits the y dimension's limit. kBounds: also the largest |D[r][j] - D[0][j]| of the chunks,
// combined by an integer max on its bits (non-negative floats order as their bits do).
template <bool kBounds>
__global__ void column_sums_kernel(const float* data, float* sums, float* bounds,
                                   std::int64_t m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const float first = kBounds ? data[j] : 0.f;
  float s = 0.f, far = 0.f;
  for (std::int64_t r0 = std::int64_t(blockIdx.y) * kMeanRows; r0 < m;
       r0 += std::int64_t(gridDim.y) * kMeanRows) {
    const std::int64_t r1 = r0 + kMeanRows < m ? r0 + kMeanRows : m;
    for (std::int64_t r = r0; r < r1; ++r) {
      const float v = data[r * n + j];  // a warp reads 32 adjacent words
      s += v;
      if (kBounds) far = fmaxf(far, fabsf(v - first));
    }
  }
  atomicAdd(sums + j, s);
  if (kBounds) atomicMax(reinterpret_cast<int*>(bounds) + j, __float_as_int(far));
}

// Thread per element in memory order: a warp reads and writes 32 adjacent words.
__global__ void centre_coalesced_kernel(const float* data, const float* sums, float* x,
                                        std::int64_t total, int n, float inv_m) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < total) x[e] = data[e] - sums[e % n] * inv_m;
}

// Thread per row: at each step a warp touches 32 words n floats apart.
__global__ void centre_strided_kernel(const float* data, const float* sums, float* x,
                                      std::int64_t m, int n, float inv_m) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= m) return;
  for (int j = 0; j < n; ++j) x[r * n + j] = data[r * n + j] - sums[j] * inv_m;
}

// Padded rows: thread x of block (x, y) writes columns 4c .. 4c + 3 (c = blockIdx.x *
// blockDim.x + x) of rows y, y + gridDim.y, ... as one 16-byte store; columns n .. ld - 1 are
// zeros. With tf32, values are rounded to nearest TF32 (low 13 bits zero).
__global__ void centre_padded_kernel(const float* data, const float* sums, float* x,
                                     std::int64_t m, int n, int ld, float inv_m, bool tf32) {
  const int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= ld) return;
  float mean[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) mean[q] = c + q < n ? sums[c + q] * inv_m : 0.f;
#pragma unroll 2
  for (std::int64_t r = blockIdx.y; r < m; r += gridDim.y) {
    float v[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      v[q] = c + q < n ? data[r * n + c + q] - mean[q] : 0.f;
      if (tf32) v[q] = round_tf32(v[q]);
    }
    *reinterpret_cast<float4*>(x + r * ld + c) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// X^T through shared memory: block (x, y) of 32 x 8 threads moves 32 rows x 32 columns of D
// at a time (rows 32 y, 32 (y + gridDim.y), ... up to the padded row length ld: several tiles
// a block, see kTilesPerBlock), reading rows and writing rows of X^T 128 bytes a warp. Rows of
// X^T past m are zeros. A thread's rows are counted from 0 so that the loops over them unroll.
__global__ void centre_transposed_kernel(const float* data, const float* sums, float* xt,
                                         float* xt_lo, std::int64_t m, int n, std::int64_t ld,
                                         float inv_m) {
  __shared__ float tile[32][33];  // 33: the column reads fall in 32 banks
  const int c0 = blockIdx.x * 32, tx = threadIdx.x, ty = threadIdx.y;
  const float mean = c0 + tx < n ? sums[c0 + tx] * inv_m : 0.f;
  for (std::int64_t r0 = std::int64_t(blockIdx.y) * 32; r0 < ld;
       r0 += std::int64_t(gridDim.y) * 32) {
#pragma unroll
    for (int i = 0; i < 32 / 8; ++i) {  // k = ty, ty + 8, ...
      const int k = ty + 8 * i;
      const std::int64_t r = r0 + k;
      tile[k][tx] = r < m && c0 + tx < n ? data[r * n + c0 + tx] - mean : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 32 / 8; ++i) {  // k = ty, ty + 8, ...
      const int k = ty + 8 * i;
      const std::int64_t c = c0 + k, r = r0 + tx;
      if (c >= n || r >= ld) continue;
      const float v = tile[tx][k], hi = round_tf32(v);
      xt[c * ld + r] = hi;
      if (xt_lo) xt_lo[c * ld + r] = round_tf32(v - hi);  // v - hi is exact
    }
    __syncthreads();
  }
}

// The FP16 layouts' scale of a feature: 2^e with every |X[r][j]| * 2^e below 2^14, a quarter
// of FP16's range, from a bound of |X[r][j]|: |D[r][j] - D[0][j]| + |D[0][j] - mean|. The
// second term is taken with the mean as computed, so a rounded mean cannot push a value past
// the bound. The exponent is held where 2^e and 2^-e stay normal floats.
__device__ __forceinline__ int f16_exponent(float bound) {
  int e = 0;
  frexpf(bound, &e);  // bound < 2^e; e = 0 for 0
  if (!(bound < INFINITY)) e = 128;
  return 14 - max(-110, min(e, 128));
}

// As centre_transposed_kernel, into halves: a block moves 64 rows x 32 columns of D at a time,
// and a thread writes two neighbouring rows of X^T as one half2 (a warp 128 bytes).
__global__ void centre_transposed_f16_kernel(const float* data, const float* sums,
                                             const float* bounds, __half2* xt, __half2* xt_lo,
                                             float* unscale, std::int64_t m, int n,
                                             std::int64_t ld, float inv_m) {
  __shared__ float tile[64][33];
  const int c0 = blockIdx.x * 32, tx = threadIdx.x, ty = threadIdx.y;
  const bool column = c0 + tx < n;
  const float mean = column ? sums[c0 + tx] * inv_m : 0.f;
  const int e = column ? f16_exponent(bounds[c0 + tx] + fabsf(data[c0 + tx] - mean)) : 0;
  const float scale = ldexpf(1.f, e);
  if (column && blockIdx.y == 0 && ty == 0) unscale[c0 + tx] = ldexpf(1.f, -e);
  for (std::int64_t r0 = std::int64_t(blockIdx.y) * 64; r0 < ld;
       r0 += std::int64_t(gridDim.y) * 64) {
#pragma unroll
    for (int i = 0; i < 64 / 8; ++i) {  // k = ty, ty + 8, ...
      const int k = ty + 8 * i;
      const std::int64_t r = r0 + k;
      tile[k][tx] = r < m && column ? (data[r * n + c0 + tx] - mean) * scale : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 32 / 8; ++i) {  // k = ty, ty + 8, ...
      const int k = ty + 8 * i;
      const std::int64_t c = c0 + k, r = r0 + 2 * tx;
      if (c >= n || r >= ld) continue;  // ld is even: both rows or neither
      const float2 v = make_float2(tile[2 * tx][k], tile[2 * tx + 1][k]);
      const __half2 hi = __float22half2_rn(v);
      xt[(c * ld + r) >> 1] = hi;
      if (xt_lo) {  // v - hi is exact in FP32
        const float2 h = __half22float2(hi);
        xt_lo[(c * ld + r) >> 1] = __float22half2_rn(make_float2(v.x - h.x, v.y - h.y));
      }
    }
    __syncthreads();
  }
}

}  // namespace

void launch_centre_transposed_f16(const float* data, const float* sums, const float* bounds,
                                  void* xt, void* xt_lo, float* unscale, std::int64_t m,
                                  std::int64_t n, std::int64_t ld, cudaStream_t stream) {
  const float inv_m = static_cast<float>(1.0 / double(m));
  const dim3 grid(unsigned(ceil_div(n, 32)), row_blocks(ceil_div(ld, 64)));
  centre_transposed_f16_kernel<<<grid, dim3(32, 8), 0, stream>>>(
      data, sums, bounds, static_cast<__half2*>(xt), static_cast<__half2*>(xt_lo), unscale, m,
      int(n), ld, inv_m);
  LADDER_CUDA_LAUNCH("centre_transposed_f16_kernel");
}

void launch_centre_transposed(const float* data, const float* sums, float* xt, float* xt_lo,
                              std::int64_t m, std::int64_t n, std::int64_t ld,
                              cudaStream_t stream) {
  const float inv_m = static_cast<float>(1.0 / double(m));
  const dim3 grid(unsigned(ceil_div(n, 32)), row_blocks(ceil_div(ld, 32)));
  centre_transposed_kernel<<<grid, dim3(32, 8), 0, stream>>>(data, sums, xt, xt_lo, m, int(n),
                                                             ld, inv_m);
  LADDER_CUDA_LAUNCH("centre_transposed_kernel");
}

void launch_centre_padded(const float* data, const float* sums, float* x, std::int64_t m,
                          std::int64_t n, std::int64_t ld, bool tf32, cudaStream_t stream) {
  const int threads = 128;
  const float inv_m = static_cast<float>(1.0 / double(m));
  const std::int64_t quads = ld / 4;  // ld is a multiple of 4, X 16-byte aligned
  const dim3 grid(unsigned(ceil_div(quads, threads)),
                  unsigned(m < std::int64_t(kMaxGridY) ? m : kMaxGridY));
  centre_padded_kernel<<<grid, threads, 0, stream>>>(data, sums, x, m, int(n), int(ld), inv_m,
                                                     tf32);
  LADDER_CUDA_LAUNCH("centre_padded_kernel");
}

void launch_column_sums(const float* data, float* sums, float* bounds, std::int64_t m,
                        std::int64_t n, cudaStream_t stream) {
  const int threads = 256;
  const std::int64_t chunks = ceil_div(m, kMeanRows);
  const dim3 grid(unsigned(ceil_div(n, threads)),
                  unsigned(chunks < kMaxGridY ? chunks : kMaxGridY));
  if (bounds)
    column_sums_kernel<true><<<grid, threads, 0, stream>>>(data, sums, bounds, m, int(n));
  else
    column_sums_kernel<false><<<grid, threads, 0, stream>>>(data, sums, bounds, m, int(n));
  LADDER_CUDA_LAUNCH("column_sums_kernel");
}

void launch_centre(const float* data, const float* sums, float* x, std::int64_t m,
                   std::int64_t n, bool strided, cudaStream_t stream) {
  const int threads = 256;
  const float inv_m = static_cast<float>(1.0 / double(m));
  if (strided) {
    centre_strided_kernel<<<unsigned(ceil_div(m, threads)), threads, 0, stream>>>(data, sums, x, m,
                                                                                 int(n), inv_m);
    LADDER_CUDA_LAUNCH("centre_strided_kernel");
  } else {
    const std::int64_t total = m * n;
    centre_coalesced_kernel<<<unsigned(ceil_div(total, threads)), threads, 0, stream>>>(
        data, sums, x, total, int(n), inv_m);
    LADDER_CUDA_LAUNCH("centre_coalesced_kernel");
  }
}

}  // namespace ladder::covariance
