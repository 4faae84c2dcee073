// Progress of long work (generating or reading data), shown while it lasts. The work counts
// what it has done (start, advance: cheap and thread-safe); a ProgressTicker started around
// it prints a line to stderr every few seconds, with the share done and the time left when
// the work counts, else the time so far. Work that finishes within the first interval prints
// nothing.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace ladder {

// Seconds between progress lines.
constexpr double kProgressSeconds = 3;

// The counted work: `total` units from now on (the counter starts at 0).
void progress_start(std::int64_t total);
// `units` more done.
void progress_advance(std::int64_t units);

class ProgressTicker {
 public:
  // Prints "  WHAT: 45% after 9 s, about 11 s left" (or "  WHAT: 9 s so far") every
  // kProgressSeconds until destroyed; nothing when `quiet`.
  ProgressTicker(std::string what, bool quiet);
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  void tick();

  std::string what_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace ladder
