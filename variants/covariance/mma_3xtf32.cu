// Step 10: 3xTF32, FP32 accuracy from TF32 tensor cores. Step 9 rounds every operand to a
// 10-bit mantissa; here each is also kept as the TF32 of its rounding error (x = hi + lo, lo
// carrying the next 11 bits), and every product is taken as lo*hi + hi*lo + hi*hi, dropping
// only lo*lo (about 2^-22 of it). Three tensor-core products per tile instead of one, still
// several times the FP32 pipes' rate, and validated against the FP32 tolerance. Three times
// the tensor work makes the tensor pipe the limit, so this step runs wider warp tiles than
// step 9 (64 x 64: 4 warps a block, fewer fragment loads per product) on k-tiles of 32 rows,
// 10% faster on the H100 than step 9's 64 x 32 on 16.
#include "async_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "mma_3xtf32",
     .step = 10,
     .label = "3xTF32 mma.sync",
     .change = "operands split into TF32 high and low parts, three tensor-core products: FP32 "
               "accuracy",
     .precision = Precision::tf32x3,
     .params = async::mma_params("32", "64"),
     .impl = async::mma_setup<true>,
     .limit = async::limit},
    Layout::padded)};

}  // namespace
}  // namespace ladder::covariance
