// Studies that compare query series against many subject series (DTW, TWED): the data, the
// query selection, the Q x entries output and the CPU steps, which compute one query's
// distances at a time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../datagen/series.hpp"
#include "step.hpp"

namespace ladder {

struct PairwiseProblem : Problem {
  SeriesSet data;  // the subjects
  // Queries are series of the same set: query_index[k] for query k.
  std::vector<std::int64_t> query_index;
  std::vector<float> queries;  // Q x n, row-major

  std::int64_t n() const { return static_cast<std::int64_t>(data.length); }
  std::int64_t entries() const { return static_cast<std::int64_t>(data.entries); }
  std::int64_t num_queries() const { return static_cast<std::int64_t>(query_index.size()); }
  const float* query(std::int64_t k) const { return queries.data() + k * n(); }
  std::size_t output_size() const { return static_cast<std::size_t>(num_queries() * entries()); }
  // The queries are every subject in order: the output is the set's distance matrix.
  bool queries_are_subjects() const {
    return num_queries() == entries() && !query_index.empty() && query_index.front() == 0;
  }
  // Q x entries; a single query gives a flat vector of distances.
  std::vector<std::size_t> shape() const {
    if (num_queries() == 1) return {std::size_t(entries())};
    return {std::size_t(num_queries()), std::size_t(entries())};
  }
};

// `query` (first series used as a query) and `queries` (how many).
std::vector<ParamSpec> query_params();
// Throws InputError when the queries go beyond the data set's series.
void check_queries(const Params& p, std::int64_t entries);
// Copies the selected query series out of the data set.
void select_queries(PairwiseProblem& p, const Params& params);
// A point's footprint: subjects with labels and a time-major copy (made while a GPU step is
// prepared), the queries, and Q x entries float distances.
Footprint pairwise_footprint(double n, double entries, double queries);

// A CPU step computes the distances of one query to every subject.
template <class P>
using PairCompute = std::function<void(const P&, const float* query, float* dist)>;
template <class P>
using CpuPairStep = Step<P, PairCompute<P>>;

template <class P>
VariantSpec cpu_pair_variant(std::string study, CpuPairStep<P> s) {
  // Each run computes every query's row of distances.
  HostCompute<P> all = [one = s.impl](const P& p, float* d) {
    for (std::int64_t q = 0; q < p.num_queries(); ++q) one(p, p.query(q), d + q * p.entries());
  };
  Step<P, HostCompute<P>> step{s.name, s.step, s.label, s.change, s.role, s.precision,
                               s.params, all, s.limit, s.scratch_bytes};
  return host_variant<P>(std::move(study), std::move(step), [](const P& p) { return p.shape(); },
                         [](const P& p) { return 4.0 * double(p.output_size()); });
}

}  // namespace ladder
