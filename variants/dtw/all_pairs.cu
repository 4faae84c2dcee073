// Step 15 (beyond the notes): every query in one launch. Steps 4-14 launch once per query,
// so Q queries against a small set run Q short kernels that fill the GPU poorly, and every
// series pays the wavefront's fill and drain (G - 1 idle steps per group) for every query.
// Here a warp aligns its subjects against a stream of up to 16 queries (fewer when that
// would leave the GPU short of warps): a separator row of +inf between two queries resets
// the DP state as it travels along the wavefront, so the fill and drain are paid once per
// stream. When the queries are the subjects (query 0, queries = entries: the distance matrix
// of the set against itself, as in 1-NN leave-one-out) only the lower triangle is computed
// and each distance is written twice: with squared costs DTW is symmetric. Same kernel as
// step 13 (stream_wavefront.cuh); a single query runs step 14's subject streams.
#include "stream_wavefront.cuh"

namespace ladder::dtw {
namespace {

const Registrar registrar{gpu_step(
    {.name = "all_pairs",
     .step = 15,
     .label = "all queries, one launch",
     .change = "one launch for all queries, streams of queries per warp, one triangle "
               "when the queries are the set",
     .impl = [](const DtwProblem& p, const Params&,
                const DeviceCaps& d) { return stream_setup(p, true, d); },
     .limit = stream_limit,
     .needs = {Feature::dpx}})};

}  // namespace
}  // namespace ladder::dtw
