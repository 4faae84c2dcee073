// Step 1: sequential baseline in double precision: means, centring, the lower triangle of
// X^T X / m as dot products of transposed columns, mirrored.
#include "cpu_step.hpp"

namespace ladder::covariance {
namespace {

const Registrar registrar{cpu_step(
    {.name = "seq",
     .step = 1,
     .label = "sequential FP64",
     .change = "baseline: sequential FP64, one triangle mirrored",
     .role = Role::baseline,
     .impl = [](const CovProblem& p, float* out) { covariance_fp64(p, out, false); },
     .limit = flops_limit(2e10)})};

}  // namespace
}  // namespace ladder::covariance
