// The two kernels the runner adds to a GPU step's timed call (harness/gpu_instance.cuh): a
// hold that keeps the stream from starting anything queued behind it until the host releases
// it (`--blocked-start`, after nvbench's blocking kernel), and a planted wait of a given length
// (`--plant`, a test of the statistics). Both count time on %globaltimer, in nanoseconds, so
// their lengths do not move with the SM clock.
#pragma once
#include <cuda_runtime.h>

namespace ladder {

// Holds `stream` from construction until release() (or destruction): a one-thread kernel spins
// on a flag in mapped host memory. A step that waits for the device inside its own launches (a
// stream synchronisation, a read-back, more launches than the queue holds) would wait for the
// hold forever, so the kernel gives up after `timeout_ms` and says so (timed_out(), read once
// the work behind it is done). One hold at a time in a process: holds are made one call after
// the other, never nested.
class StreamHold {
 public:
  StreamHold(cudaStream_t stream, double timeout_ms);
  ~StreamHold();
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;
  void release();
  bool timed_out() const;

 private:
  cudaStream_t stream_;
  bool released_ = false;
};

// Queues on `stream` a one-thread kernel that spins for `ms` milliseconds.
void launch_planted_wait(cudaStream_t stream, double ms);

}  // namespace ladder
