// A config's progress while it runs: one line, with a bar and the runs counted by outcome
// (skipped runs are counted, never listed one by one):
//   dtw-smoke  [########............]  34/85  12 passed, 22 skipped  6s, ~9s left
// On a terminal the line is redrawn in place after each run; in a log (stderr not a terminal)
// it is written when the config ends, and once a minute before that while it lasts. A run
// that errors or does not validate gets a line of its own as it happens. Lines are never cut:
// on a narrow terminal whole parts of the line are left out instead, the last first.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "tally.hpp"

namespace ladder {

struct RunRecord;

// Seconds as progress lines show them: "42s", "3m05s".
std::string duration_text(double s);

// The columns a line written to `fd` may take: the terminal's, or 100 when `fd` is not one (a
// log), so that text broken between words (wrap_words) reads the same in both.
std::size_t line_width(int fd);

class RunProgress {
 public:
  using Tail = std::function<std::string(std::size_t done, std::size_t total)>;

  RunProgress() = default;
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;
  // A line left open on a terminal (an error ended the config) is ended, so that what is
  // written next starts a line of its own.
  ~RunProgress();

  // `total` runs from now on, shown after `label`; `tail`, when set, adds to each line.
  void start(std::size_t total, bool quiet, std::string label, Tail tail = {});
  bool quiet() const { return quiet_; }
  // A line of its own ("  WHAT"), the bar redrawn after it on a terminal.
  void note(const std::string& what);
  // The bar taken off a terminal's line, before other lines are written there (data
  // preparation's own progress); the next run draws it again.
  void clear();
  void done(const RunRecord& r);
  // The config's last line.
  void finish();

 private:
  std::string line(std::size_t max_width) const;
  void draw();

  std::size_t total_ = 0, done_ = 0;
  bool quiet_ = true, tty_ = false, open_ = false;
  std::size_t drawn_width_ = 0;
  std::string label_;
  Tail tail_;
  Tally tally_;
  std::chrono::steady_clock::time_point start_, logged_;
};

}  // namespace ladder
