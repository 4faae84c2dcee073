// The usual GPU instance: inputs are uploaded when it is built (outside the timed window),
// the output is a device buffer poisoned with 0xFF bytes (NaN for floats) before every run,
// and run_ms() times exactly what enqueue() puts on the instance's stream with CUDA events.
// The stream is handed to enqueue(), as nvbench hands launch.get_stream(), and every launch,
// copy and library call of the run names it; the poison and the fetch go on it too.
// enqueue() may divide its work into named stages; each stage's time is recorded too, and in a
// profiled call each stage is an NVTX range (harness/stage_ranges.hpp).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device_buffer.hpp"
#include "stage_ranges.hpp"
#include "study.hpp"
#include "timing_kernels.hpp"

namespace ladder {

// What a GPU step's set-up function (GpuSetupFn) returns once it has done the set-up
// (attributes, handles, occupancy queries, choosing an instantiation): the launch of the timed
// work, given the study's device data `D` and the stream to launch on, and facts about it
// recorded with the run: those known at set-up, and those only the run itself learns (how
// many points a filter kept, how many passes it took), read after the last call.
template <class D>
struct GpuSetup {
  std::function<void(const D&, cudaStream_t)> enqueue;
  std::map<std::string, double> facts = {};
  std::function<std::map<std::string, double>()> learned = {};

  std::map<std::string, double> all_facts() const {
    auto out = facts;
    if (learned)
      for (const auto& [name, value] : learned()) out[name] = value;
    return out;
  }
};
template <class P, class D>
using GpuSetupFn = std::function<GpuSetup<D>(const P&, const Params&, const DeviceCaps&)>;

template <class T>
class GpuInstance : public Instance {
 public:
  GpuInstance(std::size_t size, std::vector<std::size_t> shape)
      : out_(size), shape_(std::move(shape)) {}

  void poison() override { out_.fill_bytes(0xFF, stream_.get()); }
  Output fetch() override { return Output{out_.download(stream_.get()), shape_}; }
  std::map<std::string, double> stages_ms() const override { return stages_; }

  double run_ms() override { return call({}).ms; }

  // The runner's extras (harness/timing_kernels.hpp): a blocked start holds the stream before
  // the begin event until enqueue() has returned and the end event is queued, so the window
  // is the device's time alone, the host's submission left out; a planted wait is a kernel
  // after the step's launches, inside the window (the last stage ends before it).
  CallTimes call(const CallExtras& x) override {
    names_.clear();
    std::optional<StreamHold> hold;
    if (x.hold_timeout_ms > 0) hold.emplace(stream_.get(), x.hold_timeout_ms);
    LADDER_CUDA(cudaEventRecord(begin_.get(), stream_.get()));
    enqueue(stream_.get());
    stage_range_.end();
    // The last stage's end before a planted wait is an event of its own, recorded only where
    // there are stages: it would add to the wait's cost.
    const bool stage_end = x.plant_ms > 0 && !names_.empty();
    const CudaEvent& step_end = stage_end ? planted_ : end_;
    if (stage_end) LADDER_CUDA(cudaEventRecord(planted_.get(), stream_.get()));
    if (x.plant_ms > 0) launch_planted_wait(stream_.get(), x.plant_ms);
    LADDER_CUDA(cudaEventRecord(end_.get(), stream_.get()));
    if (hold) hold->release();
    LADDER_CUDA(cudaEventSynchronize(end_.get()));
    stages_.clear();
    for (std::size_t s = 0; s < names_.size(); ++s)
      stages_[names_[s]] = elapsed(marks_[s], s + 1 < names_.size() ? marks_[s + 1] : step_end);
    return {elapsed(begin_, end_), hold && hold->timed_out()};
  }
  bool can_plant() const override { return true; }
  bool can_hold() const override { return true; }

 protected:
  // Launches the step's kernels on `stream`, and nothing anywhere else; no allocation or
  // set-up here.
  virtual void enqueue(cudaStream_t stream) = 0;
  // Starts a named stage at this point of the stream; it lasts until the next one or the end.
  void stage(std::string name) {
    if (names_.size() == kMaxStages) throw std::logic_error("more than 8 stages in one run");
    LADDER_CUDA(cudaEventRecord(marks_[names_.size()].get(), stream_.get()));
    stage_range_.start(name);  // only in a profiled call (harness/stage_ranges.hpp)
    names_.push_back(std::move(name));
  }
  T* out() const { return out_.get(); }

 private:
  static constexpr std::size_t kMaxStages = 8;  // events are made up front, never while timed
  static double elapsed(const CudaEvent& a, const CudaEvent& b) {
    float ms = 0.f;
    LADDER_CUDA(cudaEventElapsedTime(&ms, a.get(), b.get()));
    return ms;
  }

  CudaStream stream_;  // first: destroyed last, after the buffers whose work it carries
  DeviceBuffer<T> out_;
  std::vector<std::size_t> shape_;
  CudaEvent begin_, end_, planted_, marks_[kMaxStages];
  std::vector<std::string> names_;
  std::map<std::string, double> stages_;
  StageRange stage_range_;
};

}  // namespace ladder
