// Step 2: the FP64 baseline with OpenMP threads over the rows of C (dynamic schedule: row i
// has i + 1 entries, so static chunks would leave the first threads idle).
#include "cpu_step.hpp"

namespace ladder::covariance {
namespace {

const Registrar registrar{cpu_step(
    {.name = "openmp",
     .step = 2,
     .label = "OpenMP FP64",
     .change = "OpenMP threads over rows of C (dynamic schedule)",
     .impl = [](const CovProblem& p, float* out) { covariance_fp64(p, out, true); },
     .limit = flops_limit(3e11)})};

}  // namespace
}  // namespace ladder::covariance
