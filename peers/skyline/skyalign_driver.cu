// ladder's driver for SkyAlign (Bøgh, Chester, Šidlauskas and Assent; the GPU skyline of
// sean-chester/skycube-templates, MIT): peers/skyline/skyalign.py compiles it with nvcc against
// the fetched src/ of the pinned commit and links it with SkyAlign's src/sdsc/skyAlign.cu,
// src/utilities/kernels.cu and src/utilities/gpu_utilities.cpp. It sets the device up as
// SkyAlign's own SDSC<D>::initializeGpu does and calls run_skyalign() as SDSC<D>::Execute does
// for the full-space cuboid. SkyAlign's code is unchanged; its skycube program (main.cu, the
// CPU algorithms, boost threads, PAPI) is not built.
//
//   skyalign-ladder POINTS N D
//
// POINTS holds N rows of D float32 values (the rows of `ladder gen`'s .npy, raw). They go to
// the device once, in SkyAlign's pitched layout, then one line is printed:
//   "ready PITCH" (the row pitch in bytes), or
//   "unsupported WHY" (then it exits 0): N rows at that pitch overflow the int byte offsets of
//   SkyAlign's copy_dimension_pitch kernel.
// Then one command a line on stdin, one answer line each on stdout:
//   run IDS                              (IDS: the rest of the line, a path)
//     -> "ok MS COUNT EXTENDED": one run_skyalign() call on the steady clock, from the call to
//        the end of a cudaDeviceSynchronize() after it; the COUNT skyline ids it returned
//        (0-based row positions) written to IDS as int32 in its order; EXTENDED: how many points
//        it returned as its "extended skyline" only (dominated, but tied with a skyline point
//        on some attribute: not skyline points).
//     -> "error WHY" for a command it cannot run or a CUDA error.
// End of input ends it.
#include <cuda_runtime.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sdsc/skyAlign.cuh"
#include "utilities/gpu_struct.h"
#include "utilities/gpu_utilities.h"

namespace {

const int MAX_D = 20;  // run_skyalign() dispatches skyalign<1> .. skyalign<20>

bool ok(cudaError_t code, const char* what) {
  if (code == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(code));
  return false;
}

bool read_points(const char* path, std::vector<float>& into, long long n, int d) {
  FILE* in = std::fopen(path, "rb");
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  const bool whole = std::fread(into.data(), sizeof(float), into.size(), in) == into.size() &&
                     std::fgetc(in) == EOF;
  std::fclose(in);
  if (!whole) std::fprintf(stderr, "%s does not hold exactly %lld rows of %d float32 values\n", path, n, d);
  return whole;
}

// The buffers SDSC<D>::initializeGpu makes for n points of d attributes (host index arrays
// pinned, as there), and the points copied into the pitched rows alignedMalloc2D gives.
bool set_up(SDSCGpu& conf, const std::vector<float>& points, int n, int d) {
  conf.device = 0;
  const size_t ints = size_t(n) * sizeof(int);
  return ok(cudaSetDevice(0), "cudaSetDevice(0)") &&
         ok(cudaMalloc(&conf.d_index_org, ints), "cudaMalloc") &&
         ok(cudaMallocHost(&conf.h_index_org, ints), "cudaMallocHost") &&
         ok(cudaMalloc(&conf.d_index_org_db, ints), "cudaMalloc") &&
         ok(cudaMallocHost(&conf.h_index_org_db, ints), "cudaMallocHost") &&
         ok(cudaMalloc(&conf.d_new_order, ints), "cudaMalloc") &&
         ok(cudaMallocHost(&conf.h_new_order, ints), "cudaMallocHost") &&
         ok(cudaMalloc(&conf.pivot, 3 * d * sizeof(float)), "cudaMalloc") &&
         ok(cudaMalloc(&conf.column_stored, size_t(n) * sizeof(float)), "cudaMalloc") &&
         ok(cudaMalloc(&conf.second_level, ints), "cudaMalloc") &&
         ok(cudaMalloc(&conf.second_level_sorted, ints), "cudaMalloc") &&
         ok(alignedMalloc2D(reinterpret_cast<void**>(&conf.d_data), &conf.data_pitch,
                            d * sizeof(float), n), "alignedMalloc2D") &&
         ok(cudaMemcpy2D(conf.d_data, conf.data_pitch, points.data(), d * sizeof(float),
                         d * sizeof(float), n, cudaMemcpyHostToDevice), "cudaMemcpy2D") &&
         ok(cudaDeviceSynchronize(), "copying the points");
}

void tear_down(SDSCGpu& conf) {
  cudaFree(conf.d_index_org);
  cudaFreeHost(conf.h_index_org);
  cudaFree(conf.d_index_org_db);
  cudaFreeHost(conf.h_index_org_db);
  cudaFree(conf.d_new_order);
  cudaFreeHost(conf.h_new_order);
  cudaFree(conf.pivot);
  cudaFree(conf.column_stored);
  cudaFree(conf.second_level);
  cudaFree(conf.second_level_sorted);
  cudaFree(conf.d_data);
}

// One run: the ids written to PATH, or the reason it failed (for the answer line).
std::string run(SDSCGpu& conf, int n, std::vector<int>& dims, const std::string& path) {
  std::vector<unsigned int> sky, extended, working_set;  // working_set: subspaces only
  const auto t0 = std::chrono::steady_clock::now();
  run_skyalign(int(dims.size()), n, &dims, &sky, &extended, &working_set, conf);
  const cudaError_t synced = cudaDeviceSynchronize();
  const auto t1 = std::chrono::steady_clock::now();
  // SkyAlign checks none of its CUDA calls: a failure shows here, or as a sticky error.
  const cudaError_t code = synced != cudaSuccess ? synced : cudaGetLastError();
  if (code != cudaSuccess) return std::string("error CUDA: ") + cudaGetErrorString(code);
  std::vector<int> ids(sky.begin(), sky.end());  // ids < n <= INT_MAX
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out || (!ids.empty() && std::fwrite(ids.data(), sizeof(int), ids.size(), out) != ids.size()) ||
      std::fclose(out) != 0)
    return "error cannot write " + path;
  char line[128];
  std::snprintf(line, sizeof line, "ok %.6f %zu %zu",
                std::chrono::duration<double, std::milli>(t1 - t0).count(), ids.size(), extended.size());
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s POINTS N D (N rows of D float32 values)\n", argv[0]);
    return 2;
  }
  const long long count = std::atoll(argv[2]);
  const int d = std::atoi(argv[3]);
  // SkyAlign's sizes and ids are int; its templates go to D = 20.
  if (count < 1 || count > INT_MAX || d < 1 || d > MAX_D) {
    std::fprintf(stderr, "N must be 1 to 2^31 - 1 and D 1 to %d\n", MAX_D);
    return 2;
  }
  const int n = int(count);
  std::vector<float> points(size_t(n) * d);
  if (!read_points(argv[1], points, count, d)) return 2;

  SDSCGpu conf{};
  if (!set_up(conf, points, n, d)) return 1;
  std::vector<float>().swap(points);  // on the device now
  // copy_dimension_pitch takes the pitch as an int and computes index * pitch in int.
  if ((long long)(n - 1) * (long long)conf.data_pitch + d * (long long)sizeof(float) > INT_MAX) {
    std::printf("unsupported %d rows of %zu bytes overflow the int byte offsets of SkyAlign's "
                "copy_dimension_pitch kernel\n", n, conf.data_pitch);
    tear_down(conf);
    return 0;
  }
  std::printf("ready %zu\n", conf.data_pitch);
  std::fflush(stdout);

  std::vector<int> dims(d);  // the full space: every attribute, in order
  for (int i = 0; i < d; ++i) dims[i] = i;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string verb, ids;
    if (!(words >> verb) || verb != "run" || !std::getline(words >> std::ws, ids) || ids.empty()) {
      std::printf("error want: run IDS\n");
    } else {
      std::printf("%s\n", run(conf, n, dims, ids).c_str());
    }
    std::fflush(stdout);
  }
  tear_down(conf);
  return 0;
}
