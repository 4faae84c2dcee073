// Stage ranges for profilers: while `run --profile` makes its one profiled call, a GPU step
// that divides its work into named stages (harness/gpu_instance.cuh) marks each with an NVTX
// start/end range named "stage.<name>", so that Nsight Systems shows the stages and Nsight
// Compute can filter on them. Start/end ranges, not push/pop ones: the push/pop stack
// (study.variant/r<run_index>/) that `ladder profile` filters kernels by stays the same. Off
// outside the profiled call, where the marks would be host work inside the timed window.
#pragma once
#include <nvtx3/nvToolsExt.h>

#include <string>

namespace ladder {

inline bool& stage_ranges_on() {
  static thread_local bool on = false;
  return on;
}

// The stage range of one instance: at most one open, closed by the next stage or the end.
class StageRange {
 public:
  void start(const std::string& stage) {
    if (!stage_ranges_on()) return;
    end();
    id_ = nvtxRangeStartA(("stage." + stage).c_str());
    open_ = true;
  }
  void end() {
    if (open_) nvtxRangeEnd(id_);
    open_ = false;
  }

 private:
  nvtxRangeId_t id_ = 0;
  bool open_ = false;
};

}  // namespace ladder
