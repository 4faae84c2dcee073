// Shared plumbing for the GPU steps. Every GPU step runs the same pipeline on the device and
// times it with CUDA events, stage by stage:
//   mean:       column sums (blocks of columns x chunks of rows, atomically combined),
//   centre:     X = D - mu, with the coalesced (thread per element, row-major order) or the
//               strided (thread per row) mapping, chosen by the `centring` parameter,
//   covariance: the step's own kernel(s), reading X and writing the full n x n matrix.
// The run's time is the whole pipeline; each stage's median is recorded as well. A step's plan
// does its set-up (handles, occupancy queries) once, before anything is timed.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "../../harness/compiled_set.hpp"
#include "../../harness/gpu_instance.cuh"
#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::cov {

// What a covariance launch sees: the centred data X (m x n, row-major) and the output.
struct DeviceData {
  const float* x;
  float* cov;  // n x n, every entry must be written
  std::int64_t m, n;
};

using Plan = GpuPlan<DeviceData>;
using Planner = GpuPlanner<CovProblem, DeviceData>;
using GpuStep = Step<CovProblem, Planner>;

// The first two stages (gpu_pipeline.cu): column sums of the data, then the centred data X
// from them, with the coalesced or the strided thread mapping.
void launch_column_sums(const float* data, float* sums, std::int64_t m, std::int64_t n);
void launch_centre(const float* data, const float* sums, float* x, std::int64_t m,
                   std::int64_t n, bool strided);

class Pipeline : public GpuInstance<float> {
 public:
  Pipeline(const CovProblem& p, Plan plan, bool strided)
      : GpuInstance<float>(std::size_t(p.n * p.n), {std::size_t(p.n), std::size_t(p.n)}),
        p_(p),
        plan_(std::move(plan)),
        strided_(strided),
        data_(p.data),
        sums_(p.n),
        x_(p.data.size()) {}
  std::map<std::string, double> facts() const override { return plan_.facts; }

 protected:
  void enqueue() override {
    stage("mean");
    sums_.fill_bytes(0);
    launch_column_sums(data_.get(), sums_.get(), p_.m, p_.n);
    stage("centre");
    launch_centre(data_.get(), sums_.get(), x_.get(), p_.m, p_.n, strided_);
    stage("covariance");
    plan_.enqueue({x_.get(), out(), p_.m, p_.n});
  }

 private:
  const CovProblem& p_;
  Plan plan_;
  bool strided_;
  DeviceBuffer<float> data_, sums_, x_;
};

// Data, centred copy, output and column sums.
inline double device_bytes(const CovProblem& p) {
  return 4.0 * (2.0 * double(p.m) * double(p.n) + double(p.n) * double(p.n) + double(p.n));
}

inline VariantSpec gpu_step(GpuStep s) {
  s.params.push_back({"centring", "coalesced",
                      "centring thread mapping: coalesced (thread per element) or strided "
                      "(thread per row)",
                      ParamSpec::Kind::text, 0, 0, {"coalesced", "strided"}});
  MakeInstance<CovProblem, Planner> make = [](const CovProblem& p, const Params& params,
                                              const DeviceCaps& d, const Planner& plan) {
    return std::make_unique<Pipeline>(p, plan(p, params, d), params.text("centring") == "strided");
  };
  return make_variant<CovProblem, Planner>("covariance", Backend::gpu, std::move(s), device_bytes,
                                           make);
}

}  // namespace ladder::cov
