// Step 2: the FP64 baseline with OpenMP threads over the rows of C (dynamic schedule: row i
// has i + 1 entries, so static chunks would leave the first threads idle).
#include "cpu_baseline.hpp"

namespace ladder::cov {
namespace {
const Registrar registrar{
    cpu_variant("openmp", 2, "OpenMP threads over rows of C (dynamic schedule)", true, 3e11)};
}  // namespace
}  // namespace ladder::cov
