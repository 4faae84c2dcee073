// main() for the GPU test programs: without a CUDA device they exit 77, which ctest reports
// as skipped (never as passed); a CUDA runtime that cannot start on a machine that shows an
// NVIDIA GPU fails them (count_devices). Listing tests works anywhere, so ctest can discover
// them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "datagen/base/errors.hpp"
#include "harness/device_info.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing |= std::strcmp(argv[i], "--gtest_list_tests") == 0;
  if (!listing) {
    try {
      const ladder::CudaDevices found = ladder::count_devices(false);
      if (found.count == 0) {
        std::printf("no CUDA device%s%s: GPU tests skipped\n", found.failure.empty() ? "" : ": ",
                    found.failure.c_str());
        return 77;
      }
    } catch (const ladder::CudaError& e) {
      std::fprintf(stderr, "GPU tests: %s\n", e.what());
      return 1;
    }
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
