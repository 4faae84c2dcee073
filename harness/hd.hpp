// LADDER_HD marks helpers that run on both sides (cell updates, index maps, dominance tests),
// so the CPU tests cover the very code the kernels run.
#pragma once
#ifdef __CUDACC__
#define LADDER_HD __host__ __device__
#else
#define LADDER_HD
#endif
