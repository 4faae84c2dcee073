// Skyline: rewrites of the branch-free nested loop (DWE/ALR), timed against the naive step's
// kernel, outside the ladder. Not part of the build: it backs the paragraph "Why no
// branch-free nested loop reaches 3x naive on Hopper" of variants/skyline/README.md, whose
// numbers (results/reference/h100/development/skyline-branch-free-rewrites.txt) it printed on an H100.
// It generates its own anticorrelated points (the Borzsonyi-Kossmann-Stocker formula, one
// sequential stream: not the study's per-point streams, so the skyline differs slightly from
// `ladder gen skyline`'s) and checks that every kernel returns the same skyline as the first.
//   nvcc -O3 -arch=sm_90 -o rewrites scripts/skyline_branch_free_rewrites.cu
//   ./rewrites 1000000 8; ./rewrites 1000000 16
// Kernels: naive (today's step 4), alr_cur (today's step 7), grp<G> (own row in shared
// memory, tile attribute-major, G tile points per pass over the attributes, and/and
// accumulators; with the stride unpadded it is DWE's layout), grpf<G> (the same with max/min
// of the differences), ct<D> (d compiled in, own point in registers, 16-byte broadcast tile
// rows).
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <vector>
#include <random>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

struct P { const float* rows; const float* cols; int64_t n; int d; int* member; };

__device__ bool dominates(const float* p, const float* q, int d) {
  bool s = false;
  for (int k = 0; k < d; ++k) { if (p[k] > q[k]) return false; s |= p[k] < q[k]; }
  return s;
}
__device__ int dominates_bf(const float* p, const float* q, int d) {
  int nw = 1, eq = 1;
  for (int k = 0; k < d; ++k) { nw &= int(p[k] <= q[k]); eq &= int(p[k] == q[k]); }
  return nw ^ eq;
}

// current naive / alr
template <bool BF, bool COLS>
__global__ void cur(P pts, int stride) {
  extern __shared__ float smem[];
  float* own = smem; float* tile = smem + blockDim.x * stride;
  int64_t first = int64_t(blockIdx.x) * blockDim.x, i = first + threadIdx.x;
  auto load = [&](float* to, int64_t f) {
    int64_t ii = f + threadIdx.x;
    if (ii < pts.n) for (int k = 0; k < pts.d; ++k)
      to[threadIdx.x * stride + k] = COLS ? pts.cols[k * pts.n + ii] : pts.rows[ii * pts.d + k];
  };
  load(own, first);
  bool alive = i < pts.n;
  for (int64_t base = 0; base < pts.n; base += blockDim.x) {
    __syncthreads(); load(tile, base); __syncthreads();
    int count = pts.n - base < blockDim.x ? int(pts.n - base) : int(blockDim.x);
    if (alive) {
      const float* o = own + threadIdx.x * stride;
      if (BF) { int any = 0; for (int j = 0; j < count; ++j) any |= dominates_bf(tile + j * stride, o, pts.d); alive = !any; }
      else { for (int j = 0; j < count; ++j) if (dominates(tile + j * stride, o, pts.d)) { alive = false; break; } }
    }
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

// Grouped: own rows (stride) in smem, tile attribute-major (d x T) in smem, G tile points per
// pass over the attributes.
template <int G>
__global__ void grp(P pts, int stride) {
  extern __shared__ float smem[];
  const int T = blockDim.x;
  float* own = smem; float* tile = smem + T * stride;
  int64_t first = int64_t(blockIdx.x) * T, i = first + threadIdx.x;
  for (int k = 0; k < pts.d; ++k) own[threadIdx.x * stride + k] = i < pts.n ? pts.cols[k * pts.n + i] : 0.f;
  bool alive = i < pts.n;
  const float* o = own + threadIdx.x * stride;
  for (int64_t base = 0; base < pts.n; base += T) {
    __syncthreads();
    int64_t ii = base + threadIdx.x;
    for (int k = 0; k < pts.d; ++k) tile[k * T + threadIdx.x] = ii < pts.n ? pts.cols[k * pts.n + ii] : INFINITY;
    __syncthreads();
    if (alive) {
      int any = 0;
      for (int j0 = 0; j0 < T; j0 += G) {
        int le[G], eq[G];
#pragma unroll
        for (int g = 0; g < G; ++g) le[g] = 1, eq[g] = 1;
        const float* t = tile + j0;
        for (int k = 0; k < pts.d; ++k) {
          const float ok = o[k];
          float tv[G];
#pragma unroll
          for (int g = 0; g < G; g += 4) { float4 v = *reinterpret_cast<const float4*>(t + k * T + g); tv[g] = v.x; tv[g+1] = v.y; tv[g+2] = v.z; tv[g+3] = v.w; }
#pragma unroll
          for (int g = 0; g < G; ++g) { le[g] &= int(tv[g] <= ok); eq[g] &= int(tv[g] == ok); }
        }
#pragma unroll
        for (int g = 0; g < G; ++g) any |= le[g] ^ eq[g];
      }
      alive = !any;
    }
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

// Grouped with float max/min of differences.
template <int G>
__global__ void grpf(P pts, int stride) {
  extern __shared__ float smem[];
  const int T = blockDim.x;
  float* own = smem; float* tile = smem + T * stride;
  int64_t first = int64_t(blockIdx.x) * T, i = first + threadIdx.x;
  for (int k = 0; k < pts.d; ++k) own[threadIdx.x * stride + k] = i < pts.n ? pts.cols[k * pts.n + i] : 0.f;
  bool alive = i < pts.n;
  const float* o = own + threadIdx.x * stride;
  for (int64_t base = 0; base < pts.n; base += T) {
    __syncthreads();
    int64_t ii = base + threadIdx.x;
    for (int k = 0; k < pts.d; ++k) tile[k * T + threadIdx.x] = ii < pts.n ? pts.cols[k * pts.n + ii] : INFINITY;
    __syncthreads();
    if (alive) {
      int any = 0;
      for (int j0 = 0; j0 < T; j0 += G) {
        float mx[G], mn[G];
#pragma unroll
        for (int g = 0; g < G; ++g) mx[g] = -INFINITY, mn[g] = INFINITY;
        const float* t = tile + j0;
        for (int k = 0; k < pts.d; ++k) {
          const float ok = o[k];
          float tv[G];
#pragma unroll
          for (int g = 0; g < G; g += 4) { float4 v = *reinterpret_cast<const float4*>(t + k * T + g); tv[g] = v.x; tv[g+1] = v.y; tv[g+2] = v.z; tv[g+3] = v.w; }
#pragma unroll
          for (int g = 0; g < G; ++g) { float df = tv[g] - ok; mx[g] = fmaxf(mx[g], df); mn[g] = fminf(mn[g], df); }
        }
#pragma unroll
        for (int g = 0; g < G; ++g) any |= (mx[g] <= 0.f) & (mn[g] < 0.f);
      }
      alive = !any;
    }
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

// Compile-time D, own point in registers, tile rows of D floats, vector broadcast loads.
template <int D>
__global__ void ct(P pts) {
  extern __shared__ float smem[];
  const int T = blockDim.x;
  float* tile = smem;
  int64_t first = int64_t(blockIdx.x) * T, i = first + threadIdx.x;
  float o[D];
#pragma unroll
  for (int k = 0; k < D; ++k) o[k] = i < pts.n ? pts.cols[k * pts.n + i] : 0.f;
  bool alive = i < pts.n;
  for (int64_t base = 0; base < pts.n; base += T) {
    __syncthreads();
    int64_t ii = base + threadIdx.x;
#pragma unroll
    for (int k = 0; k < D; ++k) tile[threadIdx.x * D + k] = ii < pts.n ? pts.cols[k * pts.n + ii] : INFINITY;
    __syncthreads();
    if (alive) {
      int any = 0;
#pragma unroll 2
      for (int j = 0; j < T; ++j) {
        float t[D];
#pragma unroll
        for (int k = 0; k < D; k += 4) { float4 v = *reinterpret_cast<const float4*>(tile + j * D + k); t[k] = v.x; t[k+1] = v.y; t[k+2] = v.z; t[k+3] = v.w; }
        bool le = true, eq = true;
#pragma unroll
        for (int k = 0; k < D; ++k) { le = le && t[k] <= o[k]; eq = eq && t[k] == o[k]; }
        any |= le & !eq;
      }
      alive = !any;
    }
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

static double u(std::mt19937_64& r) { return std::uniform_real_distribution<double>(0, 1)(r); }
static double peak(std::mt19937_64& r, double a, double b, int k) { double s = 0; for (int i = 0; i < k; ++i) s += u(r); return a + (b - a) * s / k; }

int main(int argc, char** argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 1000000; int d = argc > 2 ? atoi(argv[2]) : 8;
  std::vector<float> rows(n * d);
  std::mt19937_64 r(42);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<double> x(d);
    for (;;) {
      double v = peak(r, 0.25, 0.75, 12), l = std::min(v, 1 - v);
      for (int k = 0; k < d; ++k) x[k] = v;
      for (int k = 0; k < d; ++k) { double h = -l + 2 * l * u(r); x[k] += h; x[(k + 1) % d] -= h; }
      bool ok = true; for (int k = 0; k < d; ++k) ok &= x[k] >= 0 && x[k] <= 1;
      if (ok) break;
    }
    for (int k = 0; k < d; ++k) rows[i * d + k] = float(x[k]);
  }
  std::vector<float> cols(n * d);
  for (int64_t i = 0; i < n; ++i) for (int k = 0; k < d; ++k) cols[k * n + i] = rows[i * d + k];
  float *drow, *dcol; int* dm;
  CK(cudaMalloc(&drow, n * d * 4)); CK(cudaMalloc(&dcol, n * d * 4)); CK(cudaMalloc(&dm, n * 4));
  CK(cudaMemcpy(drow, rows.data(), n * d * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, cols.data(), n * d * 4, cudaMemcpyHostToDevice));
  P p{drow, dcol, n, d, dm};
  std::vector<int> ref;
  auto run = [&](const char* name, auto launch) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    CK(cudaMemset(dm, 0xff, n * 4));
    launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<float> ts;
    for (int rep = 0; rep < 3; ++rep) {
      CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
      float ms; CK(cudaEventElapsedTime(&ms, a, b)); ts.push_back(ms);
    }
    std::sort(ts.begin(), ts.end());
    std::vector<int> m(n); CK(cudaMemcpy(m.data(), dm, n * 4, cudaMemcpyDeviceToHost));
    long sz = 0; for (int v : m) sz += v;
    long diff = 0; if (ref.empty()) ref = m; else for (int64_t i = 0; i < n; ++i) diff += m[i] != ref[i];
    printf("%-12s %9.1f ms  skyline %ld  diff %ld\n", name, ts[1], sz, diff);
  };
  const int T = 256;
  unsigned blocks = unsigned((n + T - 1) / T);
  int s0 = d, s1 = d % 2 ? d : d + 1;
  run("naive", [&] { cur<false, false><<<blocks, T, 2 * T * s0 * 4>>>(p, s0); });
  run("alr_cur", [&] { cur<true, true><<<blocks, T, 2 * T * s1 * 4>>>(p, s1); });
  run("dwe_grp8", [&] { grp<8><<<blocks, T, 2 * T * s1 * 4>>>(p, s0); });
  run("alr_grp4", [&] { grp<4><<<blocks, T, 2 * T * s1 * 4>>>(p, s1); });
  run("alr_grp8", [&] { grp<8><<<blocks, T, 2 * T * s1 * 4>>>(p, s1); });
  run("alr_grp16", [&] { grp<16><<<blocks, T, 2 * T * s1 * 4>>>(p, s1); });
  run("alr_grpf8", [&] { grpf<8><<<blocks, T, 2 * T * s1 * 4>>>(p, s1); });
  if (d == 8) run("ct8", [&] { ct<8><<<blocks, T, T * 8 * 4>>>(p); });
  if (d == 16) run("ct16", [&] { ct<16><<<blocks, T, T * 16 * 4>>>(p); });
  return 0;
}
