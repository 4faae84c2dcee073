#include "progress.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>

#include "printable.hpp"

namespace ladder {
namespace {

std::atomic<std::int64_t> g_total{0}, g_done{0};

}  // namespace

void progress_start(std::int64_t total) {
  g_done = 0;
  g_total = total;
}

void progress_advance(std::int64_t units) { g_done.fetch_add(units, std::memory_order_relaxed); }

// `what` may name a point of a config (a file name among its parameters): escaped once here.
ProgressTicker::ProgressTicker(std::string what, bool quiet) : what_(printable_all(what)) {
  g_total = 0;  // until the work says how much it is
  if (!quiet) thread_ = std::thread([this] { tick(); });
}

ProgressTicker::~ProgressTicker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressTicker::tick() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto every = std::chrono::duration<double>(kProgressSeconds);
  std::unique_lock<std::mutex> lock(mutex_);
  for (int k = 1; !wake_.wait_until(lock, start + k * every, [this] { return done_; }); ++k) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const std::int64_t total = g_total, done = g_done;
    if (total > 0 && done > 0) {
      const double share = double(std::min(done, total)) / double(total);
      std::fprintf(stderr, "  %s: %.0f%% after %.0f s, about %.0f s left\n", what_.c_str(),
                   100 * share, elapsed, elapsed * (1 - share) / share);
    } else {
      std::fprintf(stderr, "  %s: %.0f s so far\n", what_.c_str(), elapsed);
    }
    std::fflush(stderr);
  }
}

}  // namespace ladder
