// Shared plumbing for the GPU steps. Every GPU step runs the same pipeline on the device and
// times it with CUDA events, stage by stage:
//   mean:       column sums (blocks of columns x chunks of rows, atomically combined),
//   centre:     X = D - mu, with the coalesced (thread per element, row-major order) or the
//               strided (thread per row) mapping, chosen by the `centring` parameter,
//   covariance: the step's own kernel(s), reading X and writing the full n x n matrix.
// X is m x n as given (Layout::plain), or (Layout::padded) its rows are padded with zeros to
// a multiple of 4 floats, so that every row starts 16-byte aligned whatever n is, and
// (Layout::padded_tf32) its values are rounded to TF32 as they are written, for a step that
// feeds them to tensor cores as they are. The transposed layouts write X^T instead (n rows of
// m values, each row padded with zeros to a multiple of 128 bytes), rounded to TF32, for
// tensor-core instructions that read both operands with k contiguous (Hopper's wgmma on TF32);
// Layout::transposed_split also writes the TF32 of each value's rounding error, X^T_lo.
// The FP16 layouts write X^T as halves (rows padded the same way), each feature scaled by a
// power of two that puts its largest value just under 2^14: FP16 then keeps TF32's 10-bit
// mantissa with no overflow, and the power of two comes back out exactly. They need each
// feature's largest distance from its first value, which the mean stage finds as it sums (with
// the first value's distance from the mean it bounds every centred value);
// Layout::transposed_f16_split also writes the FP16 of each scaled value's rounding error.
// The run's time is the whole pipeline; each stage's median is recorded as well. A step's set-up
// function does its set-up (handles, occupancy queries) once, before anything is timed; every
// stage launches on the run's stream.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "../../harness/compiled_set.hpp"
#include "../../harness/gpu_instance.cuh"
#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::covariance {

// What a covariance launch sees: the centred data X (m x n, row-major, or X^T for the
// transposed layouts) and the output.
struct DeviceData {
  const float* x;  // the FP16 layouts: halves, in a buffer of floats
  float* cov;  // n x n, every entry must be written
  std::int64_t m, n;
  std::int64_t ld;  // the row stride of x in its values: n, n rounded up to 4, or (X^T) m
                    // rounded up to 128 bytes
  const float* x_lo = nullptr;     // the split layouts: X^T's rounding errors, stride ld
  const float* unscale = nullptr;  // the FP16 layouts: feature j's values are X * 1/unscale[j]
};

// The FP16 layouts' scale-back of a stored value of C[i][j] (a sum of products of scaled
// halves): both features' powers of two, exact unless the result leaves FP32's normal range.
// Every step on those layouts (the wgmma kernel, the cuBLAS peer) ends with it, so their
// outputs differ by the order of their FP32 additions alone.
__device__ __forceinline__ float unscaled(float v, const float* unscale, std::int64_t i,
                                          std::int64_t j) {
  return v * unscale[i] * unscale[j];
}

enum class Layout {
  plain,
  padded,
  padded_tf32,
  transposed,
  transposed_split,
  transposed_f16,
  transposed_f16_split
};

inline bool half(Layout layout) {
  return layout == Layout::transposed_f16 || layout == Layout::transposed_f16_split;
}
inline bool split(Layout layout) {
  return layout == Layout::transposed_split || layout == Layout::transposed_f16_split;
}
inline bool transposed(Layout layout) {
  return layout == Layout::transposed || split(layout) || half(layout);
}

// The row stride of the centred copy (in values), and how many floats hold the copy (each of
// its arrays). Padded rows start 16 bytes apart for cp.async; rows of X^T 128 bytes apart, so
// that each 128-byte row of a TMA box is one aligned line of L2, not parts of two.
inline std::int64_t row_stride(const CovProblem& p, Layout layout) {
  if (layout == Layout::plain) return p.n;
  if (!transposed(layout)) return ceil_div(p.n, 4) * 4;
  const int quantum = half(layout) ? 64 : 32;
  return ceil_div(p.m, quantum) * quantum;
}
inline std::int64_t copy_floats(const CovProblem& p, Layout layout) {
  const std::int64_t values = (transposed(layout) ? p.n : p.m) * row_stride(p, layout);
  return half(layout) ? values / 2 : values;  // ld is even for halves
}

using Setup = GpuSetup<DeviceData>;
using SetupFn = GpuSetupFn<CovProblem, DeviceData>;
using GpuStep = Step<CovProblem, SetupFn>;

// The first two stages (gpu_pipeline.cu), on `stream`: column sums of the data (with `bounds`
// set, zeroed, also each feature's largest |D[r][j] - D[0][j]|, for the FP16 layouts), then
// the centred data X from them, with the coalesced or the strided thread mapping.
void launch_column_sums(const float* data, float* sums, float* bounds, std::int64_t m,
                        std::int64_t n, cudaStream_t stream);
void launch_centre(const float* data, const float* sums, float* x, std::int64_t m,
                   std::int64_t n, bool strided, cudaStream_t stream);
// The padded layouts: X with row stride ld, zeros past n, optionally rounded to TF32.
void launch_centre_padded(const float* data, const float* sums, float* x, std::int64_t m,
                          std::int64_t n, std::int64_t ld, bool tf32, cudaStream_t stream);
// The transposed layouts: X^T with row stride ld (zeros past m), rounded to TF32, and when
// x_lo is set, the TF32 of each value's rounding error there.
void launch_centre_transposed(const float* data, const float* sums, float* xt, float* xt_lo,
                              std::int64_t m, std::int64_t n, std::int64_t ld,
                              cudaStream_t stream);
// The FP16 layouts: X^T as halves scaled by 2^e_j (see above; rows of ld halves, zeros past
// m), unscale[j] = 2^-e_j, and when xt_lo is set the FP16 of each scaled value's rounding
// error there.
void launch_centre_transposed_f16(const float* data, const float* sums, const float* bounds,
                                  void* xt, void* xt_lo, float* unscale, std::int64_t m,
                                  std::int64_t n, std::int64_t ld, cudaStream_t stream);

class Pipeline : public GpuInstance<float> {
 public:
  Pipeline(const CovProblem& p, Setup setup, bool strided, Layout layout)
      : GpuInstance<float>(std::size_t(p.n * p.n), {std::size_t(p.n), std::size_t(p.n)}),
        p_(p),
        setup_(std::move(setup)),
        strided_(strided),
        layout_(layout),
        ld_(row_stride(p, layout)),
        data_(p.data),
        sums_(p.n),
        x_(std::size_t(copy_floats(p, layout))),
        x_lo_(split(layout) ? std::size_t(copy_floats(p, layout)) : 0),
        bounds_(half(layout) ? std::size_t(p.n) : 0),
        unscale_(half(layout) ? std::size_t(p.n) : 0) {}
  std::map<std::string, double> facts() const override { return setup_.all_facts(); }

 protected:
  void enqueue(cudaStream_t stream) override {
    stage("mean");
    sums_.fill_bytes(0, stream);
    if (half(layout_)) bounds_.fill_bytes(0, stream);
    launch_column_sums(data_.get(), sums_.get(), bounds_.get(), p_.m, p_.n, stream);
    stage("centre");
    if (half(layout_))
      launch_centre_transposed_f16(data_.get(), sums_.get(), bounds_.get(), x_.get(),
                                   x_lo_.get(), unscale_.get(), p_.m, p_.n, ld_, stream);
    else if (layout_ == Layout::plain)
      launch_centre(data_.get(), sums_.get(), x_.get(), p_.m, p_.n, strided_, stream);
    else if (transposed(layout_))
      launch_centre_transposed(data_.get(), sums_.get(), x_.get(), x_lo_.get(), p_.m, p_.n, ld_,
                               stream);
    else
      launch_centre_padded(data_.get(), sums_.get(), x_.get(), p_.m, p_.n, ld_,
                           layout_ == Layout::padded_tf32, stream);
    stage("covariance");
    setup_.enqueue({x_.get(), out(), p_.m, p_.n, ld_, x_lo_.get(), unscale_.get()}, stream);
  }

 private:
  const CovProblem& p_;
  Setup setup_;
  bool strided_;
  Layout layout_;
  std::int64_t ld_;
  DeviceBuffer<float> data_, sums_, x_, x_lo_, bounds_, unscale_;
};

// Data, centred copy (or copies), output, column sums (and the FP16 layouts' bounds and scales).
inline double device_bytes(const CovProblem& p, Layout layout) {
  const double copies = split(layout) ? 2 : 1;
  const double per_feature = half(layout) ? 3 : 1;
  return 4.0 * (double(p.m) * double(p.n) + copies * double(copy_floats(p, layout)) +
                double(p.n) * double(p.n) + per_feature * double(p.n));
}

// What the pipeline must move through DRAM at a point, whatever the covariance kernel's
// schedule: D read by the mean stage and again by the centring stage (no value can be centred
// before every row has been summed), the centred copy written once and read back at least
// once (each of its arrays, as the layout pads them; halves in the FP16 layouts, so half the
// bytes of TF32's), and C written once. Every GPU step runs this pipeline, so the copy is
// inherent to each; the real traffic is larger (the kernels read the copy through L2 many
// times, the mirror reads half of C back, and the n-value sums and scales are left out), so
// the bound this gives is never below the true one.
inline Traffic pipeline_traffic(const CovProblem& p, Layout layout) {
  const double copies = split(layout) ? 2 : 1, values = double(p.m) * double(p.n);
  const double bytes = 2 * 4.0 * values + 2 * copies * 4.0 * double(copy_floats(p, layout)) +
                       4.0 * double(p.n) * double(p.n);
  const std::string copy = !transposed(layout) ? "X"
                           : split(layout)     ? "X^T and X^T_lo"
                                               : "X^T";
  // Passes: D twice, each array of the copy written and read, C.
  return {bytes, int(3 + 2 * copies), "flops",
          "D read by the mean and centring stages, " + copy + (half(layout) ? " in FP16" : "") +
              " written and read back, C written"};
}

// A padded layout has no strided centring: its `centring` offers the coalesced mapping only.
inline VariantSpec gpu_step(GpuStep s, Layout layout = Layout::plain) {
  std::vector<std::string> mappings{"coalesced"};
  if (layout == Layout::plain) mappings.push_back("strided");
  s.params.push_back({"centring", "coalesced",
                      "centring thread mapping: coalesced (thread per element) or, unless the "
                      "rows are padded, strided (thread per row)",
                      ParamSpec::Kind::text, 0, 0, mappings});
  MakeInstance<CovProblem, SetupFn> make = [layout](const CovProblem& p, const Params& params,
                                                    const DeviceCaps& d, const SetupFn& setup) {
    return std::make_unique<Pipeline>(p, setup(p, params, d), params.text("centring") == "strided",
                                      layout);
  };
  VariantSpec v = make_variant<CovProblem, SetupFn>(
      "covariance", Backend::gpu, std::move(s),
      [layout](const CovProblem& p) { return device_bytes(p, layout); }, make);
  v.traffic = [layout](const Problem& p) {
    return pipeline_traffic(problem_as<CovProblem>(p), layout);
  };
  return v;
}

}  // namespace ladder::covariance
