// What every skyline GPU step shares: the points on the device (row-major as given, and
// attribute-major for the steps that read attribute by attribute), the 0/1 output, and the
// step glue. The timed work is the steps' kernels; uploads happen when the step is prepared.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "../../harness/gpu_instance.cuh"
#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::skyline {

// The device's view of one point set.
struct Points {
  const float* rows;  // n x d, point i at rows[i * d]
  const float* cols;  // d x n, attribute k of point i at cols[k * n + i]; null unless asked
  std::int64_t n;
  int d;
  std::int32_t* member;  // 1 when point i is in the skyline, else 0
};

using SetupFn = GpuSetupFn<SkylineProblem, Points>;
using GpuStep = Step<SkylineProblem, SetupFn>;

// The attribute-major copy of row-major points.
inline std::vector<float> transposed(const PointSet& pts) {
  std::vector<float> cols(pts.values.size());
  for (std::int64_t i = 0; i < pts.n; ++i)
    for (int k = 0; k < pts.d; ++k) cols[std::size_t(k) * pts.n + i] = pts.values[i * pts.d + k];
  return cols;
}

class SkylineGpu : public GpuInstance<std::int32_t> {
 public:
  SkylineGpu(const SkylineProblem& p, GpuSetup<Points> setup, bool columns)
      : GpuInstance<std::int32_t>(std::size_t(p.n()), {std::size_t(p.n())}),
        setup_(std::move(setup)),
        rows_(p.points.values),
        cols_(columns ? transposed(p.points) : std::vector<float>{}),
        n_(p.n()),
        d_(p.d()) {}
  std::map<std::string, double> facts() const override { return setup_.all_facts(); }

 protected:
  void enqueue(cudaStream_t stream) override {
    if (n_ == 0) return;  // an empty set has an empty skyline: nothing to launch
    setup_.enqueue(Points{rows_.get(), cols_.size() ? cols_.get() : nullptr, n_, d_, out()},
                   stream);
  }

 private:
  GpuSetup<Points> setup_;
  DeviceBuffer<float> rows_, cols_;
  std::int64_t n_;
  int d_;
};

// Points (one or two layouts) and the flags.
inline double device_bytes(const SkylineProblem& p, bool columns) {
  return (columns ? 8.0 : 4.0) * double(p.n()) * p.d() + 4.0 * double(p.n());
}

// `columns`: the step reads the attribute-major copy too.
inline VariantSpec gpu_step(GpuStep s, bool columns) {
  s.precision = Precision::fp32;
  MakeInstance<SkylineProblem, SetupFn> make = [columns](const SkylineProblem& p,
                                                         const Params& params, const DeviceCaps& d,
                                                         const SetupFn& setup) {
    return std::make_unique<SkylineGpu>(p, setup(p, params, d), columns);
  };
  return make_variant<SkylineProblem, SetupFn>(
      "skyline", Backend::gpu, std::move(s),
      [columns](const SkylineProblem& p) { return device_bytes(p, columns); }, make);
}

}  // namespace ladder::skyline
