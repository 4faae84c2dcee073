#include "runner.hpp"

#include <benchmark/benchmark.h>
#include <cuda_profiler_api.h>
#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <regex>

#include "errors.hpp"
#include "cuda_check.hpp"
#include "npy.hpp"

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Google Benchmark drives the repetitions; the harness keeps its own samples, so its
// console output is not needed.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// Runs `once` (returning milliseconds) `reps` times as one manual-time benchmark.
std::vector<double> time_with_benchmark(const std::string& name, int reps,
                                        const std::function<double()>& once) {
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
  SilentReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (!failure.empty()) throw CudaError(failure);
  return samples;
}

std::string file_safe(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  return s;
}

// The point as the variant sees it: study data defaults, then variant defaults, then config.
Params with_defaults(const Params& point, const Study& study, const VariantSpec& v) {
  Params p;
  for (const auto& s : study.data_params())
    if (!s.fallback.empty()) p.set(s.name, s.fallback);
  for (const auto& s : v.params)
    if (!s.fallback.empty()) p.set(s.name, s.fallback);
  for (const auto& [k, val] : point.items()) p.set(k, val);
  return p;
}

std::vector<std::string> data_param_names(const Study& s) {
  std::vector<std::string> names;
  for (const auto& p : s.data_params()) names.push_back(p.name);
  return names;
}

class Progress {
 public:
  Progress(std::size_t total, bool quiet) : total_(total), quiet_(quiet), start_(Clock::now()) {}
  void note(const std::string& what) const {
    if (!quiet_) fmt::print(stderr, "  {}\n", what);
  }
  void done(const RunRecord& r) {
    ++done_;
    if (quiet_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double left = elapsed / done_ * (total_ - done_);
    std::string result = to_string(r.status);
    if (!r.samples_ms.empty()) {
      const double med = median_of(r.samples_ms);
      result += fmt::format("  median {:.4g} ms", med);
      if (r.work.amount > 0 && med > 0)
        result += fmt::format("  {:.4g} {}", r.work.amount / (med / 1e3) / r.work.scale,
                              r.work.metric);
    }
    if (!r.reason.empty()) result += "  (" + r.reason + ")";
    fmt::print(stderr, "[{}/{}] {} {}: {}  [elapsed {:.0f}s, ~{:.0f}s left]\n", done_, total_,
               r.variant->id(), r.point, result, elapsed, left);
  }

 private:
  std::size_t total_, done_ = 0;
  bool quiet_;
  Clock::time_point start_;
};

struct PointData {
  std::string key;
  std::unique_ptr<Problem> problem;
  std::vector<std::size_t> indices;
  std::vector<double> reference;
  bool reference_ready = false;
};

class Runner {
 public:
  Runner(const Config& c, const RunOptions& o, RunReport& report)
      : c_(c), o_(o), report_(report), study_(*c.study), progress_(0, true) {}

  void run() {
    const auto selected = select();
    std::size_t total = 0;
    for (const auto& vs : selected) total += vs.size();
    progress_ = Progress(total, o_.quiet);
    // Data files are read and every point checked before anything runs, so a bad file fails
    // with no results (generated data is checked cheaply by Study::check_point).
    if (!c_.data.file.empty())
      for (const Point& point : c_.points) load(point.params);
    for (std::size_t i = 0; i < c_.points.size(); ++i)
      for (const VariantSpec* v : selected[i]) {
        report_.runs.push_back(run_one(c_.points[i], *v));
        progress_.done(report_.runs.back());
      }
  }

 private:
  // Each point's variants that pass --filter.
  std::vector<std::vector<const VariantSpec*>> select() const {
    // std::regex compiles recursively: a bounded pattern keeps a hostile one from the stack.
    if (o_.filter.size() > 256) throw InputError("--filter is longer than 256 characters");
    std::regex re;
    try {
      re = std::regex(o_.filter.empty() ? ".*" : o_.filter);
    } catch (const std::regex_error& e) {
      throw InputError("--filter '" + o_.filter + "' is not a valid regular expression");
    }
    std::vector<std::vector<const VariantSpec*>> out;
    bool any = false;
    for (const Point& p : c_.points) {
      auto& vs = out.emplace_back();
      for (const VariantSpec* v : p.variants)
        if (std::regex_search(v->id(), re)) vs.push_back(v);
      any |= !vs.empty();
    }
    if (!any) throw InputError("--filter '" + o_.filter + "' selects no variant");
    return out;
  }

  PointData& load(const Params& point) {
    const std::string key = point.key(data_param_names(study_));
    if (data_.key == key && data_.problem) return data_;
    data_ = PointData{};
    const auto t0 = Clock::now();
    data_.problem = study_.make_problem(c_.data, point);
    progress_.note(fmt::format("data {} ready in {:.1f} s", key,
                               std::chrono::duration<double>(Clock::now() - t0).count()));
    data_.key = key;
    const std::size_t total = study_.output_size(*data_.problem);
    data_.indices = validation_indices(report_.validation, total, std::hash<std::string>{}(key));
    return data_;
  }

  const std::vector<double>& reference(PointData& d) {
    if (!d.reference_ready) {
      d.reference = study_.reference(*d.problem, d.indices);
      d.reference_ready = true;
    }
    return d.reference;
  }

  RunRecord run_one(const Point& pt, const VariantSpec& v) {
    const Params& point = pt.params;
    RunRecord r;
    r.variant = &v;
    r.params = with_defaults(point, study_, v);
    r.point = point.key();
    r.sweep = pt.sweep;
    r.validation = report_.validation;
    const DeviceCaps& caps = report_.device.caps;
    if (v.backend == Backend::gpu && !caps.present) {
      r.status = Status::skipped;
      r.reason = report_.device.absent_reason;
      return r;
    }
    PointData& d = load(point);
    r.data = study_.describe(*d.problem);
    r.work = study_.work(*d.problem, v, caps);
    r.tolerance = study_.tolerance(*d.problem, v);
    r.reason = v.supports(*d.problem, r.params, caps);
    if (!r.reason.empty()) {
      r.status = Status::unsupported;
      return r;
    }
    try {
      measure(r, v, d);
    } catch (const CudaError& e) {
      r.status = Status::error;
      r.reason = e.what();
    } catch (const std::bad_alloc&) {
      r.status = Status::error;
      r.reason = "out of host memory";
    }
    return r;
  }

  void measure(RunRecord& r, const VariantSpec& v, PointData& d) {
    std::unique_ptr<Instance> inst = v.prepare(*d.problem, r.params);
    auto once = [&] {
      inst->poison();
      const double ms = inst->run_ms();
      for (const auto& [stage, t] : inst->stages_ms()) r.stage_samples_ms[stage].push_back(t);
      return ms;
    };
    if (o_.profile) {
      r.samples_ms.push_back(profiled(v, once));
    } else {
      r.warmup = c_.warmup[v.backend];
      for (int i = 0; i < r.warmup; ++i) once();
      r.stage_samples_ms.clear();  // warm-up runs do not count
      r.samples_ms = time_with_benchmark(v.id() + "/" + r.point, c_.repetitions[v.backend], once);
    }
    Output out = inst->fetch();
    r.extras = study_.extras(*d.problem, out);
    r.facts = inst->facts();
    if (!o_.dump_dir.empty())
      write_npy(o_.dump_dir + "/" + study_.name() + "__" + v.name + "__" + file_safe(r.point) +
                    ".npy",
                out);
    if (report_.validation.mode == Validation::Mode::off) {
      r.status = Status::passed;
      return;
    }
    r.check = compare_outputs(out, study_.output_size(*d.problem), d.indices, reference(d),
                              r.tolerance);
    r.status = r.check.ok ? Status::passed : Status::incorrect;
    if (!r.check.ok)
      r.reason = std::to_string(r.check.failures) + " of " + std::to_string(r.check.checked) +
                 " outputs outside tolerance; first: " + r.check.first_failure;
  }

  // One run inside an NVTX range named study/variant, bracketed by the profiler API so that
  // `ncu --profile-from-start off` or `nsys --capture-range=cudaProfilerApi` see only it.
  double profiled(const VariantSpec& v, const std::function<double()>& once) {
    const bool gpu = report_.device.caps.present;
    if (gpu) LADDER_CUDA(cudaProfilerStart());
    nvtxRangePushA(v.id().c_str());
    const double ms = once();
    nvtxRangePop();
    if (gpu) LADDER_CUDA(cudaProfilerStop());
    return ms;
  }

  const Config& c_;
  const RunOptions& o_;
  RunReport& report_;
  const Study& study_;
  Progress progress_;
  PointData data_;
};

}  // namespace

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

bool RunReport::all_ok() const {
  return std::all_of(runs.begin(), runs.end(), [](const RunRecord& r) {
    return r.status == Status::passed || r.status == Status::unsupported ||
           r.status == Status::skipped;
  });
}

RunReport run_config(const Config& config, const RunOptions& options) {
  RunReport report;
  report.config = config;
  report.options = options;
  report.validation = options.validation.value_or(config.validation);
  for (const Point& p : config.points) config.study->check_point(config.data, p.params);
  report.device = probe_device(options.device);
  report.clock_start_mhz = current_sm_clock_mhz(report.device);
  report.started_at = now_iso();
  static bool initialised = false;
  if (!initialised) {
    int argc = 1;
    char name[] = "ladder";
    char* argv[] = {name, nullptr};
    benchmark::Initialize(&argc, argv);
    initialised = true;
  }
  Runner(config, options, report).run();
  report.clock_end_mhz = current_sm_clock_mhz(report.device);
  report.finished_at = now_iso();
  return report;
}

}  // namespace ladder
