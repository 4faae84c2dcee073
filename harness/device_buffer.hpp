// Owning RAII wrappers for device memory and events. Destructors never throw: a failure while
// freeing is ignored because the program is already unwinding or finishing.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "cuda_check.hpp"

namespace ladder {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) LADDER_CUDA(cudaMalloc(&ptr_, count_ * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) {
    o.ptr_ = nullptr;
    o.count_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw std::logic_error("DeviceBuffer::upload: size mismatch");
    if (count_ > 0)
      LADDER_CUDA(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0)
      LADDER_CUDA(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  // Fill every byte with `byte`; 0xFF makes every float a NaN, so unwritten outputs fail.
  void fill_bytes(int byte) {
    if (count_ > 0) LADDER_CUDA(cudaMemset(ptr_, byte, bytes()));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locked host memory: copies between it and the device run at full bus speed and can be
// queued on a stream, so a step whose timed window includes its copies times the copies alone.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) LADDER_CUDA(cudaMallocHost(&ptr_, count_ * sizeof(T)));
  }
  explicit PinnedBuffer(const std::vector<T>& host) : PinnedBuffer(host.size()) {
    std::copy(host.begin(), host.end(), ptr_);
  }
  ~PinnedBuffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

class CudaEvent {
 public:
  CudaEvent() { LADDER_CUDA(cudaEventCreate(&event_)); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

// Timing mode "cold": writing a buffer twice the L2's size before a sample evicts whatever the
// previous sample left there (as nvbench does by default).
class L2Flush {
 public:
  explicit L2Flush(std::size_t l2_bytes) : buf_(2 * l2_bytes) {}
  void operator()() { buf_.fill_bytes(0); }

 private:
  DeviceBuffer<unsigned char> buf_;
};

}  // namespace ladder
