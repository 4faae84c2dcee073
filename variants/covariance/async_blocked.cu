// Step 11: step 6's FP32 core, fed the way the tensor-core steps are. Step 6 fetches each
// k-tile of 8 rows into registers one k-tile ahead and, at n = 2475, with 4-byte loads (rows
// of X are not 16-byte aligned unless n % 4 == 0). Here the pipeline pads X's rows to a
// multiple of 4 floats, so k-tiles of 32 rows are copied with 16-byte cp.async straight into
// shared memory, three k-tiles in flight (async_syrk.cuh): no fetch registers, no alignment
// case, a quarter of the barriers per FMA. The 8 x 8 register tile per thread and its FMAs are step
// 6's; entries i >= j are written once and mirrored.
#include "async_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "async_blocked",
     .step = 11,
     .label = "FP32, cp.async pipeline",
     .change = "register blocking fed by 16-byte cp.async from padded rows, three k-tiles of "
               "32 rows in flight",
     .params = async::params("32"),
     .impl = async::setup<async::FfmaCore>,
     .limit = async::limit},
    Layout::padded)};

}  // namespace
}  // namespace ladder::covariance
