// Extended edit distance study (Kim, Na and Sim 2015): the edit distance of string pairs with
// insertions, deletions, substitutions and swaps of adjacent characters, by Lowrance and
// Wagner's recurrence (unit costs give the unrestricted Damerau-Levenshtein distance):
//   H[0][0] = 0, H[i][0] = i w_del, H[0][j] = j w_ins,
//   k = last position < i in A holding b_j (0 if none), from P[i][b_j]
//   l = last position < j in B holding a_i (0 if none), tracked along row i
//   H[i][j] = min(H[i-1][j-1] + (a_i == b_j ? 0 : w_sub), H[i-1][j] + w_del, H[i][j-1] + w_ins,
//                 k, l > 0 ? H[k-1][l-1] + (i-k-1) w_del + w_swap + (j-l-1) w_ins : +inf)
// It is exact when 2 w_swap >= w_ins + w_del (Lowrance and Wagner's condition), which the
// study enforces. One integer distance per pair: validation is exact.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../../datagen/strings.hpp"
#include "../../harness/step.hpp"

namespace ladder::eed {

struct Costs {
  std::int32_t ins = 1, del = 1, sub = 1, swap = 1;
};

// Distances and the sums of the recurrence stay below this, so a 32-bit sum of such values
// and two "no swap here" sentinels (kNoSwap) cannot overflow, and a sum holding a sentinel
// is larger than any distance.
constexpr std::int64_t kMaxDistance = std::int64_t(1) << 27;
// The sentinel a GPU step adds for a swap that does not exist (k or l is 0).
constexpr std::int32_t kNoSwap = std::int32_t(1) << 29;

struct EedProblem : Problem {
  StringPairs data;
  Costs costs;
  std::int64_t pairs() const { return std::int64_t(data.pairs()); }
  int alphabet() const { return data.alphabet; }
  // Longest A and B, and the cells of all pairs (sum of len_A * len_B).
  std::int64_t max_a = 0, max_b = 0;
  double cells = 0;
};

// The preprocessing table of one string A of length n: row i (0..n) holds, for every symbol c,
// the last position (1-based) of c in A[1..i-1], 0 if none; rows of `alphabet` entries.
void last_occurrence_serial(const std::uint8_t* a, std::int64_t n, int alphabet,
                            std::int32_t* table);

// One pair by the full (n+1) x (m+1) table and the P table (the sequential H of the paper).
std::int32_t eed_full(const std::uint8_t* a, std::int64_t n, const std::uint8_t* b,
                      std::int64_t m, int alphabet, const Costs& c);
// One pair in O(alphabet * m) memory: for every symbol, the table row just above its last
// occurrence in A (the only row a swap with that symbol can reach back to).
std::int32_t eed_linear(const std::uint8_t* a, std::int64_t n, const std::uint8_t* b,
                        std::int64_t m, int alphabet, const Costs& c);

// Pair k of a problem by either recurrence (what the CPU steps compute per pair).
std::int32_t full_pair(const EedProblem& p, std::int64_t k);
std::int32_t linear_pair(const EedProblem& p, std::int64_t k);

// Bytes of the full table of the largest pair (what eed_full needs at once).
double full_table_bytes(const EedProblem& p);

// CPU steps compute one pair; cpu_step runs it over every pair (serially or with OpenMP).
using PairFn = std::function<std::int32_t(const EedProblem&, std::int64_t)>;
using CpuStep = Step<EedProblem, PairFn>;
VariantSpec cpu_step(CpuStep s, bool parallel);

}  // namespace ladder::eed
