// Shared plumbing for the GPU steps. Every GPU step runs the same pipeline on the device and
// times it with CUDA events, stage by stage:
//   mean:       column sums (blocks of columns x chunks of rows, atomically combined),
//   centre:     X = D - mu, with the coalesced (thread per element, row-major order) or the
//               strided (thread per row) mapping, chosen by the `centring` parameter,
//   covariance: the step's own kernel(s), reading X and writing the full n x n matrix.
// The run's time is the whole pipeline; each stage's median is recorded as well.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "../../harness/device_buffer.hpp"
#include "../../harness/device_limits.hpp"
#include "problem.hpp"

namespace ladder::cov {

// What a covariance launch sees: the centred data X (m x n, row-major) and the output.
struct DeviceData {
  const float* x;
  float* cov;  // n x n, every entry must be written
  std::int64_t m, n;
};

using Launch = std::function<void(const DeviceData&, const Params&)>;
using Facts = std::function<std::map<std::string, double>(const CovProblem&, const Params&)>;

// The first two stages (gpu_pipeline.cu): column sums of the data, then the centred data X
// from them, with the coalesced or the strided thread mapping.
void launch_column_sums(const float* data, float* sums, std::int64_t m, std::int64_t n);
void launch_centre(const float* data, const float* sums, float* x, std::int64_t m,
                   std::int64_t n, bool strided);

class GpuInstance : public Instance {
 public:
  GpuInstance(const CovProblem& p, const Params& params, Launch launch, Facts facts)
      : problem_(p),
        params_(params),
        launch_(std::move(launch)),
        data_(p.data),
        sums_(p.n),
        x_(p.data.size()),
        cov_(static_cast<std::size_t>(p.n * p.n)) {
    if (facts) facts_ = facts(p, params);
  }

  void poison() override { cov_.fill_bytes(0xFF); }

  double run_ms() override {
    const std::int64_t m = problem_.m, n = problem_.n;
    LADDER_CUDA(cudaEventRecord(ev_[0].get()));
    sums_.fill_bytes(0);
    launch_column_sums(data_.get(), sums_.get(), m, n);
    LADDER_CUDA(cudaEventRecord(ev_[1].get()));
    launch_centre(data_.get(), sums_.get(), x_.get(), m, n,
                  params_.text_or("centring", "coalesced") == "strided");
    LADDER_CUDA(cudaEventRecord(ev_[2].get()));
    launch_({x_.get(), cov_.get(), m, n}, params_);
    LADDER_CUDA(cudaEventRecord(ev_[3].get()));
    LADDER_CUDA(cudaEventSynchronize(ev_[3].get()));
    const char* names[] = {"mean", "centre", "covariance"};
    for (int s = 0; s < 3; ++s) {
      float ms = 0;
      LADDER_CUDA(cudaEventElapsedTime(&ms, ev_[s].get(), ev_[s + 1].get()));
      stages_[names[s]] = ms;
    }
    float total = 0;
    LADDER_CUDA(cudaEventElapsedTime(&total, ev_[0].get(), ev_[3].get()));
    return total;
  }

  Output fetch() override {
    return Output{cov_.download(), {std::size_t(problem_.n), std::size_t(problem_.n)}};
  }
  std::map<std::string, double> stages_ms() const override { return stages_; }
  std::map<std::string, double> facts() const override { return facts_; }

 private:
  const CovProblem& problem_;
  Params params_;
  Launch launch_;
  DeviceBuffer<float> data_, sums_, x_, cov_;
  CudaEvent ev_[4];
  std::map<std::string, double> stages_, facts_;
};

inline ParamSpec centring_param() {
  return {"centring", "coalesced",
          "centring thread mapping: coalesced (thread per element) or strided (thread per row)",
          ParamSpec::Kind::text, 0, 0, {"coalesced", "strided"}};
}

struct GpuStep {
  std::string name;
  int step;
  std::string change;
  Launch launch;
  std::string precision = "fp32";
  std::vector<ParamSpec> params = {};  // centring is added for every step
  // "" when the step can run this point (beyond device memory, which is checked here).
  std::function<std::string(const CovProblem&, const Params&, const DeviceCaps&)> limit;
  Facts facts;
};

// Data, centred copy, output and column sums.
inline double device_bytes(const CovProblem& p) {
  return 4.0 * (2.0 * double(p.m) * double(p.n) + double(p.n) * double(p.n) + double(p.n));
}

inline VariantSpec gpu_variant(GpuStep s) {
  VariantSpec v;
  v.study = "covariance";
  v.name = s.name;
  v.step = s.step;
  v.change = s.change;
  v.backend = Backend::gpu;
  v.precision = s.precision;
  v.params = s.params;
  v.params.push_back(centring_param());
  v.supports = [limit = s.limit](const Problem& pr, const Params& params, const DeviceCaps& d) {
    const auto& p = problem_as<CovProblem>(pr);
    std::string why = limit ? limit(p, params, d) : "";
    return why.empty() ? device_memory_reason(device_bytes(p), d) : why;
  };
  v.prepare = [launch = s.launch, facts = s.facts](
                  const Problem& p, const Params& params) -> std::unique_ptr<Instance> {
    return std::make_unique<GpuInstance>(problem_as<CovProblem>(p), params, launch, facts);
  };
  return v;
}

}  // namespace ladder::cov
