// The GPU side of queries x series studies (DTW, TWED): subjects and queries are uploaded once
// when a step is prepared (time-major when the step asks), and each timed run launches the
// step once per query, or once for all queries when the step asks.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "gpu_instance.cuh"
#include "pairwise.hpp"

namespace ladder {

// What one launch sees: `queries` queries from query number `first_query` on (one, unless the
// step asks for all at once) against every subject; `query` and `dist` point at the first
// one's values and row of distances. `series` is entries x n, or n x entries for steps that
// ask for time-major subjects. `scratch` is the step's own global memory, when it asks for
// some. `args` are the study's own (a band, a stiffness...).
template <class Args>
struct PairLaunch {
  const float* query;
  const float* series;
  float* dist;
  float* scratch;
  std::int64_t n;
  std::int64_t entries;
  Args args;
  std::int64_t first_query = 0;
  std::int64_t queries = 1;
};

// What a step's set-up function returns: the launch (on the stream it is given), and how it
// wants the data.
template <class Args>
struct PairSetup {
  std::function<void(const PairLaunch<Args>&, cudaStream_t)> enqueue;
  bool time_major = false;
  bool all_queries = false;  // one launch for every query instead of one per query
  std::map<std::string, double> facts = {};
};

template <class P, class Args>
using PairSetupFn = std::function<PairSetup<Args>(const P&, const Params&, const DeviceCaps&)>;
template <class P, class Args>
using GpuPairStep = Step<P, PairSetupFn<P, Args>>;

// Floats of padding after the device copy of the queries: a kernel may read this far past the
// end of a query (e.g. loading query values in blocks).
constexpr int kQueryPadding = 16;

// Subjects time-major: element (e, t) moves to t * entries + e.
inline std::vector<float> time_major(const SeriesSet& s) {
  std::vector<float> t(s.values.size());
  for (std::size_t e = 0; e < s.entries; ++e)
    for (std::size_t j = 0; j < s.length; ++j) t[j * s.entries + e] = s.values[e * s.length + j];
  return t;
}

inline std::vector<float> padded(std::vector<float> v) {
  v.resize(v.size() + kQueryPadding, 0.f);
  return v;
}

template <class Args>
class PairwiseGpu : public GpuInstance<float> {
 public:
  PairwiseGpu(const PairwiseProblem& p, PairSetup<Args> setup, Args args, std::size_t scratch)
      : GpuInstance<float>(p.output_size(), p.shape()),
        p_(p),
        setup_(std::move(setup)),
        args_(args),
        queries_(padded(p.queries)),
        series_(setup_.time_major ? time_major(p.data) : p.data.values),
        scratch_(scratch) {}
  std::map<std::string, double> facts() const override { return setup_.facts; }

 protected:
  void enqueue(cudaStream_t stream) override {
    if (setup_.all_queries) return launch(0, p_.num_queries(), stream);
    for (std::int64_t q = 0; q < p_.num_queries(); ++q) launch(q, 1, stream);
  }

 private:
  void launch(std::int64_t first, std::int64_t count, cudaStream_t stream) {
    setup_.enqueue({queries_.get() + first * p_.n(), series_.get(), out() + first * p_.entries(),
                    scratch_.get(), p_.n(), p_.entries(), args_, first, count},
                   stream);
  }

  const PairwiseProblem& p_;
  PairSetup<Args> setup_;
  Args args_;
  DeviceBuffer<float> queries_, series_, scratch_;
};

// The VariantSpec of a GPU step of a queries x series study; `args` derives the study's own
// launch arguments from the problem.
template <class P, class Args>
VariantSpec gpu_pair_variant(std::string study, GpuPairStep<P, Args> s,
                             std::function<Args(const P&)> args) {
  auto scratch = s.scratch_bytes;
  MakeInstance<P, PairSetupFn<P, Args>> make = [args, scratch](
      const P& p, const Params& params, const DeviceCaps& d, const PairSetupFn<P, Args>& setup) {
    const std::size_t floats = scratch ? std::size_t(scratch(p, params) / sizeof(float)) : 0;
    return std::make_unique<PairwiseGpu<Args>>(p, setup(p, params, d), args(p), floats);
  };
  auto bytes = [](const P& p) {
    return 4.0 * (double(p.data.values.size()) + double(p.queries.size()) + kQueryPadding +
                  double(p.output_size()));
  };
  return make_variant<P, PairSetupFn<P, Args>>(std::move(study), Backend::gpu, std::move(s),
                                               bytes, make);
}

}  // namespace ladder
