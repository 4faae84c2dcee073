// What every EED GPU step shares. The timed run is the paper's: the strings are copied to the
// device, preprocessed (the steps that use the last-occurrence table P), the distances
// computed and copied back; each is a stage of its own, so the kernels alone are recorded
// too. A step's set-up gives its preprocessing and compute launches over a `Pairs` view, on
// the run's stream like the copies.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../../harness/gpu_instance.cuh"
#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::eed {

// The device's view of the pairs: string s (A_k = 2k, B_k = 2k + 1) is
// codes[offset[s], offset[s + 1]).
struct Pairs {
  const std::uint8_t* codes;
  const std::int64_t* offset;
  std::int64_t pairs;
  int alphabet;
  Costs costs;
  std::int32_t* out;  // one distance per pair

  __device__ const std::uint8_t* a(std::int64_t k) const { return codes + offset[2 * k]; }
  __device__ const std::uint8_t* b(std::int64_t k) const { return codes + offset[2 * k + 1]; }
  __device__ std::int64_t n(std::int64_t k) const { return offset[2 * k + 1] - offset[2 * k]; }
  __device__ std::int64_t m(std::int64_t k) const { return offset[2 * k + 2] - offset[2 * k + 1]; }
};

// A step's launches, set up (scratch allocated, attributes set) outside the timed window.
struct EedSetup {
  std::function<void(const Pairs&, cudaStream_t)> preprocess;  // empty when the step needs none
  std::function<void(const Pairs&, cudaStream_t)> compute;
  std::map<std::string, double> facts = {};
};
using SetupFn = std::function<EedSetup(const EedProblem&, const Params&, const DeviceCaps&)>;
using GpuStep = Step<EedProblem, SetupFn>;

// One cell of the recurrence; `swap` is the swap's whole sum, or at least kNoSwap when there
// is no swap (then it never wins).
__device__ __forceinline__ std::int32_t eed_cell(std::int32_t diag, std::int32_t up,
                                                 std::int32_t left, bool same, std::int32_t swap,
                                                 const Costs& c) {
  return min(min(diag + (same ? 0 : c.sub), up + c.del), min(left + c.ins, swap));
}

class EedGpu : public GpuInstance<std::int32_t> {
 public:
  EedGpu(const EedProblem& p, EedSetup setup)
      : GpuInstance<std::int32_t>(std::size_t(p.pairs()), {std::size_t(p.pairs())}),
        p_(p),
        setup_(std::move(setup)),
        host_codes_(p.data.codes),
        host_offset_(p.data.offset),
        host_out_(std::size_t(p.pairs())),
        codes_(p.data.codes.size()),
        offset_(p.data.offset.size()) {}
  std::map<std::string, double> facts() const override { return setup_.facts; }

 protected:
  void enqueue(cudaStream_t stream) override {
    stage("copy in");
    copy(codes_.get(), host_codes_.get(), host_codes_.bytes(), cudaMemcpyHostToDevice, stream);
    copy(offset_.get(), host_offset_.get(), host_offset_.bytes(), cudaMemcpyHostToDevice, stream);
    const Pairs view{codes_.get(), offset_.get(), p_.pairs(), p_.alphabet(), p_.costs, out()};
    if (setup_.preprocess) {
      stage("preprocess");
      setup_.preprocess(view, stream);
    }
    stage("compute");
    setup_.compute(view, stream);
    stage("copy out");
    copy(host_out_.get(), out(), host_out_.bytes(), cudaMemcpyDeviceToHost, stream);
  }

 private:
  static void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind,
                   cudaStream_t stream) {
    if (bytes > 0) LADDER_CUDA(cudaMemcpyAsync(to, from, bytes, kind, stream));
  }
  const EedProblem& p_;
  EedSetup setup_;
  PinnedBuffer<std::uint8_t> host_codes_;
  PinnedBuffer<std::int64_t> host_offset_;
  PinnedBuffer<std::int32_t> host_out_;
  DeviceBuffer<std::uint8_t> codes_;
  DeviceBuffer<std::int64_t> offset_;
};

// Strings, offsets and distances on the device.
inline double device_bytes(const EedProblem& p) {
  return double(p.data.codes.size()) + 8.0 * double(p.data.offset.size()) + 4.0 * double(p.pairs());
}

inline VariantSpec gpu_step(GpuStep s) {
  s.precision = Precision::int32;
  auto scratch = s.scratch_bytes;
  MakeInstance<EedProblem, SetupFn> make = [](const EedProblem& p, const Params& params,
                                              const DeviceCaps& d, const SetupFn& setup) {
    return std::make_unique<EedGpu>(p, setup(p, params, d));
  };
  return make_variant<EedProblem, SetupFn>("eed", Backend::gpu, std::move(s), device_bytes, make);
}

// Per-pair offsets into a scratch arena of `per_pair(k)` elements each, and their total.
template <class F>
std::vector<std::int64_t> arena_offsets(const EedProblem& p, F per_pair) {
  std::vector<std::int64_t> off(std::size_t(p.pairs() + 1), 0);
  for (std::int64_t k = 0; k < p.pairs(); ++k) off[k + 1] = off[k] + per_pair(k);
  return off;
}

// Steps whose blocks take pairs in turn, each from its own scratch slot: as many slots as fit
// in `budget` bytes at `slot_bytes` each, at least one, at most one per pair.
inline std::int64_t slot_count(const EedProblem& p, double slot_bytes, double budget) {
  return std::clamp<std::int64_t>(std::int64_t(budget / slot_bytes), 1,
                                  std::max<std::int64_t>(p.pairs(), 1));
}

// Elements of a pair's last-occurrence table: (n + 1) rows of `alphabet` entries.
inline std::int64_t table_size(const EedProblem& p, std::int64_t k) {
  return (p.data.a_length(k) + 1) * p.alphabet();
}

// preprocess.cu: the three ways to build every pair's table P into `tables` (offsets from
// arena_offsets with table_size): serially on the host (from pinned memory, then copied),
// forward scans on the device (thread i scans A[1..i-1]), and backward scans from A in
// shared memory (thread i scans back from i-1 and stops once every symbol is found).
enum class Prep { serial, forward, backward };
struct PrepSetup {
  Prep method;
  std::shared_ptr<DeviceBuffer<std::int32_t>> tables;
  std::shared_ptr<DeviceBuffer<std::int64_t>> offsets;
  std::shared_ptr<PinnedBuffer<std::int32_t>> host;  // serial only
  std::vector<std::int64_t> host_offsets;
  void operator()(const Pairs& view, const EedProblem& p, cudaStream_t stream) const;
};
PrepSetup prep_setup(const EedProblem& p, Prep method);
double prep_bytes(const EedProblem& p);
// Why the chosen preprocessing cannot run this point here ("" when it can).
std::string prep_reason(const EedProblem& p, const Params& params, const DeviceCaps& d);
// The choice as a step parameter.
ParamSpec prep_param(const std::string& default_value);
Prep prep_of(const Params& params);

}  // namespace ladder::eed
