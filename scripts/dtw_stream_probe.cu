// Development probe for DTW steps 13-15 (not built by CMake): times the stream wavefront
// kernel against the sub-warp kernel of step 11 at the notes' size, and the all-pairs mode
// against one launch per query, on one GPU in one process. Checks sampled outputs against
// the sequential two-row DTW.
//   nvcc -std=c++17 -O3 -arch=sm_90 -I.. dtw_stream_probe.cu -o probe && ./probe
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "../variants/dtw/stream_wavefront.cuh"
#include "../variants/dtw/warp_wavefront.cuh"

using namespace ladder::dtw;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1);} } while (0)

template <class F>
float median_ms(F f, int reps = 10) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int i = 0; i < 2; ++i) f();
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float t; CK(cudaEventElapsedTime(&t, a, b)); ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int check(const std::vector<float>& data, int n, std::int64_t entries, std::int64_t queries,
          const std::vector<float>& got, std::mt19937_64& rng, int band) {
  std::vector<float> rows(2 * (n + 1));
  int bad = 0;
  for (int k = 0; k < 400; ++k) {
    std::int64_t qi = rng() % queries, e = rng() % entries;
    if (k < 8) qi = k % queries, e = (k * 7) % entries;
    float want = dtw_two_rows(&data[qi * n], &data[e * n], n, rows.data(), band);
    float g = got[qi * entries + e];
    if (!(std::fabs(g - want) <= 1e-5 + 4 * n * 0x1p-24 * std::fabs(want))) {
      if (bad < 5) std::printf("  mismatch q %lld e %lld got %g want %g\n", (long long)qi, (long long)e, g, want);
      ++bad;
    }
  }
  return bad;
}

template <int G, int C, bool Banded = false, int KQ = 2>
void stream_launch(StreamLaunch a) {
  const std::int64_t units = stream_units(a.queries, a.entries, a.chunk, 32 / G * subjects_per_group(C), a.symmetric);
  dtw_stream_kernel<G, C, Banded, KQ><<<unsigned((units + 7) / 8), 256>>>(a);
}

template <int G, int C, int S, bool Banded = false>
void subject_launch(SubjectStreamLaunch a) {
  const std::int64_t per = 32 / G * S * std::int64_t(a.chunk);
  const std::int64_t units = (a.entries + per - 1) / per;
  dtw_subject_stream_kernel<G, C, S, Banded><<<unsigned((units + 7) / 8), 256>>>(a);
}

struct Set {
  int n; std::int64_t entries;
  std::vector<float> data;
  float *d_data, *d_q, *d_out; float2* d_stream;
  Set(int n_, std::int64_t e_, std::int64_t queries, std::mt19937_64& rng) : n(n_), entries(e_), data(e_ * n_) {
    std::normal_distribution<float> nd;
    for (std::int64_t e = 0; e < entries; ++e) { float x = 0; for (int j = 0; j < n; ++j) data[e*n+j] = x += nd(rng); }
    std::vector<float> qs(data.begin(), data.begin() + queries * n);
    auto st = query_stream(qs, n);
    CK(cudaMalloc(&d_data, data.size() * 4)); CK(cudaMalloc(&d_q, (queries * n + 16) * 4));
    CK(cudaMalloc(&d_out, queries * entries * 4)); CK(cudaMalloc(&d_stream, st.size() * 8));
    CK(cudaMemcpy(d_data, data.data(), data.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_q, 0, (queries * n + 16) * 4));
    CK(cudaMemcpy(d_q, data.data(), queries * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_stream, st.data(), st.size() * 8, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xff, queries * entries * 4));
  }
  ~Set() { cudaFree(d_data); cudaFree(d_q); cudaFree(d_out); cudaFree(d_stream); }
};

int main(int argc, char** argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int clk; CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  const double limit = 32.0 * sms * clk * 1e3;  // cells/s
  std::mt19937_64 rng(7);
  // Correctness at awkward shapes: small n, ragged chunks, triangle and square, band.
  {
    int fails = 0;
    for (int n : {1, 2, 5, 31, 33, 97, 128, 129, 200}) {
      for (std::int64_t entries : {1, 3, 37, 301}) {
        Set s(n, entries, entries, rng);
        std::vector<float> got(entries * entries);
        for (int sym = 0; sym < 2; ++sym) for (int chunk : {16, 32}) {
          StreamLaunch a{s.d_stream, s.d_data, s.d_out, entries, entries, n, n, chunk, bool(sym)};
          CK(cudaMemset(s.d_out, 0xff, entries * entries * 4));
          if (n <= 64) stream_launch<4, 16>(a); else if (n <= 128) stream_launch<8, 16>(a); else stream_launch<16, 16>(a);
          CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
          CK(cudaMemcpy(got.data(), s.d_out, got.size() * 4, cudaMemcpyDeviceToHost));
          int bad = check(s.data, n, entries, entries, got, rng, n);
          if (bad) std::printf("n %d entries %lld sym %d chunk %d: %d bad\n", n, (long long)entries, sym, chunk, bad);
          fails += bad;
        }
        for (int chunk : {1, 3, 16}) for (int band : {n, 3}) {  // subject streams, query 5 % entries
          const std::int64_t qi = 5 % entries;
          SubjectStreamLaunch b{s.d_data + qi * n, s.d_data, s.d_out, entries, n, band, chunk};
          CK(cudaMemset(s.d_out, 0xff, entries * 4));
          if (band < n) { if (n <= 64) subject_launch<4, 16, 2, true>(b); else if (n <= 128) subject_launch<8, 16, 2, true>(b); else subject_launch<16, 16, 2, true>(b); }
          else { if (n <= 64) subject_launch<4, 16, 2>(b); else if (n <= 128) subject_launch<8, 16, 2>(b); else subject_launch<16, 16, 2>(b); }
          CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
          std::vector<float> row(entries), rows(2 * (n + 1));
          CK(cudaMemcpy(row.data(), s.d_out, entries * 4, cudaMemcpyDeviceToHost));
          int bad = 0;
          for (std::int64_t e = 0; e < entries; ++e) {
            float want = dtw_two_rows(&s.data[qi * n], &s.data[e * n], n, rows.data(), band);
            if (!(std::fabs(row[e] - want) <= 1e-5 + 4 * n * 0x1p-24 * std::fabs(want))) ++bad;
          }
          if (bad) std::printf("subject stream n %d entries %lld chunk %d band %d: %d bad\n", n, (long long)entries, chunk, band, bad);
          fails += bad;
        }
        if (n >= 31) {  // banded, square
          StreamLaunch a{s.d_stream, s.d_data, s.d_out, entries, entries, n, 3, 16, false};
          if (n <= 64) stream_launch<4, 16, true>(a); else if (n <= 128) stream_launch<8, 16, true>(a); else stream_launch<16, 16, true>(a);
          CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
          CK(cudaMemcpy(got.data(), s.d_out, got.size() * 4, cudaMemcpyDeviceToHost));
          int bad = check(s.data, n, entries, entries, got, rng, 3);
          if (bad) std::printf("band n %d entries %lld: %d bad\n", n, (long long)entries, bad);
          fails += bad;
        }
      }
    }
    std::printf("awkward shapes: %d failures\n", fails);
  }
  if (argc > 1 && argv[1][0] == 'c') return 0;
  const int n = 128;
  {
    const std::int64_t entries = 1 << 20;
    Set s(n, entries, 1, rng);
    const double cells = double(entries) * n * n;
    std::vector<float> got(entries);
    auto report = [&](const char* name, float ms) {
      CK(cudaMemcpy(got.data(), s.d_out, entries * 4, cudaMemcpyDeviceToHost));
      int bad = check(s.data, n, entries, 1, got, rng, n);
      std::printf("%-28s %8.3f ms %8.1f GCUPS %5.1f%% of limit  bad %d\n", name, ms, cells / ms / 1e6, 100 * cells / (ms * 1e-3) / limit, bad);
      CK(cudaMemset(s.d_out, 0xff, entries * 4));
    };
    report("subwarp G8 C16", median_ms([&] {
      dtw_warp_wavefront_kernel<float, 8, 16, false><<<unsigned((entries * 8 + 255) / 256), 256>>>(s.d_q, s.d_data, s.d_out, entries, n, n, 1.f); }));
    StreamLaunch a{s.d_stream, s.d_data, s.d_out, 1, entries, n, n, 16, false};
    report("stream G8 C16 Q=1", median_ms([&] { stream_launch<8, 16>(a); }));
    report("stream G8 C16 Q=1 kQ4", median_ms([&] { stream_launch<8, 16, false, 4>(a); }));
    for (int chunk : {8, 16}) {
      SubjectStreamLaunch b{s.d_q, s.d_data, s.d_out, entries, n, n, chunk};
      char name[64];
      std::snprintf(name, sizeof name, "subject stream S2 chunk %d", chunk);
      report(name, median_ms([&] { subject_launch<8, 16, 2>(b); }));
      std::snprintf(name, sizeof name, "subject stream S3 chunk %d", chunk);
      report(name, median_ms([&] { subject_launch<8, 16, 3>(b); }));
    }
  }
  if (argc == 1) {
    const std::int64_t N = 8192;
    Set s(n, N, N, rng);
    std::vector<float> got(N * N);
    const double cells = double(N) * N * n * n;
    auto report = [&](const char* name, float ms) {
      CK(cudaMemcpy(got.data(), s.d_out, N * N * 4, cudaMemcpyDeviceToHost));
      int bad = check(s.data, n, N, N, got, rng, n);
      std::printf("%-28s %8.3f ms %8.1f GCUPS(full matrix)  bad %d\n", name, ms, cells / ms / 1e6, bad);
      CK(cudaMemset(s.d_out, 0xff, N * N * 4));
    };
    report("per-query subwarp", median_ms([&] {
      for (std::int64_t q = 0; q < N; ++q)
        dtw_warp_wavefront_kernel<float, 8, 16, false><<<unsigned((N * 8 + 255) / 256), 256>>>(s.d_q + q * n, s.d_data, s.d_out + q * N, N, n, n, 1.f); }, 3));
    for (int chunk : {16}) {
      StreamLaunch sq{s.d_stream, s.d_data, s.d_out, N, N, n, n, chunk, false};
      StreamLaunch tri{s.d_stream, s.d_data, s.d_out, N, N, n, n, chunk, true};
      char name[64];
      std::snprintf(name, sizeof name, "square chunk %d", chunk);
      report(name, median_ms([&] { stream_launch<8, 16>(sq); }, 5));
      std::snprintf(name, sizeof name, "triangle chunk %d", chunk);
      report(name, median_ms([&] { stream_launch<8, 16>(tri); }, 5));
    }
  }
  std::printf("sms %d clock %d kHz\n", sms, clk);
}
