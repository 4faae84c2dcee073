#include "pairwise.hpp"

#include "../datagen/base/errors.hpp"

namespace ladder {

std::vector<ParamSpec> query_params() {
  using K = ParamSpec::Kind;
  return {{"query", "0", "index of the (first) series used as a query", K::integer, 0, 1 << 30},
          {"queries", "1",
           "number of queries: series query .. query+queries-1 (query 0 and queries = the "
           "number of series: the set against itself)",
           K::integer, 1, 1 << 24}};
}

void check_queries(const Params& p, std::int64_t entries) {
  const std::int64_t first = p.integer("query"), count = p.integer("queries");
  if (first + count > entries)
    throw InputError("query series " + std::to_string(first) + ".." +
                     std::to_string(first + count - 1) + " go beyond the " +
                     std::to_string(entries) + " series of the data set");
}

void select_queries(PairwiseProblem& p, const Params& params) {
  check_queries(params, p.entries());
  const std::int64_t first = params.integer("query"), count = params.integer("queries");
  for (std::int64_t k = first; k < first + count; ++k) {
    p.query_index.push_back(k);
    p.queries.insert(p.queries.end(), p.data.series(k), p.data.series(k) + p.n());
  }
}

Footprint pairwise_footprint(double n, double entries, double queries) {
  Footprint f{4.0 * (2 * n + 1) * entries + 4.0 * n * queries, queries * entries, 4};
  f.inner = n * n;  // DP cells per distance
  return f;
}

}  // namespace ladder
