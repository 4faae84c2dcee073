// What every TWED GPU step shares: the device copy of the two lists in the step's precision,
// the delete costs (computed on the device, inside the timed window, as cuTWED does), the
// output matrix, and the triangle mode's mirror. A step's set-up returns the launch of its
// kernels on a `Lists` view (and the run's stream); in triangle mode it need only write i < j:
// the mirror completes the matrix.
#pragma once
#include <algorithm>
#include <string>

#include "../../harness/gpu_instance.cuh"
#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::twed {

template <class T>
struct Lists {
  const T* a;      // rows x n x dim
  const T* ta;     // rows x n
  const T* del_a;  // rows x (n + 1): delA(i), entry 0 unused (0)
  const T* b;      // cols x m x dim (A's buffers in triangle mode)
  const T* tb;     // cols x m
  const T* del_b;  // cols x (m + 1)
  const T* zero;   // kMaxDim zeros: the implicit point a_0 = b_0
  T* out;          // rows x cols, row-major
  T* scratch;      // the step's own global memory (scratch_bytes), or null
  std::int64_t rows, cols, n, m;
  int dim;
  bool triangle;   // only pairs i < j are needed
  CostsT<T> costs;

  __host__ __device__ PointRef<T> a_ref(std::int64_t i) const {
    return {a + i * n * dim, ta + i * n, dim};
  }
  __host__ __device__ PointRef<T> b_ref(std::int64_t j) const {
    return {b + j * m * dim, tb + j * m, dim};
  }
};

template <class T>
using Setup = GpuSetup<Lists<T>>;
template <class T>
using SetupFn = GpuSetupFn<TwedProblem, Lists<T>>;
template <class T>
using GpuStep = Step<TwedProblem, SetupFn<T>>;

// gpu_common.cu: delete costs of `count` series of `length` points, and the triangle's mirror
// (zero diagonal, lower half copied from the upper), on `stream`.
template <class T>
void launch_delete_costs(const T* x, const T* t, std::int64_t count, std::int64_t length,
                         int dim, CostsT<T> c, const T* zero, T* del, cudaStream_t stream);
template <class T>
void launch_mirror(T* out, std::int64_t rows, cudaStream_t stream);

template <class T>
std::vector<T> converted(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class T>
class TwedGpu : public GpuInstance<T> {
 public:
  TwedGpu(const TwedProblem& p, Setup<T> setup, std::size_t scratch)
      : GpuInstance<T>(p.output_size(), p.shape()),
        p_(p),
        setup_(std::move(setup)),
        a_(converted<T>(p.a.values)),
        ta_(converted<T>(p.a.times)),
        b_(p.mode == Mode::triangle ? 0 : p.b.values.size()),
        tb_(p.mode == Mode::triangle ? 0 : p.b.times.size()),
        del_a_(std::size_t(p.rows() * (p.n() + 1))),
        del_b_(p.mode == Mode::triangle ? 0 : std::size_t(p.cols() * (p.m() + 1))),
        zero_(std::vector<T>(kMaxDim, T(0))),
        scratch_(ceil_div(scratch, sizeof(T))) {
    if (p.mode != Mode::triangle) b_.upload(converted<T>(p.b.values)), tb_.upload(converted<T>(p.b.times));
  }
  std::map<std::string, double> facts() const override { return setup_.all_facts(); }

 protected:
  void enqueue(cudaStream_t stream) override {
    const bool tri = p_.mode == Mode::triangle;
    const Lists<T> l{a_.get(), ta_.get(), del_a_.get(),
                     tri ? a_.get() : b_.get(), tri ? ta_.get() : tb_.get(),
                     tri ? del_a_.get() : del_b_.get(), zero_.get(), this->out(),
                     scratch_.get(), p_.rows(), p_.cols(), p_.n(), p_.m(), int(p_.dim()), tri,
                     CostsT<T>(p_.costs)};
    this->stage("delete costs");
    launch_delete_costs(l.a, l.ta, l.rows, l.n, l.dim, l.costs, l.zero, del_a_.get(), stream);
    if (!tri)
      launch_delete_costs(l.b, l.tb, l.cols, l.m, l.dim, l.costs, l.zero, del_b_.get(), stream);
    this->stage("twed");
    setup_.enqueue(l, stream);
    if (tri) launch_mirror(this->out(), l.rows, stream);
  }

 private:
  const TwedProblem& p_;
  Setup<T> setup_;
  DeviceBuffer<T> a_, ta_, b_, tb_, del_a_, del_b_, zero_, scratch_;
};

template <class T>
constexpr Precision precision_of() {
  return sizeof(T) == 8 ? Precision::fp64 : Precision::fp32;
}

// Inputs, delete costs and the output in the step's precision.
inline double device_bytes(const TwedProblem& p, std::size_t word) {
  const double a = double(p.a.values.size() + p.a.times.size()) + double(p.rows() * (p.n() + 1));
  const double b = p.mode == Mode::triangle
                       ? 0.0
                       : double(p.b.values.size() + p.b.times.size()) + double(p.cols() * (p.m() + 1));
  return double(word) * (a + b + double(p.output_size()) + kMaxDim);
}

// The VariantSpec of a GPU step in precision T: fp64 keeps the step's name, fp32 adds
// "_fp32". Points beyond R^kMaxDim are refused before the step's own limit is asked.
template <class T>
VariantSpec gpu_step(GpuStep<T> s) {
  if (precision_of<T>() == Precision::fp32) s.name += "_fp32", s.label += " (fp32)";
  s.precision = precision_of<T>();
  s.limit = [own = s.limit](const TwedProblem& p, const Params& params, const DeviceCaps& d) {
    if (p.dim() > kMaxDim)
      return "points in R^" + std::to_string(p.dim()) + " exceed the GPU steps' limit of R^" +
             std::to_string(kMaxDim);
    return own ? own(p, params, d) : std::string();
  };
  auto scratch = s.scratch_bytes;
  MakeInstance<TwedProblem, SetupFn<T>> make = [scratch](const TwedProblem& p,
                                                        const Params& params,
                                                        const DeviceCaps& d,
                                                        const SetupFn<T>& setup) {
    const std::size_t bytes = scratch ? std::size_t(scratch(p, params)) : 0;
    return std::make_unique<TwedGpu<T>>(p, setup(p, params, d), bytes);
  };
  return make_variant<TwedProblem, SetupFn<T>>(
      "twed", Backend::gpu, std::move(s),
      [](const TwedProblem& p) { return device_bytes(p, sizeof(T)); }, make);
}

}  // namespace ladder::twed
