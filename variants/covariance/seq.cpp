// Step 1: sequential baseline in double precision: means, centring, the lower triangle of
// X^T X / m as dot products of transposed columns, mirrored.
#include "cpu_baseline.hpp"

namespace ladder::cov {
namespace {
const Registrar registrar{cpu_variant("seq", 1, "baseline: sequential FP64, one triangle mirrored",
                                      false, 2e10)};
}  // namespace
}  // namespace ladder::cov
