// ladder's driver for SkyBench (sean-chester/SkyBench, MIT): peers/skyline/skybench.py compiles
// it with SkyBench's own sources and flags, for one d (NUM_DIMS), and links it with every
// SkyBench object but src/testdriver.o. It calls the algorithms as SkyBench's testdriver.cpp
// does (the object built outside the clock; Init() then Execute() timed; deleted after), and
// hands back what testdriver.cpp cannot print: the skyline's ids. SkyBench's code is unchanged.
//
//   skybench-ladder POINTS N
//
// POINTS holds N rows of NUM_DIMS float32 values (the rows of `ladder gen`'s .npy, raw). Then
// one command a line on stdin, one answer line each on stdout:
//   run hybrid THREADS IDS  |  run bskytree 1 IDS       (IDS: the rest of the line, a path)
//     -> "ok WALL_MS CPU_MS COUNT": Init() + Execute() on the wall clock (steady_clock) and
//        the process's CPU time over the same span; the COUNT ids Execute() returned (0-based
//        row positions, SkyBench's pid) written to the file IDS as int32, in its order.
//     -> "error WHY" for a command it cannot run.
// End of input ends it.
#include <stdint.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bskytree/skytree.h"
#include "common/common.h"
#include "common/skyline_i.h"
#include "hybrid/hybrid.h"

namespace {

double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// As testdriver.cpp's createMTSkyline / createSkyline, with its defaults (-a 1024, -q 8). Its
// verbose mode also uses one pre-filter point when N < 8: the filter starts from the first
// pq_size points, so more would read past the set.
SkylineI* make(const std::string& algorithm, uint32_t threads, uint32_t n, float** data) {
  if (algorithm == "hybrid")
    return new Hybrid(threads, n, NUM_DIMS, DEFAULT_ALPHA, n < DEFAULT_QP_SIZE ? 1 : DEFAULT_QP_SIZE);
  if (algorithm == "bskytree") return new SkyTree(n, NUM_DIMS, data, true, false);
  return NULL;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s POINTS N (N rows of %d float32 values)\n", argv[0], NUM_DIMS);
    return 2;
  }
  const long long count = std::atoll(argv[2]);
  if (count < 1 || count > 2147483647LL) {
    std::fprintf(stderr, "N must be 1 to 2^31 - 1\n");
    return 2;
  }
  const uint32_t n = uint32_t(count);
  // Rows as testdriver.cpp holds them (AllocateDoubleArray: a new[] row per point).
  float** data = new float*[n];
  FILE* in = std::fopen(argv[1], "rb");
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  for (uint32_t i = 0; i < n; ++i) {
    data[i] = new float[NUM_DIMS];
    if (std::fread(data[i], sizeof(float), NUM_DIMS, in) != size_t(NUM_DIMS)) {
      std::fprintf(stderr, "%s holds fewer than %u rows of %d float32 values\n", argv[1], n, NUM_DIMS);
      return 2;
    }
  }
  if (std::fgetc(in) != EOF) {
    std::fprintf(stderr, "%s holds more than %u rows of %d float32 values\n", argv[1], n, NUM_DIMS);
    return 2;
  }
  std::fclose(in);

  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string verb, algorithm, ids;
    long threads = 0;
    if (!(words >> verb >> algorithm >> threads) || !std::getline(words >> std::ws, ids) ||
        ids.empty() || verb != "run" || threads < 1) {
      std::printf("error want: run ALGORITHM THREADS IDS\n");
      std::fflush(stdout);
      continue;
    }
    SkylineI* skyline = make(algorithm, uint32_t(threads), n, data);
    if (!skyline) {
      std::printf("error unknown algorithm %s\n", algorithm.c_str());
      std::fflush(stdout);
      continue;
    }
    const double cpu0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    skyline->Init(data);
    std::vector<int> result = skyline->Execute();
    const auto t1 = std::chrono::steady_clock::now();
    const double cpu = cpu_ms() - cpu0;
    delete skyline;
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    FILE* out = std::fopen(ids.c_str(), "wb");
    if (!out || (!result.empty() &&
                 std::fwrite(result.data(), sizeof(int), result.size(), out) != result.size()) ||
        std::fclose(out) != 0) {
      std::printf("error cannot write %s\n", ids.c_str());
    } else {
      std::printf("ok %.6f %.6f %zu\n", ms, cpu, result.size());
    }
    std::fflush(stdout);
  }
  return 0;
}
