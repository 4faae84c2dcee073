// The runner's GPU timing options on a device (harness/timing_kernels.hpp): a planted wait
// raises a step's median by its factor; a blocked start records each sample's device time
// (never above the sample's own, never zero) and leaves out the steps that wait for the device
// while they queue their work; rounds keep every output validated. The device gives the
// bandwidths the limits' memory bounds take. Without a CUDA device the program exits 77
// (skipped).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/config.hpp"
#include "harness/device_info.hpp"
#include "harness/gpu_instance.cuh"
#include "harness/hardware.hpp"
#include "harness/results.hpp"
#include "harness/runner.hpp"
#include "harness/sampling.hpp"
#include "tests/studies/toy/problem.hpp"
#include "variants/covariance/problem.hpp"

namespace ladder {
namespace {

using toy::ToyProblem;

// A step of `launches` kernels each spinning `each_ms`, then (when `sync`) a stream
// synchronisation inside its enqueue(), as a step that reads a count back does. Its output is
// never written: configs running it turn validation off.
class Launches : public GpuInstance<float> {
 public:
  Launches(const ToyProblem& p, int launches, double each_ms, bool sync)
      : GpuInstance<float>(p.n(), {p.n()}), launches_(launches), each_ms_(each_ms), sync_(sync) {}

 protected:
  void enqueue(cudaStream_t stream) override {
    for (int i = 0; i < launches_; ++i) launch_planted_wait(stream, each_ms_);
    if (sync_) LADDER_CUDA(cudaStreamSynchronize(stream));
  }

 private:
  int launches_;
  double each_ms_;
  bool sync_;
};

VariantSpec launches_step(const std::string& name, int launches, double each_ms, bool sync) {
  VariantSpec v{.study = "toy", .name = name, .step = 9, .label = name,
                .change = "test only: kernels that spin", .backend = Backend::gpu};
  v.supports = [](const Problem&, const Params&, const DeviceCaps&) { return std::string(); };
  v.prepare = [=](const Problem& p, const Params&, const DeviceCaps&) -> std::unique_ptr<Instance> {
    return std::make_unique<Launches>(problem_as<ToyProblem>(p), launches, each_ms, sync);
  };
  return v;
}

const Registrar many{launches_step("test_launches", 300, 0.001, false)},
    syncs{launches_step("test_sync", 1, 0.01, true)},
    flood{launches_step("test_flood", 20000, 0, false)},
    // A second grid-stride step, so that rounds have two GPU steps to interleave. The original
    // is looked up when used: another file registers it, perhaps after this one.
    copy{[] {
      VariantSpec v{.study = "toy", .name = "test_grid_stride_copy", .step = 9, .label = "copy",
                    .change = "test only: grid_stride again", .backend = Backend::gpu};
      const auto original = [](const Params& params) {
        const VariantSpec* g = registry().variant("toy/grid_stride");
        return std::make_pair(g, resolve(*registry().study("toy"), g, params));
      };
      v.supports = [original](const Problem& p, const Params& params, const DeviceCaps& d) {
        const auto [g, q] = original(params);
        return g->supports(p, q, d);
      };
      v.prepare = [original](const Problem& p, const Params& params, const DeviceCaps& d) {
        const auto [g, q] = original(params);
        return g->prepare(p, q, d);
      };
      return v;
    }()};

RunReport run_toy(const std::string& fields, RunOptions opt) {
  const Config c = parse_config(nlohmann::json::parse(R"({"study": "toy",
      "data": {"generator": "uniform", "seed": 3}, )" + fields + "}"), ".");
  opt.quiet = true;
  return run_config(c, opt);
}

const RunRecord& run_of(const RunReport& rep, const std::string& variant) {
  for (const RunRecord& r : rep.runs)
    if (r.variant->name == variant) return r;
  throw std::logic_error("no run of " + variant);
}

// 64 Mi floats: about 0.8 GB moved a call, a kernel of a few hundred microseconds, long beside
// the planted kernel's own launch.
constexpr const char* kLarge = R"("axes": {"n": [67108864]}, "variants": ["grid_stride"],
    "repetitions": 21, "warmup": 3, "validation": "sample:1000")";

// A config's run of one step, plain and with `plant` (RE:FACTOR); both must pass (a planted wait
// comes after the step's output).
struct PlantedPair {
  RunReport plain, planted;
  const RunRecord& p() const { return plain.runs.at(0); }
  const RunRecord& q() const { return planted.runs.at(0); }
};
PlantedPair planted_pair(const std::string& fields, const std::string& plant) {
  PlantedPair pair{run_toy(fields, {}), {}};
  RunOptions opt;
  opt.plant = parse_plant(plant);
  pair.planted = run_toy(fields, opt);
  return pair;
}

TEST(Plant, AGpuStepsMedianRisesByTheFactor) {
  const PlantedPair pair = planted_pair(kLarge, "toy/grid_stride:1.5");
  const RunRecord &p = pair.p(), &q = pair.q();
  ASSERT_EQ(p.status, Status::passed) << p.reason;
  ASSERT_EQ(q.status, Status::passed) << q.reason;
  const double m0 = median_of(p.samples_ms), m1 = median_of(q.samples_ms);
  EXPECT_GT(m1 / m0, 1.3) << m1 << " ms planted, " << m0 << " ms not";
  EXPECT_LT(m1 / m0, 1.7) << m1 << " ms planted, " << m0 << " ms not";
  // The wait and its own cost make up half the warm-up median.
  EXPECT_GE(q.planted_cost_ms, 0);
  EXPECT_NEAR(q.planted_ms + q.planted_cost_ms, 0.5 * q.planted_of_ms, 1e-9);
  EXPECT_NEAR(q.planted_of_ms, m0, 0.1 * m0);  // the warm-up median: a sample like the others
  const auto t = results_json(pair.planted)["runs"][0]["timing"];
  EXPECT_EQ(t["planted"]["factor"], 1.5);
  EXPECT_EQ(t["planted"]["cost_ms"], q.planted_cost_ms);
}

// A step that synchronises inside its calls leaves the GPU idle until the host queues the
// planted kernel: that launch costs microseconds, a large share of a short step. The cost is
// measured and taken off the wait, so the median still rises by the factor, not by the factor
// and a launch.
TEST(Plant, AShortStepRisesByTheFactorAndNotByTheWaitsLaunchToo) {
  const std::string fields = R"("axes": {"n": [1000]}, "variants": ["test_sync"], "repetitions": 101,
      "warmup": 3, "validation": "off")";
  const PlantedPair pair = planted_pair(fields, "toy/test_sync:1.5");
  const RunRecord &p = pair.p(), &q = pair.q();
  ASSERT_EQ(p.status, Status::passed) << p.reason;
  ASSERT_EQ(q.status, Status::passed) << q.reason;
  const double m0 = median_of(p.samples_ms), m1 = median_of(q.samples_ms);
  EXPECT_GT(q.planted_cost_ms, 0);
  EXPECT_NEAR(q.planted_ms + q.planted_cost_ms, 0.5 * q.planted_of_ms, 1e-9);
  EXPECT_GT(m1 / m0, 1.35) << m1 << " ms planted, " << m0 << " ms not, cost " << q.planted_cost_ms << " ms";
  EXPECT_LT(m1 / m0, 1.65) << m1 << " ms planted, " << m0 << " ms not, cost " << q.planted_cost_ms << " ms";
}

TEST(BlockedStart, DeviceTimesAreRecordedBesideTheSamples) {
  RunOptions opt;
  opt.blocked_start = true;
  const RunReport rep = run_toy(R"("axes": {"n": [1000003]}, "repetitions": 10, "warmup": 1, "validation": "off",
      "variants": ["grid_stride", "test_launches", "test_sync", "test_flood"])", opt);
  const nlohmann::json j = results_json(rep);
  for (const char* name : {"grid_stride", "test_launches"}) {
    const RunRecord& r = run_of(rep, name);
    ASSERT_EQ(r.status, Status::passed) << name << ": " << r.reason;
    ASSERT_EQ(r.device_samples_ms.size(), r.samples_ms.size()) << name << ": " << r.device_skipped;
    for (double d : r.device_samples_ms) EXPECT_GT(d, 0) << name;  // no hold timed out (NaN fails too)
    const double device = median_of(r.device_samples_ms), ms = median_of(r.samples_ms);
    // The host's submission leaves the window: never longer (a few microseconds of jitter).
    EXPECT_LE(device, ms * 1.02 + 0.003) << name << ": device " << device << " ms, sample " << ms << " ms";
    std::printf("%s: median %.4f ms, device median %.4f ms\n", name, ms, device);
    const auto& t = j["runs"][r.run_index]["timing"];
    EXPECT_DOUBLE_EQ(t["device_median"].get<double>(), device);
    EXPECT_EQ(t["device_timeouts"], 0);
  }
  // Waiting for the device inside enqueue(), or queueing more than the queue holds: left out.
  for (const char* name : {"test_sync", "test_flood"}) {
    const RunRecord& r = run_of(rep, name);
    EXPECT_EQ(r.status, Status::passed) << name << ": " << r.reason;
    EXPECT_EQ(r.samples_ms.size(), 10u) << name;
    EXPECT_TRUE(r.device_samples_ms.empty()) << name;
    EXPECT_NE(r.device_skipped.find("waits for the device"), std::string::npos) << name << ": " << r.device_skipped;
  }
}

TEST(Rounds, EveryOutputStillValidatesAndEverySampleHasItsRound) {
  RunOptions opt;
  opt.rounds = 3;
  opt.blocked_start = true;
  opt.process_samples = true;
  const RunReport rep = run_toy(R"("axes": {"n": [1031, 1000003]}, "repetitions": 4, "warmup": 0,
      "validation": "full", "variants": ["seq", "grid_stride", "test_grid_stride_copy"])", opt);
  ASSERT_EQ(rep.runs.size(), 6u);
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    const RunRecord& r = rep.runs[i];
    EXPECT_EQ(r.run_index, i);
    EXPECT_EQ(r.status, Status::passed) << r.variant->id() << " " << r.point << ": " << r.reason;
    if (r.variant->backend == Backend::cpu) {
      EXPECT_EQ(r.samples_ms.size(), 4u);
      EXPECT_TRUE(r.sample_rounds.empty());
      continue;
    }
    EXPECT_EQ(r.samples_rule, "process");
    EXPECT_GE(r.samples_ms.size(), 20u);
    EXPECT_LE(r.samples_ms.size(), 100u);
    EXPECT_EQ(int(r.samples_ms.size()), r.repetitions_planned);
    ASSERT_EQ(r.sample_rounds.size(), r.samples_ms.size());
    EXPECT_TRUE(std::is_sorted(r.sample_rounds.begin(), r.sample_rounds.end()));
    EXPECT_EQ(r.sample_rounds.front(), 0);
    EXPECT_EQ(r.sample_rounds.back(), 2);
    EXPECT_EQ(r.device_samples_ms.size(), r.samples_ms.size());
    EXPECT_EQ(r.round_positions.size(), 3u);
  }
}

// The bandwidths the limits' memory bounds take (harness/hardware.hpp), as this device gives
// them: DRAM from its memory clock and bus, its L2, and the host link from NVML's PCIe
// generation and width (unknown, and said, on a GPU attached otherwise). Every covariance GPU
// step's limit at the paper shape is then the least of two known bounds.
TEST(Limits, TheDeviceGivesItsBandwidthsAndEveryCovarianceLimitHasTwoBounds) {
  const DeviceReport d = probe_device(0);
  EXPECT_GT(d.caps.memory_bytes_per_s, 1e11);
  EXPECT_GT(d.caps.l2_bytes, 0u);
  const nlohmann::json j = device_json(d, -1, -1);
  if (d.caps.host_bytes_per_s > 0) {
    EXPECT_EQ(d.host_link.rfind("PCIe ", 0), 0u) << d.host_link;
    EXPECT_GE(d.caps.host_bytes_per_s, pcie_bytes_per_s(1, 1)) << d.host_link;
    EXPECT_DOUBLE_EQ(j["host_link_gbps"].get<double>(), d.caps.host_bytes_per_s / 1e9);
    std::printf("host link: %s, %.2f GB/s\n", d.host_link.c_str(), d.caps.host_bytes_per_s / 1e9);
  } else {
    EXPECT_TRUE(j["host_link"].is_null());
    std::printf("host link unknown on %s\n", d.name.c_str());
  }
  covariance::CovProblem p;  // work() needs the shape only
  p.m = 202599, p.n = 2475;
  const Study& study = *registry().study("covariance");
  for (const VariantSpec* v : registry().variants("covariance")) {
    if (v->backend != Backend::gpu) continue;
    const Work w = study.work(p, *v, d.caps);
    if (!w.compute.known()) continue;  // no row or rate for this device: the CPU tests' case
    ASSERT_TRUE(w.memory.known()) << v->id() << ": " << w.memory.reason;
    EXPECT_EQ(w.peak, std::min(w.compute.peak, w.memory.peak)) << v->id();
    EXPECT_EQ(w.binds, w.memory.peak < w.compute.peak ? "memory" : "compute") << v->id();
    std::printf("%s: %s\n", v->id().c_str(), w.peak_rule.c_str());
  }
}

}  // namespace
}  // namespace ladder
