// Owning RAII wrappers for device memory, streams and events. Destructors never throw: a
// failure while freeing is ignored because the program is already unwinding or finishing.
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
  // After whatever is queued on `stream` before it, which is how an output is read back.
  std::vector<T> download(cudaStream_t stream) const {
    std::vector<T> host(count_);
    if (count_ > 0) {
      LADDER_CUDA(cudaMemcpyAsync(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost, stream));
      LADDER_CUDA(cudaStreamSynchronize(stream));
    }
    return host;
  }
  // Fill every byte with `byte`, queued on `stream`; 0xFF makes every float a NaN, so unwritten
  // outputs fail.
  void fill_bytes(int byte, cudaStream_t stream) {
    if (count_ > 0) LADDER_CUDA(cudaMemsetAsync(ptr_, byte, bytes(), stream));
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

// A blocking stream (cudaStreamDefault): it waits for, and is waited for by, the legacy
// default stream, so what the harness does there outside a run (the uploads while an instance
// is built, the L2 flush between the poison and the run) stays in order with it.
class CudaStream {
 public:
  CudaStream() { LADDER_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamDefault)); }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_{};
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
// previous sample left there (as nvbench does by default). It goes on the legacy stream, which
// every instance's stream (CudaStream) waits for: after the poison, before the run.
class L2Flush {
 public:
  explicit L2Flush(std::size_t l2_bytes) : buf_(2 * l2_bytes) {}
  void operator()() { buf_.fill_bytes(0, cudaStreamLegacy); }

 private:
  DeviceBuffer<unsigned char> buf_;
};

}  // namespace ladder
