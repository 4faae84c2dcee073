// The usual CPU instance: the output lives in host memory, is poisoned before every run, and
// the timed region is the whole computation, measured with a steady clock.
#pragma once
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "study.hpp"

namespace ladder {

// A value no correct output holds: NaN for floating point, the lowest integer otherwise.
template <class T>
T poison_value() {
  if constexpr (std::numeric_limits<T>::has_quiet_NaN) return std::numeric_limits<T>::quiet_NaN();
  else return std::numeric_limits<T>::lowest();
}

// Spins on the steady clock for `ms` milliseconds (a sleep would leave the core idle and
// wake late by the scheduler's whim).
inline void busy_wait_ms(double ms) {
  using Clock = std::chrono::steady_clock;
  const auto until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
  while (Clock::now() < until) {
  }
}

template <class T>
class HostInstance : public Instance {
 public:
  using Compute = std::function<void(T* out)>;
  HostInstance(std::size_t size, std::vector<std::size_t> shape, Compute compute)
      : out_(size), shape_(std::move(shape)), compute_(std::move(compute)) {}

  void poison() override { std::fill(out_.begin(), out_.end(), poison_value<T>()); }
  double run_ms() override { return call({}).ms; }
  // A planted wait (`--plant`) is a busy wait inside the timed region, after the computation:
  // the core stays as busy as the step keeps it, as a slower step would.
  CallTimes call(const CallExtras& x) override {
    const auto t0 = std::chrono::steady_clock::now();
    compute_(out_.data());
    if (x.plant_ms > 0) busy_wait_ms(x.plant_ms);
    return {std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count()};
  }
  bool can_plant() const override { return true; }
  Output fetch() override { return Output{out_, shape_}; }

 private:
  std::vector<T> out_;
  std::vector<std::size_t> shape_;
  Compute compute_;
};

}  // namespace ladder
