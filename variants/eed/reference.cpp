// The sequential recurrences every step is checked against: the full table (the paper's
// sequential H, with its preprocessing table) and the linear-memory form that reaches the
// long pairs the full table cannot hold. Tests check the two agree.
#include <algorithm>
#include <vector>

#include "problem.hpp"

namespace ladder::eed {

void last_occurrence_serial(const std::uint8_t* a, std::int64_t n, int alphabet,
                            std::int32_t* table) {
  std::fill(table, table + alphabet, 0);
  for (std::int64_t i = 1; i <= n; ++i) {
    std::copy(table + (i - 1) * alphabet, table + i * alphabet, table + i * alphabet);
    if (i >= 2) table[i * alphabet + a[i - 2]] = std::int32_t(i - 1);
  }
}

// Both forms share the cell: the three edits and, when both positions exist, the swap that
// reaches back to H[k-1][l-1].
namespace {
inline std::int32_t cell(std::int32_t diag, std::int32_t up, std::int32_t left, bool same,
                         std::int64_t i, std::int64_t j, std::int64_t k, std::int64_t l,
                         std::int32_t before_swap, const Costs& c) {
  std::int32_t v = std::min({diag + (same ? 0 : c.sub), up + c.del, left + c.ins});
  if (k > 0 && l > 0)
    v = std::min(v, std::int32_t(before_swap + (i - k - 1) * c.del + c.swap + (j - l - 1) * c.ins));
  return v;
}
}  // namespace

std::int32_t eed_full(const std::uint8_t* a, std::int64_t n, const std::uint8_t* b,
                      std::int64_t m, int alphabet, const Costs& c) {
  const std::int64_t w = m + 1;
  std::vector<std::int32_t> P(std::size_t((n + 1) * alphabet));
  last_occurrence_serial(a, n, alphabet, P.data());
  std::vector<std::int32_t> H(std::size_t((n + 1) * w));
  for (std::int64_t j = 0; j <= m; ++j) H[j] = std::int32_t(j * c.ins);
  for (std::int64_t i = 1; i <= n; ++i) {
    H[i * w] = std::int32_t(i * c.del);
    std::int64_t l = 0;
    for (std::int64_t j = 1; j <= m; ++j) {
      const std::int64_t k = P[i * alphabet + b[j - 1]];
      const std::int32_t back = k > 0 && l > 0 ? H[(k - 1) * w + l - 1] : 0;
      H[i * w + j] = cell(H[(i - 1) * w + j - 1], H[(i - 1) * w + j], H[i * w + j - 1],
                          a[i - 1] == b[j - 1], i, j, k, l, back, c);
      if (a[i - 1] == b[j - 1]) l = j;
    }
  }
  return H[n * w + m];
}

std::int32_t eed_linear(const std::uint8_t* a, std::int64_t n, const std::uint8_t* b,
                        std::int64_t m, int alphabet, const Costs& c) {
  const std::int64_t w = m + 1;
  // saved[s]: row last[s] - 1 of H, where last[s] is the last row so far whose A symbol is s.
  std::vector<std::int32_t> saved(std::size_t(alphabet * w)), prev(w), cur(w);
  std::vector<std::int64_t> last(std::size_t(alphabet), 0);
  for (std::int64_t j = 0; j <= m; ++j) prev[j] = std::int32_t(j * c.ins);
  for (std::int64_t i = 1; i <= n; ++i) {
    cur[0] = std::int32_t(i * c.del);
    std::int64_t l = 0;
    for (std::int64_t j = 1; j <= m; ++j) {
      const int s = b[j - 1];
      const std::int64_t k = last[s];
      const std::int32_t back = k > 0 && l > 0 ? saved[s * w + l - 1] : 0;
      cur[j] = cell(prev[j - 1], prev[j], cur[j - 1], a[i - 1] == b[j - 1], i, j, k, l, back, c);
      if (a[i - 1] == b[j - 1]) l = j;
    }
    // Row i - 1 is now the row above the last occurrence of a_i.
    std::copy(prev.begin(), prev.end(), saved.begin() + a[i - 1] * w);
    last[a[i - 1]] = i;
    std::swap(prev, cur);
  }
  return prev[m];
}

std::int32_t full_pair(const EedProblem& p, std::int64_t k) {
  return eed_full(p.data.a(k), p.data.a_length(k), p.data.b(k), p.data.b_length(k),
                  p.alphabet(), p.costs);
}

std::int32_t linear_pair(const EedProblem& p, std::int64_t k) {
  return eed_linear(p.data.a(k), p.data.a_length(k), p.data.b(k), p.data.b_length(k),
                    p.alphabet(), p.costs);
}

double full_table_bytes(const EedProblem& p) {
  return 4.0 * double(p.max_a + 1) * double(p.max_b + 1);
}

}  // namespace ladder::eed
