// The lower-triangle product of steps 12 (TF32) and 13 (3xTF32) on Hopper's own tensor-core
// path: wgmma (a warpgroup's asynchronous matrix multiply, operands read straight from shared
// memory) fed by TMA (the copy engine that moves a whole 2-D box of global memory into shared
// memory, swizzled, and signals an mbarrier). Steps 9-10 read every fragment into registers
// with shared loads and were held by that traffic (the MIO queue); here no thread touches an
// operand.
//
// TF32 wgmma reads both operands with k contiguous, so the centring stage writes X^T (rows =
// features, k = rows of X; Layout::transposed). A 128 x 128 tile of C on or below the diagonal
// takes, per k-tile of 32 rows of X, two strips of X^T, 128 features x 32 values each: one
// 128-byte row per feature, which TMA lays out in the 128-byte swizzle wgmma reads without
// bank conflicts. A block is two consumer warpgroups (64 rows of the tile each, one
// m64n128k8 wgmma, or m64n256k8 at 256 columns, per 8 rows of X) and a producer warp whose one
// thread issues the TMA copies into a ring of stages: "full" barriers (TMA bytes landed) and
// "empty" barriers (both warpgroups' wgmma done with a stage). The strips past n or past m
// are zero-filled by TMA, so any shape works. A diagonal tile copies its one strip once.
// Step 12 by default gives a block two neighbouring tiles of a tile row (`columns` 256,
// m64n256k8): they share the i strip, so a k-tile reads 48 KiB for two tiles instead of 64 KiB,
// and the step's L2 traffic falls by a quarter (21% less covariance time at the paper size).
// Step 13 holds two accumulators per thread and stays at 128 columns.
//
// kSplit (3xTF32): the stage also holds the strips of X^T_lo (each value's rounding error,
// TF32), and every `chunk` k-tiles' products lo*hi + hi*lo + hi*hi are summed on the tensor
// cores into a fresh accumulator, then added into the running sum with an FP32 add, which
// rounds (the tensor cores' own additions truncate: over a slice's thousands of k-steps that
// bias would be TF32-sized; steps 9-10 found the same).
//
// FP16 (steps 17-18, Layout::transposed_f16*): the same kernel on halves. A k-tile is still
// 128 bytes a feature, now 64 rows of X, and each wgmma (k = 16) still reads 32 bytes of it, so
// the strips, swizzle and descriptors are unchanged; the tensor cores do twice the products
// per byte, at twice TF32's rate. The stored sums are scaled back by each feature's power of
// two (DeviceData::unscale).
//
// The m rows are split into slices (split-K); a unit of work is a (tile, slice), and slices
// add their partial sums into a zeroed C with atomics. Every tile reads the same 2 GB of X^T,
// each strip shared by the ~20 tiles of its row and column, so whether a strip comes from L2
// or again from DRAM depends on those tiles reading it at about the same time. Launching a
// block per unit (`schedule` grid) loses that after the first wave: a block that ends early
// hands its SM to a unit starting at its slice's first row, and the strips were read from DRAM
// about ten times over (Nsight Compute). The default `lockstep` schedule launches resident
// blocks only (cooperatively), each taking one unit per round, and a round's copies start once
// every block has issued the previous round's: 15-18% less covariance time at the paper size.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "../../harness/compiled_set.hpp"
#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"
#include "triangle_tiles.cuh"

namespace ladder::covariance::wgmma {

constexpr int kTile = 128;                       // C tile edge; 64 rows per warpgroup
constexpr int kRowBytes = 128;                   // a feature's bytes per k-tile
constexpr int kStripBytes = kTile * kRowBytes;   // one strip of a stage, 16 KiB
constexpr int kSteps = kRowBytes / 32;           // wgmmas per k-tile, 32 bytes of k each
// Rows of X per k-tile: 32 floats (TF32) or 64 halves.
template <class T>
constexpr int kK = kRowBytes / int(sizeof(T));
constexpr int kConsumers = 256;                  // two warpgroups
constexpr int kThreads = kConsumers + 32;        // and the producer warp
constexpr int kMinSliceRows = 2048, kMaxSplit = 32;

// A block's shared memory: kStages stages of an i strip and a j strip of kN features (128 or
// 256), and for kSplit their lo strips (i hi, j hi, i lo, j lo); how many blocks an SM's
// 228 KiB hold.
template <bool kSplit, int kStages, int kN = kTile>
struct Shape {
  static constexpr std::size_t j_bytes = std::size_t(kN / kTile) * kStripBytes;
  static constexpr std::size_t half_bytes = kStripBytes + j_bytes;  // i and j strips
  static constexpr int stages = kStages;
  static constexpr std::size_t stage_bytes = (kSplit ? 2 : 1) * half_bytes;
  static constexpr std::size_t smem_bytes = stages * stage_bytes + 1024;  // + 1 KiB alignment
  static constexpr int blocks_per_sm = 228 * 1024 / (smem_bytes + 1024) >= 2 ? 2 : 1;
};

// The settings compiled: stages and columns per block for step 12; k-tiles summed on the
// tensor cores before each FP32 add for step 13 (whose four-strip stages fit three to a block,
// and whose two accumulators a thread holds for 128 columns only).
using StageSet = CompiledSet<3, 4, 6>;
using ColumnSet = CompiledSet<128, 256>;
using ChunkSet = CompiledSet<1, 2, 4, 8>;
constexpr int kSplitStages = 3;

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// mbarriers: init, wait for a phase's completion (by its parity), arrive, expect TMA bytes.
__device__ __forceinline__ void bar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}
__device__ __forceinline__ void bar_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
__device__ __forceinline__ void bar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void bar_expect(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes)
               : "memory");
}

// TMA: the box at (row r of X, feature f) of X^T into dst; its bytes are counted on bar.
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, std::uint64_t* bar,
                                         int r, int f) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(r), "r"(f), "r"(smem_addr(bar))
      : "memory");
}

// wgmma's shared-memory operand descriptor for a strip in the 128-byte swizzle: rows of 128
// bytes, 8-row groups 1024 bytes apart (the stride field), layout type 1 = 128B swizzle. The
// k-step s of a k-tile starts 32 s bytes into the row: the descriptor's address moves by 2 s
// (in 16-byte units) and the hardware applies the swizzle to the address it forms.
__device__ __forceinline__ std::uint64_t descriptor(const void* strip) {
  return std::uint64_t((smem_addr(strip) & 0x3FFFF) >> 4) | (std::uint64_t(1) << 16) |
         (std::uint64_t(1024 >> 4) << 32) | (std::uint64_t(1) << 62);
}

__device__ __forceinline__ void mma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void mma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void mma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}

// D (64 x 128 or 64 x 256, FP32, this warpgroup's registers) = A B + (scale_d ? D : 0); A: 64
// features x 32 bytes of k, B: 128 or 256 features x 32 bytes of k, both from shared memory:
// k = 8 in TF32 or k = 16 in FP16 (whose form also names the operands' majorness: both K-major).
// The operand lists of the accumulators, registers 0-63 and 64-127 (m64n256 uses both).
#define LADDER_WGMMA_REGS_LOW \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define LADDER_WGMMA_REGS_HIGH \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define LADDER_WGMMA_OUT_LOW(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), \
  "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), \
  "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), \
  "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), \
  "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), \
  "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
  "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), \
  "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), \
  "+f"(d[63])
#define LADDER_WGMMA_OUT_HIGH(d) \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), \
  "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
  "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), \
  "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), \
  "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), \
  "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), \
  "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), \
  "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), \
  "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), \
  "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

template <class T, int kAcc>
__device__ __forceinline__ void mma(float (&d)[kAcc], std::uint64_t a, std::uint64_t b,
                                    int scale_d) {
  static_assert(kAcc == 64 || kAcc == 128, "64 x 128 or 64 x 256 accumulators");
  constexpr bool kHalf = sizeof(T) == 2;
  if constexpr (kAcc == 64 && !kHalf)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{" LADDER_WGMMA_REGS_LOW "}"
                 ", %64, %65, p, 1, 1;\n}\n"
                 : LADDER_WGMMA_OUT_LOW(d)
                 : "l"(a), "l"(b), "r"(scale_d));
  else if constexpr (kAcc == 64)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{" LADDER_WGMMA_REGS_LOW "}"
                 ", %64, %65, p, 1, 1, 0, 0;\n}\n"
                 : LADDER_WGMMA_OUT_LOW(d)
                 : "l"(a), "l"(b), "r"(scale_d));
  else if constexpr (!kHalf)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
                 "{" LADDER_WGMMA_REGS_LOW ", " LADDER_WGMMA_REGS_HIGH "}"
                 ", %128, %129, p, 1, 1;\n}\n"
                 : LADDER_WGMMA_OUT_LOW(d), LADDER_WGMMA_OUT_HIGH(d)
                 : "l"(a), "l"(b), "r"(scale_d));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
                 "{" LADDER_WGMMA_REGS_LOW ", " LADDER_WGMMA_REGS_HIGH "}"
                 ", %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : LADDER_WGMMA_OUT_LOW(d), LADDER_WGMMA_OUT_HIGH(d)
                 : "l"(a), "l"(b), "r"(scale_d));
}

// Keeps the compiler from moving accumulator reads or writes across an asynchronous wgmma.
template <int kAcc>
__device__ __forceinline__ void pin(float (&d)[kAcc]) {
#pragma unroll
  for (int q = 0; q < kAcc; ++q) asm volatile("" : "+f"(d[q])::"memory");
}

// The producer thread: a unit's k-tiles into the ring, once their stage is free. g0 is the
// ring position (k-tiles through it so far) at the unit's start. A j strip of 256 features is
// two 128-feature boxes, one after the other (the swizzle repeats every 8 rows). A diagonal
// unit (j0 = i0) copies its i strip only.
template <class T, bool kSplit, int kStages, int kN>
__device__ void produce(const CUtensorMap* hi, const CUtensorMap* lo, unsigned char* smem,
                        std::uint64_t* full, std::uint64_t* empty, int g0, int k_tiles,
                        std::int64_t r_begin, int i0, int j0) {
  using S = Shape<kSplit, kStages, kN>;
  const bool diagonal = i0 == j0;
  const unsigned bytes = unsigned((kSplit ? 2 : 1) * (diagonal ? kStripBytes : S::half_bytes));
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int g = g0 + kt, s = g % kStages;
    if (g >= kStages) bar_wait(&empty[s], (g / kStages + 1) & 1);
    unsigned char* st = smem + s * S::stage_bytes;
    const int r = int(r_begin + std::int64_t(kt) * kK<T>);
    bar_expect(&full[s], bytes);
#pragma unroll
    for (int h = 0; h < (kSplit ? 2 : 1); ++h) {  // hi, then lo
      unsigned char* half = st + h * S::half_bytes;
      const CUtensorMap* map = h == 0 ? hi : lo;
      tma_load(half, map, &full[s], r, i0);
      if (diagonal) continue;
#pragma unroll
      for (int b = 0; b < kN / kTile; ++b)
        tma_load(half + kStripBytes * (1 + b), map, &full[s], r, j0 + kTile * b);
    }
  }
}

// One warpgroup's products over a unit: rows i0 + 64 wg .. + 63 by its kN columns (kN / 2
// accumulators a thread), into `sum`. A diagonal unit's j strip is its i strip; at kN = 256 its
// second 128 columns lie above the diagonal and read whatever follows the i strip: computed,
// never stored. kChunk = 0 (TF32): the tensor cores accumulate into sum itself. kChunk
// > 0 (3xTF32): every kChunk k-tiles' products are summed on the tensor cores into `part`, which
// is then added into sum in FP32. A stage is released once the products reading it are done:
// the previous k-tile's, after this one's are issued (so the tensor cores always have work
// queued), except at a chunk's or the unit's end, where all are waited for. A warpgroup whose
// rows all lie past n (the last tile row) skips the products but still takes part in the
// barriers. g0: the ring position at the unit's start.
template <class T, bool kSplit, int kStages, int kChunk, int kN>
__device__ void consume(unsigned char* smem, std::uint64_t* full, std::uint64_t* empty, int g0,
                        int k_tiles, int wg, bool diagonal, bool idle, float (&sum)[kN / 2]) {
  using S = Shape<kSplit, kStages, kN>;
  constexpr int kAcc = kN / 2;
  static_assert(kChunk == 0 || kN == kTile, "3xTF32 holds two accumulators: 128 columns only");
  float part[kChunk > 0 ? kAcc : 1];
#pragma unroll
  for (int q = 0; q < kAcc; ++q) sum[q] = 0.f;
  float(&acc)[kAcc] = *reinterpret_cast<float(*)[kAcc]>(kChunk > 0 ? part : sum);
  int pending = -1;  // the stage of the previous k-tile, while its products may be running
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int g = g0 + kt, s = g % kStages;
    bar_wait(&full[s], (g / kStages) & 1);
    if (idle) {
      bar_arrive(&empty[s]);
      continue;
    }
    const unsigned char* st = smem + s * S::stage_bytes;
    const std::uint64_t a_hi = descriptor(st + wg * 64 * 128);
    const std::uint64_t b_hi = descriptor(diagonal ? st : st + kStripBytes);
    mma_fence();
    pin(acc);
    if (kSplit) {
      const std::uint64_t a_lo = descriptor(st + S::half_bytes + wg * 64 * 128);
      const std::uint64_t b_lo = descriptor(st + S::half_bytes + (diagonal ? 0 : kStripBytes));
      const bool fresh = kChunk > 0 && kt % kChunk == 0;  // part starts over
#pragma unroll
      for (int k = 0; k < kSteps; ++k) {  // small terms first
        mma<T>(acc, a_lo + 2 * k, b_hi + 2 * k, !(fresh && k == 0));
        mma<T>(acc, a_hi + 2 * k, b_lo + 2 * k, 1);
        mma<T>(acc, a_hi + 2 * k, b_hi + 2 * k, 1);
      }
    } else {
#pragma unroll
      for (int k = 0; k < kSteps; ++k) mma<T>(acc, a_hi + 2 * k, b_hi + 2 * k, 1);
    }
    mma_commit();
    // The wait depth is chosen at run time, so ptxas serialises the wgmmas (its C7518 note).
    // Fixing it at compile time for TF32 (unit's last stage released after the loop) removed
    // the note but ran 6% slower for step 12 and 2% for step 13 on the H100 (same machine).
    if ((kChunk > 0 && kt % kChunk == kChunk - 1) || kt == k_tiles - 1) {
      mma_wait<0>();
      pin(acc);
      if (kChunk > 0) {
#pragma unroll
        for (int q = 0; q < kAcc; ++q) sum[q] += part[kChunk > 0 ? q : 0];
      }
      if (pending >= 0) bar_arrive(&empty[pending]);
      bar_arrive(&empty[s]);
      pending = -1;
    } else {
      mma_wait<1>();
      if (pending >= 0) bar_arrive(&empty[pending]);
      pending = s;
    }
  }
  pin(sum);
}

// The lockstep schedule's round barrier: wait until `counter` (units whose copies every
// producer has issued) reaches `target`.
__device__ __forceinline__ void wait_for(const int* counter, int target) {
  for (;;) {
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
    if (v >= target) return;
    __nanosleep(256);
  }
}

// Unit u (`tiles` a slice, slice-major): its block of C (tile row and first tile column, from
// the table the set-up builds) and its rows of X.
struct Unit {
  int i0, j0, k_tiles;
  std::int64_t r_begin;
  __device__ Unit(int u, const int2* table, int tiles, std::int64_t m,
                  std::int64_t rows_per_slice, int k_rows) {
    const int2 t = table[u % tiles];
    i0 = t.x * kTile;
    j0 = t.y * kTile;
    r_begin = std::int64_t(u / tiles) * rows_per_slice;
    const std::int64_t r_end = m < r_begin + rows_per_slice ? m : r_begin + rows_per_slice;
    k_tiles = int(ceil_div(r_end - r_begin, k_rows));
  }
};

// Block b takes units b, b + gridDim.x, ... (one per "round"); the ring carries on from unit to
// unit, so the next unit's copies overlap this one's last products and its stores. With
// `progress` set (the lockstep schedule, a cooperative launch of resident blocks only), a
// producer starts round r's copies only once every producer has issued rounds < r: all blocks
// then read the same rows of X^T at about the same time, and the strips they share are read
// from DRAM once, not once per tile.
template <class T, bool kSplit, int kStages, int kChunk, int kN>
__global__ void __launch_bounds__(kThreads, (Shape<kSplit, kStages, kN>::blocks_per_sm))
    syrk_wgmma_kernel(const __grid_constant__ CUtensorMap hi,
                      const __grid_constant__ CUtensorMap lo, float* __restrict__ cov,
                      std::int64_t m, int n, const int2* table, int tiles, int units,
                      std::int64_t rows_per_slice, float inv_m, const float* unscale,
                      bool accumulate, int* progress) {
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __trap();  // built for sm_90a only; the step's limit keeps other devices from launching it
#else
  extern __shared__ unsigned char smem_raw[];
  __shared__ std::uint64_t full[kStages], empty[kStages];
  // The 128-byte swizzle repeats every 1024 bytes; stages start on that boundary.
  unsigned char* smem = smem_raw + ((1024 - smem_addr(smem_raw) % 1024) % 1024);
  const int tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      bar_init(&full[s], 1);
      bar_init(&empty[s], kConsumers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  int g = 0;  // ring position
  if (tid >= kConsumers) {  // the producer warp: one thread issues every copy
    if (tid != kConsumers) return;
    for (int u = blockIdx.x; u < units; u += gridDim.x) {
      const Unit unit(u, table, tiles, m, rows_per_slice, kK<T>);
      if (progress) wait_for(progress, u - int(blockIdx.x));
      produce<T, kSplit, kStages, kN>(&hi, &lo, smem, full, empty, g, unit.k_tiles, unit.r_begin,
                               unit.i0, unit.j0);
      if (progress) atomicAdd(progress, 1);
      g += unit.k_tiles;
    }
    return;
  }
  const int wg = tid / 128, warp = (tid % 128) / 32, lane = tid % 32;
  for (int u = blockIdx.x; u < units; u += gridDim.x) {
    const Unit unit(u, table, tiles, m, rows_per_slice, kK<T>);
    float sum[kN / 2];
    consume<T, kSplit, kStages, kChunk, kN>(smem, full, empty, g, unit.k_tiles, wg,
                                         unit.i0 == unit.j0, unit.i0 + 64 * wg >= n, sum);
    g += unit.k_tiles;
    // Accumulator q: row 16 warp + lane / 4 (+ 8 when q % 4 >= 2), column 8 (q / 4) + 2
    // (lane % 4) + q % 2 of the warpgroup's 64 x kN. FP16 sums come back by the features'
    // powers of two: exact products.
#pragma unroll
    for (int q = 0; q < kN / 2; ++q) {
      const int i = unit.i0 + 64 * wg + 16 * warp + lane / 4 + 8 * ((q >> 1) & 1);
      const int j = unit.j0 + 8 * (q >> 2) + 2 * (lane % 4) + (q & 1);
      float v = sum[q] * inv_m;
      if (unscale && i < n && j < n) v = unscaled(v, unscale, i, j);
      put(cov, n, i, j, v, accumulate);
    }
  }
#endif
}

// X^T (m values a row, row stride ld values, n rows) as TMA sees it: boxes of 128 bytes (32
// floats or 64 halves) x 128 rows, 128-byte swizzle, zeros outside. The driver's encoder is
// reached through the runtime, so nothing links libcuda.
template <class T>
CUtensorMap tensor_map(const float* xt, std::int64_t m, std::int64_t n, std::int64_t ld) {
  static const auto encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    LADDER_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                 cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("the CUDA driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(m), cuuint64_t(n)};
  const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(T)};
  const cuuint32_t box[2] = {kK<T>, kTile}, unit[2] = {1, 1};
  const CUtensorMapDataType type =
      sizeof(T) == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  const CUresult r = encode(&map, type, 2, const_cast<float*>(xt),
                            dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed (CUresult " + std::to_string(int(r)) +
                             ")");
  return map;
}

// The tensor maps of a copy of X^T (and of its rounding errors), encoded on a step's first call
// and kept while the copy stays where it is: the encoding is host work, and a driver call inside
// a profiler's replayed range is one range replay may refuse.
template <class T>
class TensorMaps {
 public:
  std::pair<CUtensorMap, CUtensorMap> of(const DeviceData& d, bool split) {
    const std::array<std::int64_t, 5> key = {std::int64_t(d.x), std::int64_t(d.x_lo), d.m, d.n, d.ld};
    if (!maps_ || key != key_) {
      const CUtensorMap hi = tensor_map<T>(d.x, d.m, d.n, d.ld);
      maps_ = {hi, split ? tensor_map<T>(d.x_lo, d.m, d.n, d.ld) : hi};
      key_ = key;
    }
    return *maps_;
  }

 private:
  std::array<std::int64_t, 5> key_{};
  std::optional<std::pair<CUtensorMap, CUtensorMap>> maps_;
};

// The blocks of C a slice's units cover, row by row: (tile row, first tile column) of every
// lower-triangle tile (kN = 128), or of every pair of neighbouring tiles in a tile row, the
// diagonal tile alone when a row has an odd count (kN = 256: the pair shares its i strip).
inline std::vector<int2> unit_table(std::int64_t n, int columns) {
  std::vector<int2> out;
  const int rows = int(ceil_div(n, kTile));
  for (int ti = 0; ti < rows; ++ti)
    for (int tj = 0; tj <= ti; tj += columns / kTile) out.push_back(make_int2(ti, tj));
  return out;
}

// The step's set-up: shared-memory opt-in, occupancy, split and the unit table, all before
// anything is timed.
template <class T, bool kSplit, int kStages, int kChunk, int kN>
Setup setup_for(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  using S = Shape<kSplit, kStages, kN>;
  constexpr auto kernel = syrk_wgmma_kernel<T, kSplit, kStages, kChunk, kN>;
  allow_shared_memory(kernel, S::smem_bytes);
  int bps = 0;
  LADDER_CUDA(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, kThreads, S::smem_bytes));
  bps = std::max(bps, 1);
  const std::int64_t m = std::max<std::int64_t>(prob.m, 1);
  const std::vector<int2> table = unit_table(prob.n, kN);
  const std::int64_t tiles = std::int64_t(table.size());
  // Rounds of the lockstep schedule wait for each other, so a last round part-full costs its
  // share of the time: at the paper size, 99% fill (5 slices, 8 rounds) ran 5% faster than 95%
  // (3 slices, 4.8 rounds).
  const std::int64_t rows = slice_rows(m, tiles, p.integer("split"), caps.sm_count * bps, kK<T>,
                                       kMinSliceRows, kMaxSplit, 0.99);
  const std::int64_t slices = ceil_div(m, rows);
  const std::int64_t units = tiles * slices;
  const bool lockstep = p.text("schedule") == "lockstep";
  const std::int64_t blocks = lockstep ? std::min<std::int64_t>(units, caps.sm_count * bps) : units;
  Setup out;
  out.facts = {{"tile", kTile},
               {"columns_per_block", kN},
               {"k_tile", kK<T>},
               {"stages", kStages},
               {"threads_per_block", kThreads},
               {"smem_bytes_per_block", double(S::smem_bytes)},
               {"blocks_per_sm", bps},
               {"tiles", double(tiles)},
               {"split", double(slices)},
               {"blocks", double(blocks)},
               {"products_per_term", kSplit ? 3.0 : 1.0}};
  if (kSplit) out.facts["chunk"] = kChunk;
  auto progress = std::make_shared<DeviceBuffer<int>>(lockstep ? 1 : 0);
  auto units_of_slice = std::make_shared<DeviceBuffer<int2>>(table);
  auto maps = std::make_shared<TensorMaps<T>>();
  out.enqueue = [rows, slices, tiles, units, blocks, kernel, progress, units_of_slice,
                 maps](const DeviceData& d, cudaStream_t stream) {
    const auto& [hi, lo] = maps->of(d, kSplit);
    const bool accumulate = slices > 1;
    if (accumulate)
      LADDER_CUDA(cudaMemsetAsync(d.cov, 0, sizeof(float) * std::size_t(d.n * d.n), stream));
    if (progress->get()) LADDER_CUDA(cudaMemsetAsync(progress->get(), 0, sizeof(int), stream));
    const float inv_m = static_cast<float>(1.0 / double(d.m));
    // The lockstep schedule's blocks wait for each other: a cooperative launch guarantees
    // that all of them are resident at once.
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = progress->get() ? 1 : 0;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(blocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = S::smem_bytes;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    config.stream = stream;
    LADDER_CUDA(cudaLaunchKernelEx(&config, kernel, hi, lo, d.cov, d.m, int(d.n),
                                   static_cast<const int2*>(units_of_slice->get()), int(tiles),
                                   int(units), rows, inv_m, d.unscale, accumulate,
                                   progress->get()));
    LADDER_CUDA_LAUNCH("syrk_wgmma_kernel");
  };
  return out;
}

// T: float (TF32) or __half (FP16, on the FP16 layouts).
template <class T, bool kSplit>
Setup setup(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  Setup out;
  if constexpr (kSplit)
    ChunkSet::exactly(p.integer("chunk"), [&](auto c) {
      out = setup_for<T, true, kSplitStages, decltype(c)::value, kTile>(prob, p, caps);
    }, "chunk");
  else
    StageSet::exactly(p.integer("stages"), [&](auto st) {
      ColumnSet::exactly(p.integer("columns"), [&](auto c) {
        out = setup_for<T, false, decltype(st)::value, 0, decltype(c)::value>(prob, p, caps);
      }, "columns");
    }, "stages");
  return out;
}

// (The step's Feature::wgmma_tma already refuses any device but compute capability 9.0.)
template <bool kSplit>
std::string limit(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  std::size_t smem = Shape<true, kSplitStages>::smem_bytes;
  if constexpr (!kSplit)
    StageSet::exactly(p.integer("stages"), [&](auto st) {
      ColumnSet::exactly(p.integer("columns"), [&](auto c) {
        smem = Shape<false, decltype(st)::value, decltype(c)::value>::smem_bytes;
      }, "columns");
    }, "stages");
  std::string why = shared_memory_reason(smem, "the TMA stages", caps);
  const std::int64_t split = p.integer("split");
  const std::int64_t slices = std::min<std::int64_t>(prob.m, split > 0 ? split : kMaxSplit);
  if (why.empty() && triangle_tiles(prob.n, kTile) * slices > 2147483647)
    why = "more than 2^31 - 1 units (tiles of the triangle x slices of the rows)";
  return why;
}

inline std::vector<ParamSpec> params(bool split, const char* default_value) {
  std::vector<ParamSpec> out{
      {"split", "0",
       "slices of the m rows (split-K, atomically summed); 0 = fill whole waves (rounds)",
       ParamSpec::Kind::integer, 0, 65535},
      {"schedule", "lockstep",
       "lockstep: resident blocks only, each starting a round of units once all have issued "
       "the previous round's copies; grid: a block per (tile, slice)",
       ParamSpec::Kind::text, 0, 0, {"grid", "lockstep"}}};
  if (split)
    out.push_back({"chunk", default_value,
                   "k-tiles summed on the tensor cores before each FP32 add (" +
                       ChunkSet::text() + ")",
                   ParamSpec::Kind::integer, 1, 8, ChunkSet::choices()});
  else {
    out.push_back({"stages", default_value, "k-tiles in the TMA ring (" + StageSet::text() + ")",
                   ParamSpec::Kind::integer, 3, 6, StageSet::choices()});
    out.push_back({"columns", "256",
                   "columns of C per block (" + ColumnSet::text() +
                       "; 256: two neighbouring tiles share their i strip, a quarter less "
                       "traffic, at most 4 stages)",
                   ParamSpec::Kind::integer, 128, 256, ColumnSet::choices()});
  }
  return out;
}

}  // namespace ladder::covariance::wgmma
