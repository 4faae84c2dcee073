// One step builder for every study. A step file declares what it is with designated
// initialisers, the same field names in every study:
//   const Registrar r{gpu_step({.name = "shared", .step = 6, .label = "shared-memory rows",
//                               .change = "...", .impl = setup, .limit = shared_rows_limit})};
// and the study's glue (a few lines) turns it into a VariantSpec with make_variant(), giving
// the bytes every step of the study needs and how to build its instance from the step's impl.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host_instance.hpp"
#include "memory.hpp"
#include "study.hpp"

namespace ladder {

template <class P>
using Limit = std::function<std::string(const P&, const Params&, const DeviceCaps&)>;

// `Impl` is how the step computes, in the study's terms: a CPU function, or a set-up function
// that does the launch set-up (attributes, handles, occupancy queries) once, outside the timed
// window, and returns what enqueues the kernels (a GpuSetup, a PairSetup or a study's own).
template <class P, class Impl>
struct Step {
  std::string name;
  int step = 0;
  std::string label;   // short display name
  std::string change;  // one line: what changed from the step before, and why
  Role role = Role::step;
  Precision precision = Precision::fp32;
  std::vector<ParamSpec> params = {};
  Impl impl = {};
  Limit<P> limit = {};  // limits beyond memory: "" when the point can run here
  // Memory beyond what the study counts for every step (scratch), in bytes.
  std::function<double(const P&, const Params&)> scratch_bytes = {};
  // Architecture features the step uses (DPX, wgmma): the runner marks the run emulated or
  // unsupported on a device without them.
  std::vector<Feature> needs = {};
};

template <class P, class Impl>
using MakeInstance = std::function<std::unique_ptr<Instance>(const P&, const Params&,
                                                              const DeviceCaps&, const Impl&)>;

// The VariantSpec of one step: its support check (the step's limits, then host or device
// memory: `base_bytes` for every step of the study plus the step's scratch) and its prepare.
template <class P, class Impl>
VariantSpec make_variant(std::string study, Backend backend, Step<P, Impl> s,
                         std::function<double(const P&)> base_bytes,
                         MakeInstance<P, Impl> make) {
  VariantSpec v{.study = std::move(study),
                .name = std::move(s.name),
                .step = s.step,
                .label = std::move(s.label),
                .change = std::move(s.change),
                .role = s.role,
                .backend = backend,
                .precision = s.precision,
                .params = std::move(s.params),
                .needs = std::move(s.needs)};
  v.supports = [limit = s.limit, scratch = s.scratch_bytes, base_bytes, backend](
                   const Problem& pr, const Params& params, const DeviceCaps& d) {
    const P& p = problem_as<P>(pr);
    const std::string why = limit ? limit(p, params, d) : "";
    if (!why.empty()) return why;
    const double bytes = base_bytes(p) + (scratch ? scratch(p, params) : 0.0);
    return backend == Backend::gpu ? device_memory_reason(bytes, d)
                                   : host_memory_reason(bytes, "this step");
  };
  v.prepare = [impl = std::move(s.impl), make = std::move(make)](
                  const Problem& pr, const Params& params, const DeviceCaps& d) {
    return make(problem_as<P>(pr), params, d, impl);
  };
  return v;
}

// A CPU step whose impl fills the whole output (`shape` of it) in host memory; `bytes` is what
// every CPU step of the study needs besides the problem itself.
template <class P, class T = float>
using HostCompute = std::function<void(const P&, T* out)>;

template <class P, class T = float>
VariantSpec host_variant(std::string study, Step<P, HostCompute<P, T>> s,
                         std::function<std::vector<std::size_t>(const P&)> shape,
                         std::function<double(const P&)> bytes) {
  MakeInstance<P, HostCompute<P, T>> make = [shape](const P& p, const Params&, const DeviceCaps&,
                                                     const HostCompute<P, T>& compute) {
    std::vector<std::size_t> dims = shape(p);
    std::size_t size = 1;
    for (std::size_t d : dims) size *= d;
    return std::make_unique<HostInstance<T>>(size, std::move(dims),
                                             [&p, compute](T* out) { compute(p, out); });
  };
  return make_variant<P, HostCompute<P, T>>(std::move(study), Backend::cpu, std::move(s), bytes,
                                            make);
}

}  // namespace ladder
