// Shared plumbing for the GPU steps: inputs are uploaded once when a variant is prepared, the
// output is poisoned with NaN before each run, and only the kernel is timed (CUDA events).
#pragma once
#include <algorithm>
#include <functional>
#include <string>

#include "../../harness/device_buffer.hpp"
#include "../../harness/device_limits.hpp"
#include "problem.hpp"

namespace ladder::dtw {

// What a launch sees: one query against every subject. `scratch` is optional per-variant
// global memory (the naive step's cache). `series` is entries x n, or n x entries (time-major)
// for steps that ask for transposed subjects.
struct DeviceData {
  const float* query;
  const float* series;
  float* dist;
  float* scratch;
  std::int64_t n;
  std::int64_t entries;
  int band;            // Sakoe-Chiba radius, >= n when unconstrained
  float value_range;   // max - min over subjects and queries (bounds every cell's cost)
};

using Launch = std::function<void(const DeviceData&, const Params&)>;

// Floats of padding after the device copy of the queries: a kernel may read this far past the
// end of a query (the warp wavefront loads its query values in blocks).
constexpr int kQueryPadding = 16;

// Subjects time-major: element (e, t) moves to t * entries + e. Done once when a step is
// prepared, like building an index; it is not part of the timed work.
inline std::vector<float> transpose_subjects(const DtwProblem& p) {
  std::vector<float> t(p.data.values.size());
  const std::int64_t n = p.n(), entries = p.entries();
  for (std::int64_t e = 0; e < entries; ++e)
    for (std::int64_t j = 0; j < n; ++j) t[j * entries + e] = p.data.values[e * n + j];
  return t;
}

// Uploads once; each timed run launches the step once per query (multi-query mode).
class GpuInstance : public Instance {
 public:
  GpuInstance(const DtwProblem& p, const Params& params, Launch launch, std::size_t scratch,
              bool transposed)
      : problem_(p),
        params_(params),
        launch_(std::move(launch)),
        queries_(padded(p.queries)),
        series_(transposed ? transpose_subjects(p) : p.data.values),
        dist_(p.num_queries() * p.entries()),
        scratch_(scratch),
        range_(value_range(p)) {}

  void poison() override { dist_.fill_bytes(0xFF); }
  double run_ms() override {
    const std::int64_t n = problem_.n(), entries = problem_.entries();
    timer_.start();
    for (std::int64_t q = 0; q < problem_.num_queries(); ++q)
      launch_({queries_.get() + q * n, series_.get(), dist_.get() + q * entries, scratch_.get(), n,
               entries, problem_.band, range_},
              params_);
    return timer_.stop_ms();
  }
  Output fetch() override { return Output{dist_.download(), output_shape(problem_)}; }

 private:
  const DtwProblem& problem_;
  Params params_;
  Launch launch_;
  DeviceBuffer<float> queries_, series_, dist_, scratch_;
  float range_;
  GpuTimer timer_;

  // The last query is followed by kQueryPadding zeros so kernels may read a block ahead.
  static std::vector<float> padded(std::vector<float> queries) {
    queries.resize(queries.size() + kQueryPadding, 0.f);
    return queries;
  }

  static float value_range(const DtwProblem& p) {
    const auto [lo, hi] = std::minmax_element(p.data.values.begin(), p.data.values.end());
    return *hi - *lo;  // queries are series of the same set
  }
};

// Bytes every GPU step needs: subjects, queries and distances.
inline double base_device_bytes(const DtwProblem& p) {
  return 4.0 * (static_cast<double>(p.entries()) * p.n() +
                static_cast<double>(p.num_queries()) * (p.n() + p.entries()));
}

inline ParamSpec block_size_param() {
  return {"block_size", "32", "threads per block (the notes use 32)", ParamSpec::Kind::integer,
          1, 1024};
}

inline int block_size(const Params& p) { return static_cast<int>(p.integer_or("block_size", 32)); }

// The steps that keep each thread's two DP rows in dynamic shared memory (6, 7b, 8).
inline std::size_t shared_rows_bytes(std::int64_t n, int block) {
  return static_cast<std::size_t>(block) * 2 * (n + 1) * sizeof(float);
}

inline std::string shared_memory_reason(std::size_t bytes, const std::string& what,
                                        const DeviceCaps& d) {
  if (bytes <= d.smem_per_block_optin) return "";
  return "needs " + std::to_string(bytes / 1024) + " KiB of shared memory per block for " +
         what + "; the device allows " + std::to_string(d.smem_per_block_optin / 1024) + " KiB";
}

inline std::string shared_rows_limit(const DtwProblem& p, const Params& params,
                                     const DeviceCaps& d) {
  const int block = block_size(params);
  return shared_memory_reason(shared_rows_bytes(p.n(), block),
                              "the DP rows of " + std::to_string(block) + " threads", d);
}

// Above 48 KiB of dynamic shared memory a kernel must opt in to the larger carve-out.
template <class Kernel>
void allow_shared_memory(Kernel* kernel, std::size_t bytes) {
  LADDER_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
}

inline int grid_for(std::int64_t entries, int block) {
  return static_cast<int>((entries + block - 1) / block);
}

struct GpuStep {
  std::string name;
  int step;
  std::string change;
  Launch launch;
  // Extra device floats the step allocates as scratch (none when unset).
  std::function<std::size_t(const DtwProblem&)> scratch_floats;
  // Extra limits beyond device memory ("" when the point is fine).
  std::function<std::string(const DtwProblem&, const Params&, const DeviceCaps&)> limit;
  bool band = true;         // honours a Sakoe-Chiba band
  bool transposed = false;  // wants subjects time-major
  std::string precision = "fp32";
  std::vector<ParamSpec> params = {block_size_param()};
};

inline VariantSpec gpu_variant(GpuStep s) {
  VariantSpec v;
  v.study = "dtw";
  v.name = s.name;
  v.step = s.step;
  v.change = s.change;
  v.backend = Backend::gpu;
  v.precision = s.precision;
  v.params = s.params;
  auto scratch = s.scratch_floats ? s.scratch_floats
                                  : std::function<std::size_t(const DtwProblem&)>(
                                        [](const DtwProblem&) { return std::size_t{0}; });
  v.supports = [scratch, limit = s.limit, band = s.band](const Problem& p, const Params& params,
                                                         const DeviceCaps& d) {
    const auto& prob = problem_as<DtwProblem>(p);
    if (prob.banded() && !band) return std::string("no Sakoe-Chiba band in this step");
    std::string why = limit ? limit(prob, params, d) : "";
    if (!why.empty()) return why;
    return device_memory_reason(base_device_bytes(prob) + 4.0 * scratch(prob), d);
  };
  v.prepare = [scratch, launch = s.launch, transposed = s.transposed](
                  const Problem& p, const Params& params) -> std::unique_ptr<Instance> {
    const auto& prob = problem_as<DtwProblem>(p);
    return std::make_unique<GpuInstance>(prob, params, launch, scratch(prob), transposed);
  };
  return v;
}

}  // namespace ladder::dtw
