#include "timing_kernels.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>

#include "cuda_check.hpp"

namespace ladder {
namespace {

struct HoldFlags {
  int release;    // set by the host once the step is queued
  int timed_out;  // set by the hold when it gave up waiting for that
};

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold_kernel(volatile HoldFlags* flags, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (!flags->release) {
    if (global_ns() - start > timeout_ns) {
      flags->timed_out = 1;
      __threadfence_system();
      return;
    }
  }
}

__global__ void planted_wait_kernel(std::uint64_t ns) {
  const std::uint64_t start = global_ns();
  while (global_ns() - start < ns) {
  }
}

// The process's flags, in page-locked host memory that the device reads and writes directly:
// made at the first hold (outside every timed window) and kept while the process lives.
class Flags {
 public:
  Flags() {
    void* p = nullptr;
    LADDER_CUDA(cudaHostAlloc(&p, sizeof(HoldFlags), cudaHostAllocMapped | cudaHostAllocPortable));
    host_ = static_cast<HoldFlags*>(p);
    LADDER_CUDA(cudaHostGetDevicePointer(&p, host_, 0));
    device_ = static_cast<HoldFlags*>(p);
  }
  ~Flags() { cudaFreeHost(host_); }  // at exit: an error (the runtime gone first) is ignored
  Flags(const Flags&) = delete;
  Flags& operator=(const Flags&) = delete;
  volatile HoldFlags* host() const { return host_; }
  HoldFlags* device() const { return device_; }

 private:
  HoldFlags* host_ = nullptr;
  HoldFlags* device_ = nullptr;
};

Flags& flags() {
  static Flags f;
  return f;
}

std::uint64_t to_ns(double ms) { return ms > 0 ? std::uint64_t(std::llround(ms * 1e6)) : 0; }

}  // namespace

StreamHold::StreamHold(cudaStream_t stream, double timeout_ms) : stream_(stream) {
  Flags& f = flags();
  // The hold before this one has ended: its call waited for the work queued behind it.
  f.host()->release = 0;
  f.host()->timed_out = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  hold_kernel<<<1, 1, 0, stream>>>(f.device(), to_ns(timeout_ms));
  LADDER_CUDA_LAUNCH("hold_kernel");
}

StreamHold::~StreamHold() {
  if (released_) return;
  // Left by an exception: let the hold go and wait for it, so that the next hold's reset of
  // the flag cannot catch this one still spinning. Errors are ignored (already unwinding).
  release();
  cudaStreamSynchronize(stream_);
}

void StreamHold::release() {
  if (released_) return;
  std::atomic_thread_fence(std::memory_order_seq_cst);  // everything queued before it
  flags().host()->release = 1;
  released_ = true;
}

bool StreamHold::timed_out() const { return flags().host()->timed_out != 0; }

void launch_planted_wait(cudaStream_t stream, double ms) {
  planted_wait_kernel<<<1, 1, 0, stream>>>(to_ns(ms));
  LADDER_CUDA_LAUNCH("planted_wait_kernel");
}

}  // namespace ladder
