// Shared plumbing for the GPU steps: inputs are uploaded once when a variant is prepared, the
// output is poisoned with NaN before each run, and only the kernel is timed (CUDA events).
#pragma once
#include <functional>
#include <string>

#include "../../harness/device_buffer.hpp"
#include "problem.hpp"

namespace ladder::dtw {

// What a kernel sees. `scratch` is optional per-variant global memory (the naive step's cache).
struct DeviceData {
  const float* query;
  const float* series;
  float* dist;
  float* scratch;
  std::int64_t n;
  std::int64_t entries;
};

using Launch = std::function<void(const DeviceData&, const Params&)>;

class GpuInstance : public Instance {
 public:
  GpuInstance(const DtwProblem& p, const Params& params, Launch launch, std::size_t scratch)
      : params_(params),
        launch_(std::move(launch)),
        query_(p.query),
        series_(p.data.values),
        dist_(p.data.entries),
        scratch_(scratch),
        n_(p.n()),
        entries_(p.entries()) {}

  void poison() override { dist_.fill_bytes(0xFF); }
  double run_ms() override {
    timer_.start();
    launch_({query_.get(), series_.get(), dist_.get(), scratch_.get(), n_, entries_}, params_);
    return timer_.stop_ms();
  }
  Output fetch() override { return Output{dist_.download(), {}}; }

 private:
  Params params_;
  Launch launch_;
  DeviceBuffer<float> query_, series_, dist_, scratch_;
  std::int64_t n_, entries_;
  GpuTimer timer_;
};

// "" when `bytes` of device memory fit in what was free at start (with headroom), else why not.
inline std::string device_memory_reason(double bytes, const DeviceCaps& d) {
  if (bytes <= 0.9 * static_cast<double>(d.global_mem_free)) return "";
  return "needs " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
         " MiB of device memory, " +
         std::to_string(static_cast<long long>(d.global_mem_free >> 20)) + " MiB free";
}

// Bytes every GPU step needs: subjects, query and distances.
inline double base_device_bytes(const DtwProblem& p) {
  return 4.0 * (static_cast<double>(p.entries()) * p.n() + p.n() + p.entries());
}

inline ParamSpec block_size_param() {
  return {"block_size", "32", "threads per block (the notes use 32)", ParamSpec::Kind::integer,
          1, 1024};
}

inline int grid_for(std::int64_t entries, int block) {
  return static_cast<int>((entries + block - 1) / block);
}

struct GpuStep {
  std::string name;
  int step;
  std::string change;
  Launch launch;
  // Extra device bytes the step allocates as scratch (0 for none).
  std::function<std::size_t(const DtwProblem&)> scratch_floats;
  // Extra limits beyond device memory ("" when the point is fine).
  std::function<std::string(const DtwProblem&, const Params&, const DeviceCaps&)> limit;
};

inline VariantSpec gpu_variant(GpuStep s) {
  VariantSpec v;
  v.study = "dtw";
  v.name = s.name;
  v.step = s.step;
  v.change = s.change;
  v.backend = Backend::gpu;
  v.params = {block_size_param()};
  auto scratch = s.scratch_floats ? s.scratch_floats
                                  : std::function<std::size_t(const DtwProblem&)>(
                                        [](const DtwProblem&) { return std::size_t{0}; });
  v.supports = [scratch, limit = s.limit](const Problem& p, const Params& params,
                                          const DeviceCaps& d) {
    const auto& prob = problem_as<DtwProblem>(p);
    std::string why = limit ? limit(prob, params, d) : "";
    if (!why.empty()) return why;
    return device_memory_reason(base_device_bytes(prob) + 4.0 * scratch(prob), d);
  };
  v.prepare = [scratch, launch = s.launch](const Problem& p,
                                           const Params& params) -> std::unique_ptr<Instance> {
    const auto& prob = problem_as<DtwProblem>(p);
    return std::make_unique<GpuInstance>(prob, params, launch, scratch(prob));
  };
  return v;
}

}  // namespace ladder::dtw
