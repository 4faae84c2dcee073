// Step 7: one launch per pair, tiled wavefront. Steps 4-6 (like cuTWED) launch one kernel per
// anti-diagonal: 2N launches of a few microseconds each, most far too small to fill the GPU,
// with every cell going through global memory. A long pair is bound by launch latency and
// memory, not arithmetic. Here one persistent launch sweeps the whole matrix: the rows are cut
// into bands of 32 x R rows, one warp per band. A lane keeps R consecutive rows in registers
// (cells, A's points, timestamps, delete costs) and the warp sweeps the columns as an in-warp
// wavefront: at step s lane l computes column s - l, taking the cells above its first row from
// lane l - 1 by a shuffle. Bands talk through global memory: band b's bottom row (D, and
// E = D + c, the diagonal term the row below needs) goes to a mailbox row, written by the
// whole warp every 8 steps from shared memory; band b + 1 reads it 16 columns at a time, half
// a chunk ahead. Each 8-byte mailbox word carries a 32-bit tag next to 32 bits of payload, so
// a reader knows a value is the one it waits for from the value itself: no fences and no
// progress counters. Bands take tickets from a global counter, so band b only starts once
// band b - 1 is running (no deadlock however many bands are resident). Mailbox rows form a
// ring of slots sized for L2; a band reuses its slot only after the previous occupant wrote
// and its reader read each column. Batch and triangle modes put every pair's bands in one
// ticket sequence: one launch for all pairs.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "../../harness/compiled_set.hpp"
#include "../../harness/cuda_check.hpp"
#include "gpu_step.cuh"

namespace ladder::twed {
namespace {

constexpr int kLanes = 32;
constexpr int kMaxWarps = 8;    // warps per block: the largest choice of "warps"
constexpr int kChunk = 16;      // boundary columns a band receives at once (a record per lane)
constexpr int kHalf = 8;        // steps unrolled at once; lane 31's bottom row goes out after each
constexpr int kSpinPolls = 8;   // polls of a late record before sleeping between polls
constexpr int kAheadMin = 8;    // how far ahead a producer checks that its slot is free,
constexpr int kAheadMax = 1024; // adapted between these so that the check is rare
constexpr double kRingBytes = 32.0 * 1024 * 1024;  // mailbox ring sized to stay in L2
constexpr std::int64_t kMinSlots = 4, kMaxSlots = 4096;
constexpr std::size_t kCounterBytes = 256;  // ticket, finished warps, launch epoch
constexpr long long kWatchdogNs = 20'000'000'000;  // a wait this long is a bug: trap

using RowsPerLane = CompiledSet<1, 2, 4, 8>;
using Word = unsigned long long;
using Unit = ulonglong2;  // 16 bytes: two tagged words, one vector access

// ---- Mailboxes: 32 bits of payload and a 32-bit tag per 8-byte word --------------------------
// An aligned 8-byte access is single-copy atomic, so a word whose tag matches holds the payload
// written with that tag. A record is one column's (D, E): 2 words in fp32, 4 in fp64.

__device__ inline void store_unit(Unit* p, Word x, Word y) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(x), "l"(y));
}
__device__ inline Unit load_unit(const Unit* p) {
  Unit u;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(u.x), "=l"(u.y) : "l"(p));
  return u;
}
__device__ inline Word load_word(const Word* p) {
  Word w;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p));
  return w;
}
__device__ inline Word tagged(std::uint32_t payload, std::uint32_t tag) {
  return Word(tag) << 32 | payload;
}
__device__ inline bool has_tag(Word w, std::uint32_t tag) { return std::uint32_t(w >> 32) == tag; }
// Tags grow by one per ring generation: "at least" survives a later generation's overwrite.
__device__ inline bool tag_at_least(Word w, std::uint32_t tag) {
  return int(std::uint32_t(w >> 32) - tag) >= 0;
}

template <class T>
struct Mail {
  static constexpr int kUnits = sizeof(T) / 4;  // fp32: {D, E}; fp64: {D lo, D hi}, {E lo, E hi}

  // Unit k of a record: each record is written by kUnits lanes, one vector store each.
  __device__ static void store_unit_of(Unit* rec, int k, T d, T e, std::uint32_t tag) {
    if constexpr (sizeof(T) == 4) {
      store_unit(rec, tagged(__float_as_uint(d), tag), tagged(__float_as_uint(e), tag));
    } else {
      const Word b = Word(__double_as_longlong(k == 0 ? d : e));
      store_unit(rec + k, tagged(std::uint32_t(b), tag), tagged(std::uint32_t(b >> 32), tag));
    }
  }
  __device__ static void load(const Unit* rec, Unit (&u)[kUnits]) {
#pragma unroll
    for (int k = 0; k < kUnits; ++k) u[k] = load_unit(rec + k);
  }
  __device__ static bool valid(const Unit (&u)[kUnits], std::uint32_t tag) {
    bool ok = true;
#pragma unroll
    for (int k = 0; k < kUnits; ++k) ok = ok && has_tag(u[k].x, tag) && has_tag(u[k].y, tag);
    return ok;
  }
  __device__ static void unpack(const Unit (&u)[kUnits], T& d, T& e) {
    auto low = [](Word w) { return std::uint32_t(w); };
    if constexpr (sizeof(T) == 4) {
      d = __uint_as_float(low(u[0].x));
      e = __uint_as_float(low(u[0].y));
    } else {
      d = __longlong_as_double((long long)(Word(low(u[0].y)) << 32 | low(u[0].x)));
      e = __longlong_as_double((long long)(Word(low(u[1].y)) << 32 | low(u[1].x)));
    }
  }
};

// Waits: the first polls back to back (each reload is an L2 round trip, short next to a step
// chunk), then exponential sleeps for the long waits of the pipeline's fill. A wait of seconds
// means a broken protocol: trapping turns a hang into a reported launch failure.
struct Backoff {
  int polls = 0;
  unsigned ns = 32;
  Word start = 0;
  __device__ static Word now() {
    Word t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  }
  __device__ void pause() {
    if (++polls <= kSpinPolls) return;
    if (start == 0) start = now();
    else if (now() - start > Word(kWatchdogNs)) __trap();
    __nanosleep(ns);
    ns = ns < 512 ? 2 * ns : ns;
  }
};

// min without NaN handling (no NaN can arise here). sm_90 has no fp64 min instruction: fmin
// costs a compare, two selects and a NaN fix-up; this is the compare and the selects.
template <class T>
__device__ inline T lesser(T a, T b) {
  if constexpr (sizeof(T) == 8) return b < a ? b : a;
  else return fminf(a, b);
}

__device__ inline void prefetch_l1(const void* p) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

// The boundary cells lane 0 takes from the band above, one per column of a chunk.
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T d, e;
};

// ---- The launch ---------------------------------------------------------------------------

template <class T>
struct Args {
  Lists<T> l;
  std::int64_t pairs, bands, tickets;  // bands per pair; tickets = pairs x bands
  std::int64_t slots;                  // mailbox rows in the ring (0: one band per pair)
  std::uint32_t gens;                  // tags one launch uses: one per ring generation
  Word* counters;                      // [0] next ticket, [1] warps finished, [2] launch epoch
  Unit* mail;                          // slots x m records
};

__device__ inline std::int64_t lo(std::int64_t x, std::int64_t y) { return x < y ? x : y; }
__device__ inline std::int64_t hi(std::int64_t x, std::int64_t y) { return x < y ? y : x; }

// The series behind pair p: batch (and pair) row-major over rows x cols; triangle over i < j,
// row i holding pairs (i, i+1 .. rows-1), first(i) = i (2 rows - i - 1) / 2 before it.
__device__ inline void pair_series(std::int64_t p, std::int64_t rows, std::int64_t cols,
                                   bool triangle, std::int64_t& i, std::int64_t& j) {
  if (!triangle) {
    i = p / cols, j = p % cols;
    return;
  }
  auto first = [rows](std::int64_t r) { return r * (2 * rows - r - 1) / 2; };
  const double w = double(2 * rows - 1);
  std::int64_t r = std::int64_t((w - sqrt(fmax(w * w - 8.0 * double(p), 0.0))) / 2);
  r = hi(0, lo(r, rows - 2));
  while (r > 0 && first(r) > p) --r;  // the square root may round either way
  while (r + 1 < rows - 1 && first(r + 1) <= p) ++r;
  i = r, j = p - first(r) + r + 1;
}

// B's point for one column, loaded a step ahead. Fast (R^1, rooted) keeps the value itself.
template <class T, bool Fast>
struct Column {
  T x;
  const T* p;
  T t, del;
};

// One band of one pair: this lane's R rows and the warp's part in the band-to-band protocol.
// Everything the sweep reads is copied into registers here.
// Prefix: the chain from the cell above through the lane's R rows is cut short. With
// rest_r = min(match, delete b_j) and M_r = min(rest_r, M_{r-1} + delA(r)) (independent of the
// row above), cell_r = min(M_r, up + delA(0) + .. + delA(r)): one addition and one minimum
// after the shuffle for every row, at the price of R - 1 more of each per step (the same
// function, the additions along the vertical path grouped differently).
template <class T, int R, bool Fast, bool Prefix>
struct Band {
  using M = Mail<T>;
  const int lane;
  const int m;
  bool last;           // the pair's last band, which holds D[n][m]
  std::int64_t first;  // this lane's first row (1-based)
  const T *xb, *tb, *del_b;
  int dim, degree;
  bool root;
  T nu;
  // This lane's rows: A's points (values in R^1, else pointers), times, delete costs, cells.
  T xa[R], ta[R], da[R], d[R], e[R];
  T climb[R];  // Prefix: delA(0) + .. + delA(r), the cost of coming straight down to row r
  const T* pa[R];
  T bottom_d, bottom_e, diag;  // this lane's last row at its last column; E above-left of row 0
  T* result;                   // where D[n][m] goes
  // Mailboxes: `in` from the band above, `out` for the band below, `reader` the slot of the
  // band that read this slot's previous content.
  const Unit* in = nullptr;
  Unit* out = nullptr;
  const Unit* reader = nullptr;
  std::uint32_t tag_in = 0, tag_out = 0, tag_prev = 0, tag_reader = 0;
  int free_until, ahead = 128;  // columns of `out` known reusable; how far ahead to check
  Unit pending[M::kUnits];      // the next chunk's records (lanes 0 .. kChunk - 1)

  __device__ Band(const Args<T>& g, std::int64_t ticket, std::uint32_t tag0)
      : lane(int(threadIdx.x % kLanes)), m(int(g.l.m)) {
    const Lists<T>& l = g.l;
    const std::int64_t band = ticket % g.bands;
    last = band == g.bands - 1;
    std::int64_t i, j;
    pair_series(ticket / g.bands, l.rows, l.cols, l.triangle, i, j);
    const PointRef<T> a = l.a_ref(i), b = l.b_ref(j);
    xb = b.x, tb = b.t, del_b = l.del_b + j * (l.m + 1);
    dim = l.dim, degree = l.costs.degree, root = l.costs.root, nu = l.costs.nu;
    result = l.out + i * l.cols + j;
    first = band * kLanes * R + std::int64_t(lane) * R + 1;
    load_rows(a, l.del_a + i * (l.n + 1), l.n);
    const T inf = T(INFINITY);
    bottom_d = bottom_e = inf;
    diag = lane == 0 && band == 0 ? T(0) : inf;  // E[0][0] = D[0][0] + c(0,0) = 0
    free_until = m;
    if (g.bands > 1) attach(g, ticket, band, tag0);
  }

  // Rows past n (the last band's tail) repeat row n: finite, never read by rows <= n.
  __device__ void load_rows(const PointRef<T>& a, const T* del_a, std::int64_t n) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::int64_t i = lo(first + r, n);
      pa[r] = a.x + (i - 1) * a.dim;
      xa[r] = Fast ? pa[r][0] : T(0);
      ta[r] = a.time(i);
      da[r] = del_a[i];
      climb[r] = r == 0 ? da[0] : climb[r - 1] + da[r];
      d[r] = e[r] = T(INFINITY);  // column 0
    }
  }

  // Every band writes its bottom row (so a slot's content always comes from its previous
  // occupant); every band but a pair's first reads the row above.
  __device__ void attach(const Args<T>& g, std::int64_t ticket, std::int64_t band,
                         std::uint32_t tag0) {
    auto slot = [&](std::int64_t t) { return g.mail + (t % g.slots) * g.l.m * M::kUnits; };
    auto tag = [&](std::int64_t t) { return tag0 + std::uint32_t(t / g.slots); };
    out = slot(ticket), tag_out = tag(ticket);
    if (band > 0) in = slot(ticket - 1), tag_in = tag(ticket - 1);
    const std::int64_t prev = ticket - g.slots;  // this slot's previous occupant this launch
    if (prev < 0) return;                        // earlier launches are complete
    free_until = 0, tag_prev = tag(prev);
    if (prev % g.bands != g.bands - 1) reader = slot(prev + 1), tag_reader = tag(prev + 1);
  }

  template <class U>
  __device__ static U* record(U* row, int j) {
    return row + std::int64_t(j - 1) * M::kUnits;
  }

  // ---- Reading the band above: a chunk of records, one per lane, fetched half a chunk ahead --

  __device__ void fetch(int from) {
    const int j = from + lane;
    if (lane < kChunk && j <= m) M::load(record(in, j), pending);
  }

  // Waits until the chunk's records carry the expected tag and stages them in shared memory
  // for lane 0.
  __device__ void receive(int from, Pair<T>* stage) {
    const int j = from + lane;
    const bool mine = lane < kChunk && j <= m;
    bool ok = !mine || M::valid(pending, tag_in);
    if (!__all_sync(kFullWarp, ok)) {
      Backoff wait;
      do {
        if (!ok) {
          wait.pause();
          M::load(record(in, j), pending);
          ok = M::valid(pending, tag_in);
        }
      } while (!__all_sync(kFullWarp, ok));
    }
    __syncwarp();  // lane 0 is done with the previous chunk's stage
    if (mine) M::unpack(pending, stage[lane].d, stage[lane].e);
    __syncwarp();
  }

  // ---- Writing for the band below --------------------------------------------------------

  // Column j of this slot is free once the previous occupant wrote it and its reader (the
  // next band of that pair, if any) wrote its own column j, i.e. read this one.
  __device__ bool reusable(int j) const {
    if (!tag_at_least(load_word(reinterpret_cast<const Word*>(record(out, j))), tag_prev))
      return false;
    return !reader ||
           tag_at_least(load_word(reinterpret_cast<const Word*>(record(reader, j))), tag_reader);
  }

  // Checks `ahead` columns at once; when that fails, waits for column j and checks closer next
  // time (the occupant ahead may be only a few columns ahead, e.g. across pairs).
  __device__ void make_room(int j) {
    const int x = int(lo(m, std::int64_t(j) + ahead));
    if (reusable(x)) {
      free_until = x, ahead = ahead < kAheadMax ? 2 * ahead : ahead;
      return;
    }
    Backoff wait;
    while (!reusable(j)) wait.pause();
    free_until = j, ahead = ahead > kAheadMin ? ahead / 2 : ahead;
  }

  // Before a chunk: lane 31 makes sure the columns it will write in it are free.
  __device__ void reserve(int from) {
    const int last = from + kChunk - kLanes < m ? from + kChunk - kLanes : m;
    if (lane == kLanes - 1 && last > free_until) make_room(last);
  }

  // ---- The sweep ---------------------------------------------------------------------------

  // B's point for column j (clamped into 1..m: lanes before or past the matrix load something
  // harmless). `at` is the unclamped form a chunk inside the matrix uses, by fixed offsets.
  __device__ Column<T, Fast> column(int s) const {
    const int j = s - lane < 1 ? 1 : s - lane > m ? m : s - lane;
    return at(xb + std::int64_t(j - 1) * (Fast ? 1 : dim), tb + (j - 1), del_b + j, 0);
  }
  __device__ Column<T, Fast> at(const T* x, const T* t, const T* del, int k) const {
    Column<T, Fast> c;
    c.t = __ldg(t + k);
    c.del = __ldg(del + k);
    if constexpr (Fast) c.x = __ldg(x + k);
    else c.p = x + std::int64_t(k) * dim;
    return c;
  }

  // c(i, j) through the shared cost function; in R^1 rooted it is |x - y| + nu |tA - tB|.
  __device__ T cost(int r, const Column<T, Fast>& c) const {
    if constexpr (Fast) {
      const T x = xa[r], y = c.x;
      return lp_distance(&x, &y, 1, 1, true) + nu * fabs(ta[r] - c.t);
    } else {
      return lp_distance(pa[r], c.p, dim, degree, root) + nu * fabs(ta[r] - c.t);
    }
  }

  // Step s: this lane's rows at column s - lane, twed_cell with the diagonal's own cost folded
  // into E = D + c (so c(i-1, j-1) is never recomputed) and the minimum with the cell above
  // taken last, so that only that part waits for the shuffle.
  // Edge: some lane may be before column 1 or past column m (the first and last chunks).
  template <bool Edge>
  __device__ void step(int s, const Column<T, Fast>& c, Pair<T> top, Pair<T>& outbox) {
    T up = __shfl_up_sync(kFullWarp, bottom_d, 1);
    T up_e = __shfl_up_sync(kFullWarp, bottom_e, 1);
    if (lane == 0) up = top.d, up_e = top.e;
    const int j = s - lane;
    if (!Edge || (j >= 1 && j <= m)) {
      T here[R], rest[R];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        here[r] = cost(r, c);
        rest[r] = lesser((r == 0 ? diag : e[r - 1]) + here[r], d[r] + c.del);  // match, del b_j
      }
      if constexpr (Prefix) {
        T run = rest[0];
#pragma unroll
        for (int r = 0; r < R; ++r) {
          if (r > 0) run = lesser(run + da[r], rest[r]);
          d[r] = lesser(up + climb[r], run);
        }
      } else {
#pragma unroll
        for (int r = 0; r < R; ++r) d[r] = up = lesser(up + da[r], rest[r]);  // delete a_i
      }
#pragma unroll
      for (int r = 0; r < R; ++r) e[r] = d[r] + here[r];
      bottom_d = d[R - 1], bottom_e = e[R - 1];
      if (out && lane == kLanes - 1) outbox = Pair<T>{bottom_d, bottom_e};  // see flush()
    }
    diag = up_e;  // E[first row - 1][j]: the diagonal of the next column
  }

  // kHalf steps; B's points are loaded a step ahead, inside the matrix from fixed offsets.
  template <bool Edge>
  __device__ void half(int from, Column<T, Fast>& c, const Pair<T>* stage, Pair<T>* outbox) {
    const std::int64_t j = std::int64_t(from) - lane;  // this lane's column at step `from`
    const T* x = xb + (j - 1) * (Fast ? 1 : dim);
    const T *t = tb + (j - 1), *del = del_b + j;
#pragma unroll
    for (int q = 0; q < kHalf; ++q) {
      const Column<T, Fast> next =
          Edge || q == kHalf - 1 ? column(from + q + 1) : at(x, t, del, q + 1);
      step<Edge>(from + q, c, stage[q], outbox[q]);
      c = next;
    }
  }

  // Pulls B's points into L1 two chunks ahead of lane 0, so that the loads a step ahead hit:
  // lane k takes array k % 3 at the (k / 3)-th 32-byte sector of that chunk.
  __device__ void prefetch(int from) const {
    constexpr int kPerSector = 32 / int(sizeof(T));
    constexpr int kSectors = kChunk / kPerSector;
    const int j = from + 2 * kChunk + lane / 3 * kPerSector;
    if (!Fast || lane >= 3 * kSectors || j > m) return;
    const int k = lane % 3;
    prefetch_l1(k == 0 ? xb + (j - 1) : k == 1 ? tb + (j - 1) : del_b + j);
  }

  // The records lane 31 left in shared memory in the last kHalf steps (columns from - 31 ..
  // from - 24), written by kUnits lanes per record: one store instruction per half chunk
  // instead of one or two per step in lane 31 alone.
  __device__ void flush(int from, const Pair<T>* outbox) {
    __syncwarp();
    const int q = lane / M::kUnits, j = from - (kLanes - 1) + q;
    if (q < kHalf && j >= 1 && j <= m) {
      const Pair<T> v = outbox[q];
      M::store_unit_of(record(out, j), lane % M::kUnits, v.d, v.e, tag_out);
    }
    __syncwarp();  // read before lane 31 overwrites them
  }

  // Chunks of kChunk steps, run as halves of kHalf; lane l is at column s - l, so the sweep
  // takes m + 31 steps. The next chunk's records are fetched after the first half, the bottom
  // row goes out after each half.
  __device__ void sweep(Pair<T>* stage, Pair<T>* outbox) {
    __syncwarp();  // the previous band's last reads of stage are done
    if (in) fetch(1);
    else if (lane < kChunk) stage[lane] = Pair<T>{T(INFINITY), T(INFINITY)};  // D, E of row 0
    __syncwarp();
    Column<T, Fast> c = column(1);
    for (int from = 1; from <= m + kLanes - 1; from += kChunk) {
      if (in) receive(from, stage);
      if (out) reserve(from);
      prefetch(from);
#pragma unroll 1
      for (int h = 0; h < kChunk / kHalf; ++h) {
        const int s = from + h * kHalf;
        // Halves where every lane is inside the matrix skip the per-lane test (the general
        // path, bound by its cost function, keeps the one version).
        if (Fast && s >= kLanes && s + kHalf - 1 <= m) half<!Fast>(s, c, stage + h * kHalf, outbox);
        else half<true>(s, c, stage + h * kHalf, outbox);
        if (in && h == 0) fetch(from + kChunk);
        if (out) flush(s, outbox);
      }
    }
  }

  // D[n][m] lives in the last band, in the lane whose rows hold row n.
  __device__ void finish(std::int64_t n) const {
    if (!last || n < first || n >= first + R) return;
    T v = d[0];
#pragma unroll
    for (int r = 1; r < R; ++r)
      if (first + r == n) v = d[r];
    *result = v;
  }
};

template <class T, int R, bool Fast, bool Prefix>
__global__ void __launch_bounds__(kLanes* kMaxWarps) twed_wavefront_kernel(const Args<T> g) {
  __shared__ Pair<T> stage[kMaxWarps][kChunk], outbox[kMaxWarps][kHalf];
  const int lane = int(threadIdx.x % kLanes), warp = int(threadIdx.x / kLanes);
  const Word epoch = load_word(g.counters + 2);
  const std::uint32_t tag0 = std::uint32_t(epoch) * g.gens + 1;  // never 0: scratch starts 0
  for (;;) {
    Word t = 0;
    if (lane == 0) t = atomicAdd(g.counters, Word(1));
    t = __shfl_sync(kFullWarp, t, 0);
    if (t >= Word(g.tickets)) break;
    Band<T, R, Fast, Prefix> band(g, std::int64_t(t), tag0);
    band.sweep(stage[warp], outbox[warp]);
    band.finish(g.l.n);
  }
  // The last warp out resets the ticket counter and moves to the next launch's tags.
  if (lane == 0) {
    const Word warps = Word(gridDim.x) * (blockDim.x / kLanes);
    if (atomicAdd(g.counters + 1, Word(1)) == warps - 1) {
      g.counters[0] = 0, g.counters[1] = 0;
      g.counters[2] = epoch + 1;
    }
  }
}

// ---- Host side ----------------------------------------------------------------------------

// Bands, tickets and the mailbox ring of a point; scratch_bytes and the set-up share it.
struct Layout {
  int rows_per_lane;
  std::int64_t pairs, bands, tickets, slots;
  double bytes;
};

// Eight rows a lane spread each step's shuffles, mailbox records and column loads over twice
// the cells and give each warp more independent work, but halve the bands, and a band's warp
// waits on the band above: they pay once there are bands enough to fill the GPU. On an H100, R^1
// pairs: 2^18 1.43x faster (fp64), 2^20 1.25x, 10 x 10 pairs of 100,000 1.12x; 2^17 (512 bands
// of 256 rows) about even; 2^16 (256 bands) 18.0 against 15.3 ms. Other points (dim > 1, or
// unrooted) were not measured at eight and keep four.
constexpr std::int64_t kBandsForEight = 512;

int rows_per_lane(const TwedProblem& p, const Params& params) {
  const std::string v = params.text("rows_per_lane");
  if (v != "auto") return std::stoi(v);
  if (p.n() <= 64) return p.n() <= 32 ? 1 : 2;
  const bool fast = p.dim() == 1 && p.costs.root;
  return fast && p.pairs() * ceil_div(p.n(), kLanes * 8) >= kBandsForEight ? 8 : 4;
}

Layout layout(const TwedProblem& p, const Params& params, std::size_t word) {
  Layout L{};
  L.rows_per_lane = rows_per_lane(p, params);
  L.pairs = p.pairs();
  L.bands = ceil_div(p.n(), kLanes * L.rows_per_lane);
  L.tickets = L.pairs * L.bands;
  const double record = 4.0 * double(word);
  if (L.bands > 1) {
    const auto fit = std::int64_t(kRingBytes / (double(p.m()) * record));
    L.slots = std::min(std::clamp(fit, kMinSlots, kMaxSlots), L.tickets);
  }
  L.bytes = double(kCounterBytes) + double(L.slots) * double(p.m()) * record;
  return L;
}

template <class T>
double scratch(const TwedProblem& p, const Params& params) {
  return layout(p, params, sizeof(T)).bytes;
}

template <class T, int R, bool Fast, bool Prefix>
Setup<T> setup_for(const Layout& L, int warps, const DeviceCaps& d) {
  auto* kernel = twed_wavefront_kernel<T, R, Fast, Prefix>;
  int per_sm = 0;
  LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, warps * kLanes, 0));
  const std::int64_t resident = std::int64_t(std::max(per_sm, 1)) * std::max(d.sm_count, 1);
  const int blocks = int(std::clamp<std::int64_t>(ceil_div(L.tickets, warps), 1, resident));
  // Tags per launch: one per ring generation, plus one so consecutive launches never share.
  const auto gens = std::uint32_t(L.slots ? L.tickets / L.slots + 2 : 1);
  Setup<T> out;
  out.facts = {{"rows_per_lane", R},
               {"rows_per_band", kLanes * R},
               {"bands_per_pair", double(L.bands)},
               {"tickets", double(L.tickets)},
               {"mailbox_slots", double(L.slots)},
               {"warps_per_block", warps},
               {"blocks", blocks},
               {"blocks_per_sm", per_sm},
               {"fast_path_r1", Fast ? 1 : 0},
               {"prefix_chain", Prefix ? 1 : 0}};
  auto cleared = std::make_shared<bool>(false);
  out.enqueue = [L, warps, blocks, gens, kernel, cleared](const Lists<T>& l, cudaStream_t stream) {
    if (L.tickets == 0) return;  // a triangle of one series
    char* base = reinterpret_cast<char*>(l.scratch);
    // Once per instance: zero tags and counters; every launch leaves them consistent.
    if (!*cleared) {
      LADDER_CUDA(cudaMemsetAsync(base, 0, std::size_t(L.bytes), stream));
      *cleared = true;
    }
    const Args<T> g{l,     L.pairs, L.bands, L.tickets, L.slots, gens,
                    reinterpret_cast<Word*>(base), reinterpret_cast<Unit*>(base + kCounterBytes)};
    kernel<<<unsigned(blocks), unsigned(warps * kLanes), 0, stream>>>(g);
    LADDER_CUDA_LAUNCH("twed_wavefront_kernel");
  };
  return out;
}

template <class T>
Setup<T> setup(const TwedProblem& p, const Params& params, const DeviceCaps& d) {
  const Layout L = layout(p, params, sizeof(T));
  const int warps = int(params.integer("warps"));
  const bool fast = p.dim() == 1 && p.costs.root;
  // The prefix chain shortens each step's latency at the price of more instructions: it pays
  // while a band's warp has its SM sub-partition to itself (measured: n = 65536, 512 bands,
  // fp32 8% faster), not once several warps share one (n = 2^20: serial 12% faster).
  const std::string chain = params.text("chain");
  const bool prefix =
      chain == "prefix" || (chain == "auto" && L.tickets <= 4 * std::int64_t(d.sm_count));
  Setup<T> out;
  RowsPerLane::exactly(L.rows_per_lane, [&](auto rows) {
    constexpr int R = decltype(rows)::value;
    if (!fast) out = setup_for<T, R, false, false>(L, warps, d);
    else if (prefix) out = setup_for<T, R, true, true>(L, warps, d);
    else out = setup_for<T, R, true, false>(L, warps, d);
  }, "twed/wavefront");
  return out;
}

template <class T>
std::string limit(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  const Layout L = layout(p, params, sizeof(T));
  if (L.slots && L.tickets / L.slots >= (std::int64_t(1) << 30))
    return "more than 2^30 mailbox generations in one launch";
  return "";
}

std::vector<ParamSpec> params() {
  std::vector<std::string> rows = RowsPerLane::choices();
  rows.insert(rows.begin(), "auto");
  return {{"rows_per_lane", "auto",
           "DP rows per lane (a band is 32 x this): auto (8 for R^1 rooted points with 512 or "
           "more bands of 256 rows, else 4; fewer for n <= 64) or " +
               RowsPerLane::text(),
           ParamSpec::Kind::text, 0, 0, rows},
          {"warps", "4", "warps (bands) per block", ParamSpec::Kind::integer, 1, kMaxWarps,
           {"1", "2", "4", "8"}},
          {"chain", "auto",
           "R^1 rooted path: prefix (one add and min after the shuffle per row), serial (the "
           "lane's rows one after the other) or auto (prefix while there are at most as many "
           "bands as SM sub-partitions)",
           ParamSpec::Kind::text, 0, 0, {"auto", "prefix", "serial"}}};
}

template <class T>
GpuStep<T> make() {
  return {.name = "wavefront",
          .step = 7,
          .label = "one launch per pair, tiled wavefront",
          .change = "one persistent launch: warps sweep bands of 32 x R rows as in-warp "
                    "wavefronts, bands pass boundary rows through tagged mailboxes",
          .params = params(),
          .impl = setup<T>,
          .limit = limit<T>,
          .scratch_bytes = scratch<T>};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
