// What host and device code share: LADDER_HD marks helpers that run on both sides (cell
// updates, index maps, dominance tests), so the CPU tests cover the very code the kernels run;
// ceil_div sizes every grid, tile count and rounded-up stride; kFullWarp is the member mask of
// warp-wide intrinsics (__shfl_sync, __ballot_sync...) when the whole warp takes part.
#pragma once
#ifdef __CUDACC__
#define LADDER_HD __host__ __device__
#else
#define LADDER_HD
#endif

namespace ladder {

// a / b rounded up, for a >= 0 and b > 0; the type is the usual arithmetic conversion's.
template <class A, class B>
LADDER_HD constexpr auto ceil_div(A a, B b) {
  return (a + b - 1) / b;
}

inline constexpr unsigned kFullWarp = 0xffffffffu;

}  // namespace ladder
