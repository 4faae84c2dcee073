// ladder's driver for cuDTW++ (asbschmidt/cuDTW, Apache-2.0; Schmidt and Hundt, Euro-Par 2020):
// peers/dtw/cudtw.py compiles it with nvcc against the fetched src/include/ of the pinned commit
// and nothing else. It declares what cuDTW++'s own src/main.cu declares before including
// DTW.hpp (value_t, index_t, max_features and the constant-memory query cQuery) and calls
// cuDTW++'s own dispatcher, FullDTW::dist(), in database mode (query_type 0) as main.cu does.
// cuDTW++'s code is unchanged; main.cu itself (CBF generated inside, two GPUs, streamed batches,
// times printed but no distances) is not built.
//
//   cudtw-ladder SUBJECTS COUNT LENGTH QUERIES Q
//
// SUBJECTS holds COUNT series of LENGTH float32 values, QUERIES Q such series (raw, row after
// row). LENGTH is one of cuDTW++'s lengths (127, 255, 511, 1023, 2047) and COUNT a multiple of 8
// (dist() launches COUNT / (32 / group size) sub-warp blocks, rounding down). Both go to the
// device once, then "ready" is printed. Then one command a line on stdin, one answer line each:
//   run warp OUT | run subwarp OUT       (OUT: the rest of the line, a path)
//     -> "ok MS LAUNCHES": the distances of every query to every subject, Q x COUNT float32,
//        written to OUT; MS is the CUDA-event time of the run's launches; LAUNCHES how many
//        dist() calls it took.
//     -> "error WHY" for a command it cannot run or a CUDA error.
// End of input ends it.
//
// A run: the distance buffer is set to NaN bytes (outside the clock); then, between two CUDA
// events on one stream, for each group of queries: the group copied from the device copy of the
// queries into cQuery (device to device) and FullDTW::dist() called for it. `warp` is
// dist(subwarp = false), one query per call: shfl_FullDTW_<LENGTH>, a warp per subject.
// `subwarp` is dist(subwarp = true): sub_warp_DTW<g> (g = (LENGTH + 1) / 32 lanes per subject,
// 32 / g subjects per warp) for one query, sub_warp_DTW_multi_query<g, Q'> for groups of
// Q' = 16, 8, 4 or 2; a group is made no larger than keeps every cQuery read the kernel makes
// inside the array (it reads up to index Q' * LENGTH + 2g - 4); LENGTH 2047 has no sub-warp
// kernel. The distances are copied back after the clock stops.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

// As src/main.cu has them before it includes DTW.hpp.
typedef float value_t;     // data type for values
typedef uint64_t index_t;  // data type for indices
constexpr index_t max_features = (1UL << 16) / sizeof(value_t);
__constant__ value_t cQuery[max_features];

// main.cu includes this one first, at file scope: DTW.hpp includes the kernels inside its
// namespace FullDTW, and some of them include it again (<cmath> must not land in there).
#include "kernels/warp_znorm.hpp"
#include "DTW.hpp"

namespace {

bool check(cudaError_t code, const char* what, std::string& why) {
  if (code == cudaSuccess) return true;
  why = std::string(what) + ": " + cudaGetErrorString(code);
  return false;
}

bool read_all(const char* path, std::vector<value_t>& into, const char* what) {
  FILE* in = std::fopen(path, "rb");
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  const bool ok = std::fread(into.data(), sizeof(value_t), into.size(), in) == into.size() &&
                  std::fgetc(in) == EOF;
  std::fclose(in);
  if (!ok) std::fprintf(stderr, "%s does not hold exactly %zu float32 %s values\n", path, into.size(), what);
  return ok;
}

// The sizes of the query groups of one run.
std::vector<index_t> groups(index_t queries, index_t length, bool subwarp) {
  std::vector<index_t> out;
  const index_t g = (length + 1) / 32;
  while (queries > 0) {
    index_t size = 1;
    if (subwarp)
      for (index_t s : {16, 8, 4, 2})
        if (s <= queries && s * length + 2 * g - 3 < max_features) {
          size = s;
          break;
        }
    out.push_back(size);
    queries -= size;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s SUBJECTS COUNT LENGTH QUERIES Q\n", argv[0]);
    return 2;
  }
  const long long count = std::atoll(argv[2]), length = std::atoll(argv[3]), q = std::atoll(argv[5]);
  if (length != 127 && length != 255 && length != 511 && length != 1023 && length != 2047) {
    std::fprintf(stderr, "LENGTH must be 127, 255, 511, 1023 or 2047 (cuDTW++'s kernels)\n");
    return 2;
  }
  if (count < 8 || count % 8 != 0 || count > (1LL << 31) - 8) {
    std::fprintf(stderr, "COUNT must be a positive multiple of 8 below 2^31\n");
    return 2;
  }
  if (q < 1 || q > (1LL << 31) - 1 || double(q) * double(count) > 4e18 / sizeof(value_t)) {
    std::fprintf(stderr, "Q must be 1 to 2^31 - 1\n");
    return 2;
  }
  const index_t n_count = index_t(count), n_length = index_t(length), n_queries = index_t(q);
  std::vector<value_t> subjects(n_count * n_length), queries(n_queries * n_length);
  if (!read_all(argv[1], subjects, "subject") || !read_all(argv[4], queries, "query")) return 2;

  std::string why;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  value_t *d_subjects = nullptr, *d_queries = nullptr, *d_dist = nullptr;
  const std::size_t dist_bytes = sizeof(value_t) * n_queries * n_count;
  if (!check(cudaStreamCreate(&stream), "cudaStreamCreate", why) ||
      !check(cudaEventCreate(&start), "cudaEventCreate", why) ||
      !check(cudaEventCreate(&stop), "cudaEventCreate", why) ||
      !check(cudaMalloc(&d_subjects, sizeof(value_t) * subjects.size()), "cudaMalloc (subjects)", why) ||
      !check(cudaMalloc(&d_queries, sizeof(value_t) * queries.size()), "cudaMalloc (queries)", why) ||
      !check(cudaMalloc(&d_dist, dist_bytes), "cudaMalloc (distances)", why) ||
      !check(cudaMemcpy(d_subjects, subjects.data(), sizeof(value_t) * subjects.size(),
                        cudaMemcpyHostToDevice), "cudaMemcpy (subjects)", why) ||
      !check(cudaMemcpy(d_queries, queries.data(), sizeof(value_t) * queries.size(),
                        cudaMemcpyHostToDevice), "cudaMemcpy (queries)", why)) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  }
  std::vector<value_t>().swap(subjects);
  std::vector<value_t> dist(n_queries * n_count);
  std::printf("ready\n");
  std::fflush(stdout);

  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string verb, kernel, out;
    if (!(words >> verb >> kernel) || !std::getline(words >> std::ws, out) || out.empty() ||
        verb != "run" || (kernel != "warp" && kernel != "subwarp")) {
      std::printf("error want: run warp|subwarp OUT\n");
      std::fflush(stdout);
      continue;
    }
    const bool subwarp = kernel == "subwarp";
    if (subwarp && n_length == 2047) {
      std::printf("error cuDTW++ has no sub-warp kernel for length 2047\n");
      std::fflush(stdout);
      continue;
    }
    const std::vector<index_t> plan = groups(n_queries, n_length, subwarp);
    float ms = 0.f;
    bool ok = check(cudaMemsetAsync(d_dist, 0xFF, dist_bytes, stream), "cudaMemsetAsync", why) &&
              check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", why) &&
              check(cudaEventRecord(start, stream), "cudaEventRecord", why);
    index_t first = 0;
    for (std::size_t i = 0; ok && i < plan.size(); first += plan[i++]) {
      ok = check(cudaMemcpyToSymbolAsync(cQuery, d_queries + first * n_length,
                                         sizeof(value_t) * plan[i] * n_length, 0,
                                         cudaMemcpyDeviceToDevice, stream),
                 "cudaMemcpyToSymbolAsync (cQuery)", why);
      if (ok) {
        FullDTW::dist(d_subjects, d_dist + first * n_count, n_count, n_length, plan[i], subwarp,
                      uint8_t(0), false, static_cast<value_t*>(nullptr), stream);
        ok = check(cudaGetLastError(), "dist() launch", why);
      }
    }
    ok = ok && check(cudaEventRecord(stop, stream), "cudaEventRecord", why) &&
         check(cudaEventSynchronize(stop), "the run", why) &&
         check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime", why) &&
         check(cudaMemcpy(dist.data(), d_dist, dist_bytes, cudaMemcpyDeviceToHost),
               "cudaMemcpy (distances)", why);
    if (!ok) {
      std::printf("error %s\n", why.c_str());
      std::fflush(stdout);
      if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
        return 1;  // a sticky error: the context is gone
      continue;
    }
    FILE* f = std::fopen(out.c_str(), "wb");
    if (!f || std::fwrite(dist.data(), sizeof(value_t), dist.size(), f) != dist.size() ||
        std::fclose(f) != 0) {
      std::printf("error cannot write %s\n", out.c_str());
    } else {
      std::printf("ok %.6f %zu\n", double(ms), plan.size());
    }
    std::fflush(stdout);
  }
  return 0;
}
