#include "runner.hpp"

#include <benchmark/benchmark.h>
#include <cuda_profiler_api.h>
#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "hardware.hpp"
#include "memory.hpp"
#include "plan.hpp"
#include "results.hpp"
#include "run_progress.hpp"
#include "stage_ranges.hpp"
#include "stats.hpp"
#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "../datagen/base/progress.hpp"
#include "../datagen/npy.hpp"

namespace ladder {

std::string nvtx_name(const VariantSpec& v) { return v.study + "." + v.name; }

namespace {

using Clock = std::chrono::steady_clock;

// Google Benchmark drives the repetitions and computes their statistics; the harness keeps
// the samples and the aggregates, so its console output is not needed.
class StatsReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Aggregate) continue;
      // Time aggregates are in the benchmark's unit (ms); the coefficient of variation is a
      // ratio, stored unscaled.
      const double v = r.aggregate_unit == benchmark::kPercentage ? r.real_accumulated_time
                                                                  : r.GetAdjustedRealTime();
      if (r.aggregate_name == "mean") stats.mean = v;
      if (r.aggregate_name == "median") stats.median = v;
      if (r.aggregate_name == "stddev") stats.stddev = v;
      if (r.aggregate_name == "cv") stats.cv = v;
    }
  }
  TimingStats stats;
};

// Runs `once` (returning milliseconds) `reps` times as one manual-time benchmark.
std::vector<double> time_with_benchmark(const std::string& name, int reps,
                                        const std::function<double()>& once, TimingStats& stats) {
  std::vector<double> samples;
  std::string failure;
  benchmark::RegisterBenchmark(name.c_str(), [&](benchmark::State& st) {
    for (auto _ : st) {
      try {
        const double ms = once();
        st.SetIterationTime(ms / 1e3);
        samples.push_back(ms);
      } catch (const std::exception& e) {
        failure = e.what();
        st.SkipWithError(failure.c_str());
        break;
      }
    }
  })
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(reps)
      ->Unit(benchmark::kMillisecond);
  StatsReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (!failure.empty()) throw std::runtime_error(failure);
  stats = reporter.stats;
  if (reps == 1) stats = {samples[0], samples[0], 0, 0};  // no aggregates for one sample
  return samples;
}

std::string file_safe(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  return s;
}

// DIR/<study>__<variant>__<point>.npy. A point that names a long file (TWED's b_file) would
// pass the 255 bytes a file name may have: past kMaxDumpName the point is cut and the hash of
// the whole point appended, so every name fits and two points never share one.
std::string dump_path(const std::string& dir, const std::string& study, const std::string& variant,
                      const std::string& point) {
  constexpr std::size_t kMaxDumpName = 200;
  std::string name = study + "__" + variant + "__" + file_safe(point);
  if (name.size() > kMaxDumpName) {
    name = name.substr(0, kMaxDumpName - 18) + "__" + stable_hash(point);
  }
  return dir + "/" + name + ".npy";
}

std::vector<std::string> data_param_names(const Study& s) {
  std::vector<std::string> names;
  for (const auto& p : s.data_params()) names.push_back(p.name);
  return names;
}

struct PointData {
  std::string source;  // generator or file, and the data parameters
  std::unique_ptr<Problem> problem;
  std::vector<std::size_t> indices;
  std::vector<double> reference;
  bool reference_ready = false;
};

// Summary statistics of samples taken in several rounds (Google Benchmark's, for one run of
// repetitions, as it computes them: the standard deviation over n - 1).
TimingStats stats_of(const std::vector<double>& v) {
  TimingStats s;
  if (v.empty()) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  s.median = median_of(v);
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(sq / double(v.size() - 1)) : 0;
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0;
  return s;
}

// One run as it is measured, perhaps over several rounds: its record, and what its first round
// decided for the rest.
struct Measuring {
  const PlannedRun* planned = nullptr;
  RunRecord r;
  bool open = false;   // to be measured: not skipped, unsupported, failed or finished
  int samples = 0;     // in all rounds
  int last_round = 0;  // the round after which its output is validated
  CallExtras extras;   // a planted wait
  bool held = false;   // each sample followed by a blocked call (--blocked-start)
  double wall_s = 0;
};

using Call = std::function<CallTimes(const CallExtras&, bool sample)>;

// A blocked call's hold gives up after this long: a step still queueing by then has waited
// for the device (it would otherwise wait for ever), and the sample's device time is dropped.
constexpr double kHoldTimeoutMs = 1000;

class Runner {
 public:
  Runner(const Config& c, const RunOptions& o, RunReport& report)
      : c_(c), o_(o), report_(report), study_(*c.study) {}

  static bool generated(const Point& p) { return p.data.file.empty(); }
  // --validate, else the point's sweep's own mode, else the config's.
  Validation validation_for(const Point& p) const {
    if (o_.validation) return *o_.validation;
    return p.validation.value_or(c_.validation);
  }

  // Everything that can fail on bad input fails here, before the first run.
  void check() {
    if (o_.rounds < 1) throw InputError("--rounds must be at least 1");
    if (o_.rounds > 1 && o_.profile) throw InputError("--rounds times samples: give it without --profile");
    plan_ = plan_runs(c_, o_.filter, o_.validation);
    if (o_.shard.active()) {
      if (o_.shard.owners.size() != plan_.size()) throw std::logic_error("a shard of another plan");
      std::erase_if(plan_, [&](const PlannedRun& r) { return !o_.shard.owns(r.index); });
    }
    if (!o_.only_runs.empty()) plan_ = keep_runs(std::move(plan_), o_.only_runs);
    report_.planned = plan_.size();
    // A data file is read once, with the first point that names it; the following points
    // with the same file are checked against it.
    const Problem* loaded = nullptr;
    std::string file;
    for (const Point& point : c_.points) {
      if (!point.data.file.empty() && point.data.file != file) {
        check_memory(point, nullptr);  // from the file's size, before it is read
        loaded = load(point).problem.get(), file = point.data.file;
      }
      const Problem* given = point.data.file.empty() ? nullptr : loaded;
      study_.check_point(point.data, resolve(study_, nullptr, point.params, generated(point)),
                         given);
      check_memory(point, given);
    }
  }

  void run() {
    progress_.start(report_.planned, o_.quiet, o_.progress_label.empty() ? c_.name : o_.progress_label,
                    o_.progress_tail);
    if (o_.rounds == 1) {
      for (const PlannedRun& planned : plan_) {
        const auto t0 = Clock::now();
        RunRecord r = run_one(planned);
        r.wall_s = seconds_since(t0);
        record(std::move(r));
      }
    } else {
      for (std::size_t first = 0; first < plan_.size();) {
        std::size_t end = first;
        while (end < plan_.size() && plan_[end].point == plan_[first].point) ++end;
        run_point_in_rounds(first, end);
        first = end;
      }
    }
    progress_.finish();
  }

 private:
  // The point's host memory, from its parameters, its data file's size or the data read
  // (`loaded`); throws InputError naming the point and the figure.
  void check_memory(const Point& pt, const Problem* loaded) const {
    const std::string key = pt.params.key();
    std::string what = key.empty() ? "point" : "point " + key;
    if (!pt.data.file.empty()) what += " of data file '" + printable(pt.data.file, 200) + "'";
    // --dump-outputs writes each output from a third copy.
    check_point_memory(study_, pt.data, resolve(study_, nullptr, pt.params, generated(pt)),
                       loaded, validation_for(pt), o_.dump_dir.empty() ? 2 : 3, what);
  }

  PointData& load(const Point& pt) {
    const std::string key = pt.params.key(data_param_names(study_));
    const std::string source = data_source_key(study_, pt);
    if (data_.source == source && data_.problem) return data_;
    data_ = PointData{};
    const auto t0 = Clock::now();
    {
      // Lines while it lasts, but none while the config is checked: a bad input's error
      // stays the only line.
      progress_.clear();
      ProgressTicker ticker("preparing data " + key, progress_.quiet());
      data_.problem =
          study_.make_problem(pt.data, resolve(study_, nullptr, pt.params, generated(pt)));
    }
    // Said only when it took long enough for the ticker's lines to have begun.
    if (const double s = seconds_since(t0); s >= kProgressSeconds)
      progress_.note(fmt::format("data {} ready in {:.1f} s", key, s));
    // A file's outputs are known only now: checked before the validation indices are made.
    check_memory(pt, generated(pt) ? nullptr : data_.problem.get());
    data_.source = source;
    const std::size_t total = study_.output_size(*data_.problem);
    data_.indices = validation_indices(validation_for(pt), total, std::hash<std::string>{}(key));
    return data_;
  }

  const std::vector<double>& reference(PointData& d) {
    if (!d.reference_ready) {
      d.reference = study_.reference(*d.problem, d.indices);
      d.reference_ready = true;
    }
    return d.reference;
  }

  static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }

  // A finished run: recorded, shown, and handed to the caller with the report so far.
  void record(RunRecord r) {
    report_.runs.push_back(std::move(r));
    progress_.done(report_.runs.back());
    if (o_.on_run) o_.on_run(report_);
  }

  RunRecord run_one(const PlannedRun& planned) {
    Measuring m = start(planned);
    if (m.open) measure_round(m, 0, 1);
    return std::move(m.r);
  }

  // A point's runs under --rounds R: its CPU runs one after the other as always, then its GPU
  // runs round by round, each round in an order drawn from the point's key and the round, each
  // run's instance prepared for its turn and freed after it. The records are handed on in plan
  // order once the point is done.
  void run_point_in_rounds(std::size_t first, std::size_t end) {
    const int rounds = o_.rounds;
    std::vector<Measuring> runs;
    runs.reserve(end - first);
    std::vector<std::size_t> in_rounds;  // into runs: the GPU runs to measure
    for (std::size_t k = first; k < end; ++k) {
      const auto t0 = Clock::now();
      Measuring& m = runs.emplace_back(start(plan_[k]));
      if (m.open && m.planned->variant->backend == Backend::gpu) in_rounds.push_back(runs.size() - 1);
      else if (m.open) measure_round(m, 0, 1);
      m.wall_s += seconds_since(t0);
    }
    const std::uint64_t seed = round_seed(c_.points[plan_[first].point].key());
    for (int round = 0; round < rounds; ++round) {
      const std::vector<std::size_t> order = round_order(in_rounds.size(), seed, round);
      for (std::size_t pos = 0; pos < order.size(); ++pos) {
        Measuring& m = runs[in_rounds[order[pos]]];
        m.r.rounds = rounds;
        m.r.round_seed = seed;
        m.r.round_positions.push_back(int(pos));
        // Closed (failed, or its only sample taken), or no sample for it in this round.
        if (!m.open || round > m.last_round || (round > 0 && round_share(m.samples, rounds, round) == 0))
          continue;
        const auto t0 = Clock::now();
        measure_round(m, round, rounds);
        m.wall_s += seconds_since(t0);
      }
    }
    for (Measuring& m : runs) {
      m.r.wall_s = m.wall_s;
      record(std::move(m.r));
    }
  }

  // A run's record up to its measurement: skipped, unsupported or failed here, else open.
  Measuring start(const PlannedRun& planned) {
    const Point& pt = c_.points[planned.point];
    const VariantSpec& v = *planned.variant;
    Measuring m;
    m.planned = &planned;
    RunRecord& r = m.r;
    r.run_index = planned.index;
    r.variant = &v;
    r.params = planned.params;
    r.point = pt.key();
    r.sweep = pt.sweep;
    r.validation = planned.validation;
    r.timing = v.backend == Backend::gpu ? c_.timing : TimingMode::hot;
    const DeviceCaps& caps = report_.device.caps;
    if (v.backend == Backend::gpu && !caps.present && !o_.replay) {
      r.status = Status::skipped;
      r.reason = report_.device.absent_reason;
      return m;
    }
    if (v.backend == Backend::cpu && o_.profile) {  // no profiler reads a CPU step's range
      r.status = Status::skipped;
      r.reason = "--profile runs the GPU steps only";
      return m;
    }
    // Whatever fails inside one run (a CUDA error, memory, a bug) is that run's error; the
    // runs before and after it keep their results.
    try {
      PointData& d = load(pt);
      r.data = study_.describe(*d.problem);
      r.work = study_.work(*d.problem, v, caps);
      r.tolerance = study_.tolerance(*d.problem, v);
      r.reason = missing_features(v, caps, r.emulated);
      if (r.reason.empty()) r.reason = v.supports(*d.problem, r.params, caps);
      if (!r.reason.empty()) {
        r.status = Status::unsupported;
        return m;
      }
      m.open = true;
    } catch (const std::bad_alloc&) {
      fail(r, "out of host memory");
    } catch (const std::exception& e) {
      fail(r, e.what());
    }
    return m;
  }

  // "" or why the device cannot run the step; `emulated` gets why it runs emulated.
  static std::string missing_features(const VariantSpec& v, const DeviceCaps& caps,
                                      std::string& emulated) {
    for (Feature f : v.needs) {
      const std::string why = missing_feature(f, caps);
      if (why.empty()) continue;
      if (!emulated_when_missing(f)) return why;
      emulated += (emulated.empty() ? "" : "; ") + why;
    }
    return "";
  }

  static void fail(RunRecord& r, const std::string& why) {
    r.status = Status::error;
    r.reason = why;
    r.samples_ms.clear();
    r.stage_samples_ms.clear();
  }

  // Round `round` of `rounds` of an open run; whatever fails in it closes the run as an error.
  void measure_round(Measuring& m, int round, int rounds) {
    try {
      measure(m, round, rounds);
    } catch (const std::bad_alloc&) {
      fail(m.r, "out of host memory");
      m.open = false;
    } catch (const std::exception& e) {
      fail(m.r, e.what());
      m.open = false;
    }
  }

  // The run's instance prepared (and freed when the round is done), its warm-up calls (the
  // first round's decide the rest), its share of the samples, and after its last round the
  // output fetched and validated.
  void measure(Measuring& m, int round, int rounds) {
    const PlannedRun& planned = *m.planned;
    const VariantSpec& v = *planned.variant;
    RunRecord& r = m.r;
    PointData& d = load(c_.points[planned.point]);
    std::unique_ptr<Instance> inst = v.prepare(*d.problem, r.params, report_.device.caps);
    if (r.timing == TimingMode::cold && !flush_)
      flush_ = std::make_unique<L2Flush>(report_.device.caps.l2_bytes);
    auto ready = [&] {
      inst->poison();
      if (r.timing == TimingMode::cold) (*flush_)();  // after the poison, which touches L2 too
    };
    // One call; a sample's keeps its stage times.
    const Call call = [&](const CallExtras& x, bool sample) {
      ready();
      const CallTimes t = inst->call(x);
      if (sample)
        for (const auto& [stage, ms] : inst->stages_ms()) r.stage_samples_ms[stage].push_back(ms);
      return t;
    };
    if (o_.profile) {
      r.warmup = planned.warmup;
      for (int i = 0; i < r.warmup; ++i) call({}, false);
      ready();  // outside the profiler's range: it sees the step's own kernels only
      profiled(v, r.run_index, [&] { inst->run_ms(); });
      r.stage_samples_ms.clear();  // a profiled call's time is the profiler's: never a sample
    } else {
      bool sampling = true;
      if (round == 0) sampling = first_round(m, *inst, call, rounds);
      else call(m.extras, false);  // each later round's warm-up: `hot` stays hot
      if (sampling) take_samples(m, round, rounds, call);
    }
    if (o_.profile || round == m.last_round) finish(m, *inst, d);
  }

  // The first round's warm-up calls, and what they decide for the whole run: how many samples
  // (the config's count; cut to what fits a time budget, raised by --process-samples), the
  // planted wait, and whether each sample has a blocked call too. With a time budget the first
  // call measures the run and counts as a warm-up; when no further call fits in the budget,
  // that first call is the one sample (a call of seconds gains nothing from a warm-up; it would
  // double the run) and false is returned.
  bool first_round(Measuring& m, Instance& inst, const Call& call, int rounds) {
    const PlannedRun& planned = *m.planned;
    RunRecord& r = m.r;
    const bool gpu = planned.variant->backend == Backend::gpu;
    const bool planted = o_.plant && o_.plant->matches(planned.variant->id());
    if (planted && !inst.can_plant())
      throw std::runtime_error("--plant: this step's calls cannot take a planted wait");
    const bool held = gpu && o_.blocked_start;
    const bool process = gpu && o_.process_samples;
    // These read the warm-up median, the plant's of three calls at least (a first call that
    // loads the step's code is then not the median); with rounds each round has a warm-up call.
    const int least = planted ? 3 : held || process || rounds > 1 ? 1 : 0;
    r.warmup = std::max(planned.warmup, least);
    r.repetitions_planned = planned.repetitions;
    r.time_budget_s = planned.time_budget_s;
    double room = std::numeric_limits<double>::infinity();  // samples the time budget has room for
    std::vector<double> warm;
    if (planned.time_budget_s > 0) {
      const double first = call({}, true).ms;
      room = planned.time_budget_s * 1e3 / std::max(first, 1e-6) - 1;
      if (room < 1) {
        r.warmup = 0;
        r.samples_ms = {first};
        r.stats = {first, first, 0, 0};
        if (rounds > 1) r.sample_rounds = {0};
        m.samples = 1;
        m.last_round = 0;
        return false;
      }
      r.warmup = std::max({planned.warmup, least, 1});
      warm.push_back(first);
    }
    while (int(warm.size()) < r.warmup) warm.push_back(call({}, false).ms);
    r.stage_samples_ms.clear();  // warm-up calls do not count
    const double typical = median_of(warm);
    if (process) {
      r.samples_rule = "process";
      r.repetitions_planned = process_sample_count(planned.repetitions, typical);
    }
    m.samples = static_cast<int>(std::min<double>(r.repetitions_planned, room));
    m.last_round = rounds - 1;  // the last round takes the rest: never none
    if (planted) plant(m, call, typical, gpu);
    if (held) m.held = holds(m, inst, call, typical);
    return true;
  }

  // The planted wait, sized so that the window grows by (FACTOR - 1) of the warm-up median.
  // On the GPU the wait has a cost of its own beside its length: a kernel launch queued after
  // the step's, a few microseconds (40% of a 10 us step). It is measured on this step as the
  // median of calls with the shortest wait less that of plain calls taken in turn with them
  // (enough pairs for 50 ms, 5 to 200, so that the cost's own noise stays well under the
  // share planted), and taken off the wait. Where the cost alone exceeds the share, the
  // shortest wait is what the step gets, and the run records how much more than asked that
  // is. A host step's wait is a busy loop and costs nothing beside its length.
  void plant(Measuring& m, const Call& call, double typical, bool gpu) {
    constexpr double kShortestMs = 1e-6;  // one nanosecond: the wait's cost and nothing else
    RunRecord& r = m.r;
    r.planted_factor = o_.plant->factor;
    r.planted_of_ms = typical;
    if (gpu) {
      const int pairs = static_cast<int>(std::clamp(50.0 / std::max(typical, 1e-6), 5.0, 200.0));
      CallExtras shortest;
      shortest.plant_ms = kShortestMs;
      std::vector<double> plain, waited;
      for (int i = 0; i < pairs; ++i) {
        plain.push_back(call({}, false).ms);
        waited.push_back(call(shortest, false).ms);
      }
      r.planted_cost_ms = std::max(0.0, median_of(waited) - median_of(plain));
    }
    r.planted_ms = std::max(kShortestMs, (r.planted_factor - 1) * typical - r.planted_cost_ms);
    m.extras.plant_ms = r.planted_ms;
  }

  // Whether the step's stream can be held until it is queued: one untimed blocked call whose
  // hold must end by its release. A step that waits for the device while it queues its work (a
  // stream synchronisation, a read-back, more launches than the queue holds) waits for the
  // hold instead, which gives up after its timeout: its device time would not be its own, so
  // it takes no blocked calls, and the run says why. A step that does not wait returns in a
  // fraction of its own time: 50 ms plus four times its warm-up median leaves room for a slow
  // host.
  bool holds(Measuring& m, Instance& inst, const Call& call, double typical) {
    if (!inst.can_hold()) {
      m.r.device_skipped = "the step is not timed on a CUDA stream of its own";
      return false;
    }
    CallExtras x = m.extras;
    x.hold_timeout_ms = std::min(kHoldTimeoutMs, 50 + 4 * typical);
    if (call(x, false).hold_timed_out) {
      m.r.device_skipped =
          "the step waits for the device while it queues its work (a synchronisation, a read-back "
          "or more launches than the queue holds): a held stream stalls it";
      return false;
    }
    return true;
  }

  // The run's share of samples in this round, under Google Benchmark; with a blocked start
  // each sample is followed by a blocked call, its device time kept beside the sample.
  void take_samples(Measuring& m, int round, int rounds, const Call& call) {
    RunRecord& r = m.r;
    const int share = round_share(m.samples, rounds, round);
    if (share == 0) return;
    const auto once = [&] {
      const double ms = call(m.extras, true).ms;
      if (m.held) {
        CallExtras x = m.extras;
        x.hold_timeout_ms = kHoldTimeoutMs;
        const CallTimes t = call(x, false);
        r.device_samples_ms.push_back(t.hold_timed_out ? std::numeric_limits<double>::quiet_NaN() : t.ms);
      }
      return ms;
    };
    TimingStats stats;
    const std::vector<double> s = time_with_benchmark(m.planned->variant->id() + "/" + r.point, share, once, stats);
    r.samples_ms.insert(r.samples_ms.end(), s.begin(), s.end());
    if (rounds > 1) r.sample_rounds.insert(r.sample_rounds.end(), s.size(), round);
    r.stats = rounds > 1 ? stats_of(r.samples_ms) : stats;
  }

  // After the run's last call: its output fetched, recorded and validated.
  void finish(Measuring& m, Instance& inst, PointData& d) {
    m.open = false;
    RunRecord& r = m.r;
    const VariantSpec& v = *m.planned->variant;
    Output out = inst.fetch();
    r.extras = study_.extras(*d.problem, out);
    r.facts = inst.facts();
    if (!o_.dump_dir.empty())
      write_npy(dump_path(o_.dump_dir, study_.name(), v.name, r.point),
                study_.dump_form(*d.problem, out));
    if (r.validation.mode == Validation::Mode::off) {
      r.status = Status::passed;
      return;
    }
    r.check = study_.compare(*d.problem, out, d.indices, reference(d), r.tolerance);
    r.status = r.check.ok ? Status::passed : Status::incorrect;
    if (!r.check.ok)
      r.reason = std::to_string(r.check.failures) + " of " + std::to_string(r.check.checked) +
                 " outputs outside tolerance; first: " + r.check.first_failure;
  }

  // One call inside an NVTX range named study.variant, and in it one named r<run_index> (and
  // a start/end range per stage of a staged step, "stage.<name>"),
  // bracketed by the profiler API so that `ncu --profile-from-start off` or `nsys
  // --capture-range=cudaProfilerApi` see only it; `--nvtx-include dtw.shared/r3/` picks one run.
  // No '/' in a name: ncu's NVTX filters read it as nesting.
  void profiled(const VariantSpec& v, std::size_t run_index, const std::function<void()>& call) {
    const bool gpu = report_.device.caps.present;
    if (gpu) LADDER_CUDA(cudaProfilerStart());
    nvtxRangePushA(nvtx_name(v).c_str());
    nvtxRangePushA(("r" + std::to_string(run_index)).c_str());
    stage_ranges_on() = true;  // each stage of the call in a range of its own
    try {
      call();
    } catch (...) {
      stage_ranges_on() = false;
      throw;
    }
    stage_ranges_on() = false;
    nvtxRangePop();
    nvtxRangePop();
    if (gpu) LADDER_CUDA(cudaProfilerStop());
  }

  const Config& c_;
  const RunOptions& o_;
  RunReport& report_;
  const Study& study_;
  RunProgress progress_;
  PointData data_;
  std::vector<PlannedRun> plan_;
  std::unique_ptr<L2Flush> flush_;
};

}  // namespace

double median_of(std::vector<double> v) { return v.empty() ? 0 : stats::median(std::move(v)); }

nlohmann::json sampling_json(const RunRecord& r) {
  nlohmann::json j = nlohmann::json::object();
  if (!r.samples_rule.empty()) {
    j["samples_rule"] = r.samples_rule;
    j["repetitions_planned"] = r.repetitions_planned;
  }
  if (r.rounds > 1) {
    j["rounds"] = r.rounds;
    j["sample_rounds"] = r.sample_rounds;
    j["round_seed"] = fmt::format("{:016x}", r.round_seed);  // 64 bits: JSON numbers hold 53
    j["round_positions"] = r.round_positions;
  }
  if (!r.device_samples_ms.empty()) {
    nlohmann::json samples = nlohmann::json::array();
    std::vector<double> held;
    for (double ms : r.device_samples_ms) {
      samples.push_back(std::isfinite(ms) ? nlohmann::json(ms) : nlohmann::json(nullptr));
      if (std::isfinite(ms)) held.push_back(ms);
    }
    j["device_samples"] = samples;  // null: the hold timed out
    j["device_median"] = held.empty() ? nlohmann::json(nullptr) : nlohmann::json(median_of(held));
    j["device_timeouts"] = r.device_samples_ms.size() - held.size();
  }
  if (!r.device_skipped.empty()) j["device_skipped"] = r.device_skipped;
  if (r.planted_factor > 0)
    j["planted"] = {{"factor", r.planted_factor},
                    {"ms", r.planted_ms},
                    {"cost_ms", r.planted_cost_ms},
                    {"warmup_median_ms", r.planted_of_ms}};
  return j;
}

bool RunReport::all_ok() const {
  return std::all_of(runs.begin(), runs.end(), [](const RunRecord& r) {
    return r.status == Status::passed || r.status == Status::unsupported ||
           r.status == Status::skipped;
  });
}

void check_config(const Config& config, const RunOptions& options) {
  RunReport report;
  Runner(config, options, report).check();
}

RunReport run_config(const Config& config, const RunOptions& options) {
  RunReport report;
  report.config = config;
  report.options = options;
  report.validation = options.validation.value_or(config.validation);
  Runner runner(config, options, report);
  runner.check();
  report.device = probe_device(options.device, options.device_given);
  if (options.on_checked) options.on_checked();
  report.clock_start_mhz = current_sm_clock_mhz(report.device);
  report.started_at = utc_timestamp();
  static bool initialised = false;
  if (!initialised) {
    int argc = 1;
    char name[] = "ladder";
    char* argv[] = {name, nullptr};
    benchmark::Initialize(&argc, argv);
    initialised = true;
  }
  runner.run();
  report.clock_end_mhz = current_sm_clock_mhz(report.device);
  report.finished_at = utc_timestamp();
  return report;
}

}  // namespace ladder
