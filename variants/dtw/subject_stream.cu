// Step 14 (beyond the notes): the query in registers, a stream of subjects through it. In
// step 13 every group holds two subjects and aligns them against the one query, so each
// subject pays the wavefront's fill and drain (G - 1 steps in which some lanes idle) and its
// own set-up (its values loaded into registers, the final cell stored). Here the roles swap,
// which DTW with squared costs allows (it is symmetric): every group holds the query's
// columns, and each of its two chains takes up to 16 consecutive subjects as rows, one after
// another, separated by a +inf row that resets the DP state as it travels along the
// wavefront (stream_wavefront.cuh). Row values are loaded a block of steps ahead. Supports
// the Sakoe-Chiba band and n <= 1024.
#include "stream_wavefront.cuh"

namespace ladder::dtw {
namespace {

const Registrar registrar{gpu_step(
    {.name = "subject_stream",
     .step = 14,
     .label = "subject streams",
     .change = "the query in registers, streams of subjects as rows: fill, drain and set-up "
               "once per 16 subjects",
     .impl = [](const DtwProblem& p, const Params&,
                const DeviceCaps& d) { return subject_stream_setup(p, d); },
     .limit = stream_limit,
     .needs = {Feature::dpx}})};

}  // namespace
}  // namespace ladder::dtw
