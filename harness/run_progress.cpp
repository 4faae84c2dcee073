#include "run_progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../datagen/base/printable.hpp"
#include "runner.hpp"

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kBarWidth = 20;
constexpr double kLogEverySeconds = 60;  // a line in a log at most this often mid-config

void write_err(const std::string& text) {
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

std::string duration_text(double s) {
  const long n = std::lround(s);
  return n >= 60 ? fmt::format("{}m{:02d}s", n / 60, n % 60) : fmt::format("{}s", n);
}

std::size_t line_width(int fd) {
  struct winsize w {};
  if (::isatty(fd) != 1) return 100;
  return ::ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_col >= 20 ? w.ws_col : 80;
}

RunProgress::~RunProgress() {
  if (open_) write_err("\n");
}

void RunProgress::start(std::size_t total, bool quiet, std::string label, Tail tail) {
  total_ = total;
  done_ = 0;
  quiet_ = quiet;
  tty_ = ::isatty(STDERR_FILENO) == 1;
  label_ = printable_all(label);
  tail_ = std::move(tail);
  tally_ = {};
  start_ = logged_ = Clock::now();
}

// Parts of the line, most needed first; as many as fit in `max_width`, whole.
std::string RunProgress::line(std::size_t max_width) const {
  const std::size_t filled = total_ == 0 ? kBarWidth : kBarWidth * done_ / total_;
  std::vector<std::string> parts = {
      fmt::format("{}[{}{}]  {}/{}", label_.empty() ? "" : label_ + "  ", std::string(filled, '#'),
                  std::string(kBarWidth - filled, '.'), done_, total_)};
  std::vector<std::string> counts;
  if (tally_.passed) counts.push_back(fmt::format("{} passed", tally_.passed));
  if (tally_.incorrect) counts.push_back(fmt::format("{} incorrect", tally_.incorrect));
  if (tally_.failed) counts.push_back(fmt::format("{} failed", tally_.failed));
  if (tally_.skipped) counts.push_back(fmt::format("{} skipped", tally_.skipped));
  std::string counted;
  for (const std::string& c : counts) counted += (counted.empty() ? "" : ", ") + c;
  parts.push_back(counted);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  parts.push_back(done_ > 0 && done_ < total_
                      ? duration_text(elapsed) + ", ~" + duration_text(elapsed / done_ * (total_ - done_)) + " left"
                      : duration_text(elapsed));
  if (tail_) parts.push_back(printable_all(tail_(done_, total_)));
  std::string out = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    const std::string next = out + "  " + parts[i];
    if (display_width(next) > max_width) break;
    out = next;
  }
  return out;
}

void RunProgress::draw() {
  const std::string text = line(line_width(STDERR_FILENO) - 1);
  const std::size_t width = display_width(text);
  write_err("\r" + text + std::string(drawn_width_ > width ? drawn_width_ - width : 0, ' '));
  drawn_width_ = width;
  open_ = true;
}

void RunProgress::clear() {
  if (!open_) return;
  write_err("\r" + std::string(drawn_width_, ' ') + "\r");
  open_ = false;
  drawn_width_ = 0;
}

void RunProgress::note(const std::string& what) {
  if (quiet_) return;
  clear();
  write_err("  " + printable_all(what) + "\n");
}

void RunProgress::done(const RunRecord& r) {
  ++done_;
  tally_.add(r.status);
  if (quiet_) return;
  // Names and reasons come from configs and handovers: escaped, as every name on a terminal.
  if (r.status == Status::incorrect || r.status == Status::error)
    note(fmt::format("{}: {} {}{}", to_string(r.status), r.variant->id(), r.point,
                     r.reason.empty() ? "" : ": " + r.reason));
  if (tty_) return draw();
  if (done_ < total_ && std::chrono::duration<double>(Clock::now() - logged_).count() >= kLogEverySeconds) {
    logged_ = Clock::now();
    write_err(line(SIZE_MAX) + "\n");
  }
}

void RunProgress::finish() {
  if (quiet_) return;
  if (tty_) {
    draw();
    write_err("\n");
    open_ = false;
    drawn_width_ = 0;
  } else {
    write_err(line(SIZE_MAX) + "\n");
  }
}

}  // namespace ladder
