// The runner's sampling options for comparisons across processes (harness/sampling.hpp): the
// sample count of --process-samples, the rounds of --rounds (each point's steps interleaved in
// a reproducible order, results still in plan order, one round the same as none) and the
// planted wait of --plant on a CPU step. GPU steps run here as `replay` runs them where no GPU
// is: test-only variants of backend gpu whose calls are host code.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "datagen/base/errors.hpp"
#include "harness/config.hpp"
#include "harness/host_instance.hpp"
#include "harness/results.hpp"
#include "harness/runner.hpp"
#include "harness/sampling.hpp"
#include "harness/step.hpp"

namespace ladder {
namespace {

// --- the arithmetic -------------------------------------------------------------------------

TEST(Sampling, ProcessSampleCountFillsFiveMillisecondsBetweenTwentyAndAHundred) {
  EXPECT_EQ(process_sample_count(5, 1.0), 20);      // 5 ms is 5 calls: at least 20
  EXPECT_EQ(process_sample_count(5, 0.25), 20);     // exactly 20
  EXPECT_EQ(process_sample_count(5, 0.125), 40);    // 5 ms of 0.125 ms
  EXPECT_EQ(process_sample_count(5, 0.0625), 80);
  EXPECT_EQ(process_sample_count(5, 0.06), 84);     // 83.3 rounded up
  EXPECT_EQ(process_sample_count(5, 0.01), 100);    // at most 100
  EXPECT_EQ(process_sample_count(150, 0.01), 150);  // the config's count at least
  EXPECT_EQ(process_sample_count(30, 2.0), 30);
  EXPECT_EQ(process_sample_count(3, 0.0), 100);     // a call too short to measure: the most
}

TEST(Sampling, RoundSharesAreEqualAndTheLastTakesTheRest) {
  EXPECT_EQ(round_share(20, 3, 0), 6);
  EXPECT_EQ(round_share(20, 3, 1), 6);
  EXPECT_EQ(round_share(20, 3, 2), 8);
  EXPECT_EQ(round_share(7, 1, 0), 7);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(round_share(2, 5, r), 0);
  EXPECT_EQ(round_share(2, 5, 4), 2);
  for (int total : {1, 5, 20, 99})
    for (int rounds : {1, 2, 3, 7}) {
      int sum = 0;
      for (int r = 0; r < rounds; ++r) sum += round_share(total, rounds, r);
      EXPECT_EQ(sum, total) << total << " in " << rounds;
    }
}

TEST(Sampling, RoundOrdersArePermutationsFixedBySeedAndRound) {
  std::vector<std::size_t> all(6);
  std::iota(all.begin(), all.end(), 0);
  std::set<std::vector<std::size_t>> seen;
  for (int round = 0; round < 8; ++round) {
    std::vector<std::size_t> order = round_order(6, 42, round);
    EXPECT_EQ(order, round_order(6, 42, round));  // the same every time
    seen.insert(order);
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, all);  // every step once a round
  }
  EXPECT_GT(seen.size(), 4u);  // rounds differ (8 draws of 720 orders)
  EXPECT_NE(round_order(6, 42, 0), round_order(6, 43, 0));
  // Drawn by the harness's own generator and shuffle (splitmix64, Fisher-Yates; the value
  // worked out apart from the harness): the same on every build and library.
  EXPECT_EQ(round_order(6, 42, 0), (std::vector<std::size_t>{2, 0, 4, 1, 3, 5}));
  EXPECT_TRUE(round_order(0, 1, 0).empty());
  EXPECT_EQ(round_order(1, 1, 3), std::vector<std::size_t>{0});
  EXPECT_EQ(round_seed(""), 1469598103934665603ull);  // stable_hash of nothing: its starting value
  EXPECT_EQ(round_seed("n=9"), round_seed("n=9"));
  EXPECT_NE(round_seed("n=9"), round_seed("n=10"));
}

TEST(Sampling, PlantIsReadAsRegexAndFactor) {
  const Plant p = parse_plant("dtw/(?:shared|seq_tworow):1.5");
  EXPECT_EQ(p.pattern, "dtw/(?:shared|seq_tworow)");  // split at the last ':'
  EXPECT_DOUBLE_EQ(p.factor, 1.5);
  EXPECT_TRUE(p.matches("dtw/shared"));
  EXPECT_FALSE(p.matches("twed/batch"));
  EXPECT_DOUBLE_EQ(parse_plant("x:10").factor, 10);
  for (const char* bad : {"dtw/shared", ":1.5", "x:", "x:1", "x:0.5", "x:10.5", "x:-2", "x:two", "x:nan",
                          "(dtw:1.5", "x:1.5 "})
    EXPECT_THROW(parse_plant(bad), InputError) << bad;
  EXPECT_THROW(parse_plant(std::string(300, 'a') + ":2"), InputError);
}

// --- the runner -----------------------------------------------------------------------------

// Each call of a logged step, by variant name, in the order made.
std::vector<std::string> calls;
double fixed_ms = 1;

// seq_tworow's output (so validation passes) at a fixed time, each call logged.
class Logged : public Instance {
 public:
  Logged(std::string name, std::unique_ptr<Instance> inner) : name_(std::move(name)), inner_(std::move(inner)) {}
  void poison() override { inner_->poison(); }
  double run_ms() override {
    inner_->run_ms();
    calls.push_back(name_);
    return fixed_ms;
  }
  Output fetch() override { return inner_->fetch(); }

 private:
  std::string name_;
  std::unique_ptr<Instance> inner_;
};

VariantSpec logged(const std::string& name, Backend backend) {
  VariantSpec v{.study = "dtw", .name = name, .step = 0, .label = name,
                .change = "test only: seq_tworow, logged", .backend = backend};
  v.supports = [](const Problem&, const Params&, const DeviceCaps&) { return std::string(); };
  v.prepare = [name](const Problem& p, const Params& params, const DeviceCaps& caps) -> std::unique_ptr<Instance> {
    return std::make_unique<Logged>(name, registry().variant("dtw/seq_tworow")->prepare(p, params, caps));
  };
  return v;
}

const Registrar a{logged("test_gpu_a", Backend::gpu)}, b{logged("test_gpu_b", Backend::gpu)},
    c{logged("test_gpu_c", Backend::gpu)}, host{logged("test_cpu_logged", Backend::cpu)};

RunReport run(const std::string& extra, RunOptions opt) {
  const Config config = parse_config(nlohmann::json::parse(R"({"study": "dtw",
      "data": {"generator": "cbf"}, "axes": {"n": [9], "entries": [5, 6]},
      "variants": ["test_gpu_a", "test_cpu_logged", "test_gpu_b", "test_gpu_c"],
      "repetitions": 6, "warmup": 0)" + extra + "}"), ".");
  opt.quiet = true;
  opt.replay = true;  // the gpu-backend test steps run where no GPU is
  calls.clear();
  return run_config(config, opt);
}

// The calls a point's runs make under `rounds`, `per_round` (a warm-up and the samples) per
// GPU step a round: the CPU step first, unsplit, then the GPU steps in each round's order.
std::vector<std::string> expected_calls(const std::string& point, int rounds, int cpu_calls, int per_round) {
  const std::vector<std::string> gpu = {"test_gpu_a", "test_gpu_b", "test_gpu_c"};
  std::vector<std::string> out(cpu_calls, "test_cpu_logged");
  for (int round = 0; round < rounds; ++round)
    for (std::size_t k : round_order(gpu.size(), round_seed(point), round))
      out.insert(out.end(), per_round, gpu[k]);
  return out;
}

TEST(Rounds, OneRoundIsTodaysPlanOrderAndRecordsNothingNew) {
  const RunReport rep = run("", {});
  ASSERT_EQ(rep.runs.size(), 8u);
  std::vector<std::string> want;
  for (int point = 0; point < 2; ++point)
    for (const char* v : {"test_gpu_a", "test_cpu_logged", "test_gpu_b", "test_gpu_c"}) want.insert(want.end(), 6, v);
  EXPECT_EQ(calls, want);  // no warm-up (the config's 0), six samples each, one run after the other
  const nlohmann::json j = results_json(rep);
  const std::set<std::string> today = {"unit", "mode", "warmup", "samples", "median", "min", "max", "mean",
                                       "stddev", "cv"};
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    EXPECT_EQ(rep.runs[i].run_index, i);
    EXPECT_EQ(rep.runs[i].status, Status::passed) << rep.runs[i].reason;
    std::set<std::string> keys;
    for (const auto& [k, v] : j["runs"][i]["timing"].items()) keys.insert(k);
    EXPECT_EQ(keys, today);
  }
}

TEST(Rounds, APointsGpuStepsInterleaveRoundByRoundInTheirDrawnOrder) {
  RunOptions opt;
  opt.rounds = 3;
  const RunReport rep = run("", opt);
  ASSERT_EQ(rep.runs.size(), 8u);
  std::vector<std::string> want;
  for (int point = 0; point < 2; ++point) {
    // A warm-up call and two samples a round for each GPU step; the CPU step's six samples.
    const std::vector<std::string> one = expected_calls(rep.runs[4 * point].point, 3, 6, 3);
    want.insert(want.end(), one.begin(), one.end());
  }
  EXPECT_EQ(calls, want);
  const nlohmann::json j = results_json(rep);
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    const RunRecord& r = rep.runs[i];
    EXPECT_EQ(r.run_index, i);  // recorded in plan order
    EXPECT_EQ(r.status, Status::passed) << r.reason;
    EXPECT_EQ(r.samples_ms.size(), 6u);
    const nlohmann::json& t = j["runs"][i]["timing"];
    if (r.variant->backend == Backend::cpu) {  // not split
      EXPECT_TRUE(r.sample_rounds.empty());
      EXPECT_FALSE(t.contains("rounds"));
      EXPECT_EQ(r.warmup, 0);
      continue;
    }
    EXPECT_EQ(r.sample_rounds, (std::vector<int>{0, 0, 1, 1, 2, 2}));
    EXPECT_EQ(r.warmup, 1);  // each round begins with one
    EXPECT_EQ(t["rounds"], 3);
    EXPECT_EQ(t["sample_rounds"], nlohmann::json(r.sample_rounds));
    EXPECT_EQ(t["round_seed"], fmt::format("{:016x}", round_seed(r.point)));
    ASSERT_EQ(r.round_positions.size(), 3u);
    const std::size_t k = r.variant->name == "test_gpu_a" ? 0 : r.variant->name == "test_gpu_b" ? 1 : 2;
    for (int round = 0; round < 3; ++round)
      EXPECT_EQ(round_order(3, round_seed(r.point), round)[std::size_t(r.round_positions[round])], k);
    EXPECT_GE(r.wall_s, 0);
  }
}

TEST(Rounds, ProcessSamplesRaiseGpuRunsOnlyAndSplitOverRounds) {
  fixed_ms = 0.125;  // 5 ms of samples: 40
  RunOptions opt;
  opt.process_samples = true;
  opt.rounds = 3;
  const RunReport rep = run("", opt);
  fixed_ms = 1;
  const nlohmann::json j = results_json(rep);
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    const RunRecord& r = rep.runs[i];
    const nlohmann::json& t = j["runs"][i]["timing"];
    if (r.variant->backend == Backend::cpu) {
      EXPECT_EQ(r.samples_ms.size(), 6u);  // the config's count
      EXPECT_FALSE(t.contains("samples_rule"));
      continue;
    }
    EXPECT_EQ(r.samples_ms.size(), 40u);
    EXPECT_EQ(t["samples_rule"], "process");
    EXPECT_EQ(t["repetitions_planned"], 40);
    EXPECT_EQ(std::count(r.sample_rounds.begin(), r.sample_rounds.end(), 0), 13);
    EXPECT_EQ(std::count(r.sample_rounds.begin(), r.sample_rounds.end(), 2), 14);
  }
}

// A CPU step whose own work is a 2 ms busy wait, so the planted wait is the only change.
const Registrar busy{[] {
  VariantSpec v{.study = "dtw", .name = "test_busy", .step = 0, .label = "busy",
                .change = "test only: 2 ms of busy waiting", .backend = Backend::cpu};
  v.supports = [](const Problem&, const Params&, const DeviceCaps&) { return std::string(); };
  v.prepare = [](const Problem&, const Params&, const DeviceCaps&) -> std::unique_ptr<Instance> {
    return std::make_unique<HostInstance<float>>(1, std::vector<std::size_t>{1}, [](float* out) {
      busy_wait_ms(2);
      out[0] = 0;
    });
  };
  return v;
}()};

// The step's own time is a fixed 2 ms: a call is never shorter, and longer only when the
// machine takes the core away. The planted wait is half the warm-up median, so 1 ms on a quiet
// machine; on a busy one the median (a wall time) grows, and so does the wait.
TEST(Plant, ACpuStepsSamplesGrowByTheFactor) {
  const auto busy_run = [](const char* plant) {
    const Config config = parse_config(nlohmann::json::parse(R"({"study": "dtw",
        "data": {"generator": "cbf"}, "params": {"n": 9, "entries": 5},
        "variants": ["test_busy", "test_gpu_a"], "repetitions": 15, "warmup": 5, "validation": "off"})"), ".");
    RunOptions opt;
    opt.quiet = true;
    opt.replay = true;
    if (plant) opt.plant = parse_plant(plant);
    return run_config(config, opt);
  };
  const auto fastest = [](const RunRecord& r) { return *std::min_element(r.samples_ms.begin(), r.samples_ms.end()); };
  const RunReport plain = busy_run(nullptr);
  RunReport planted;
  // A machine busy enough to delay all fifteen samples may fail the upper bound: three tries.
  for (int attempt = 0; attempt < 3; ++attempt) {
    planted = busy_run("busy|gpu_a:1.5");
    const RunRecord& q = planted.runs.at(0);
    ASSERT_EQ(q.status, Status::passed) << q.reason;
    // (1.5 - 1) x the warm-up median, a median of calls of 2 ms or more.
    EXPECT_DOUBLE_EQ(q.planted_ms, 0.5 * q.planted_of_ms);
    EXPECT_GE(q.planted_of_ms, 2.0);
    // Inside the timed window: every sample holds the step and the whole wait, and the fastest
    // one not a second wait (the machine's delays grow the wait with the warm-up median, so
    // this bound grows with them).
    EXPECT_GE(fastest(q), 2.0 + q.planted_ms);
    if (fastest(q) < 2.0 + 2 * q.planted_ms) break;
    EXPECT_LT(attempt, 2) << "fastest planted sample " << fastest(q) << " ms, planted " << q.planted_ms << " ms";
  }
  const RunRecord& q = planted.runs.at(0);
  const nlohmann::json t = results_json(planted)["runs"][0]["timing"];
  EXPECT_EQ(t["planted"]["factor"], 1.5);
  EXPECT_DOUBLE_EQ(t["planted"]["ms"].get<double>(), q.planted_ms);
  EXPECT_DOUBLE_EQ(t["planted"]["warmup_median_ms"].get<double>(), q.planted_of_ms);
  EXPECT_EQ(q.warmup, 5);
  EXPECT_FALSE(results_json(plain)["runs"][0]["timing"].contains("planted"));
  // A step whose calls cannot take a wait fails loudly rather than running unplanted.
  EXPECT_EQ(planted.runs.at(1).status, Status::error);
  EXPECT_NE(planted.runs.at(1).reason.find("--plant"), std::string::npos) << planted.runs.at(1).reason;
  EXPECT_EQ(plain.runs.at(1).status, Status::passed) << plain.runs.at(1).reason;
}

// The plant's median is of three warm-up calls at least, whatever the config asks for.
TEST(Plant, TakesThreeWarmupCallsAtLeast) {
  const Config config = parse_config(nlohmann::json::parse(R"({"study": "dtw",
      "data": {"generator": "cbf"}, "params": {"n": 9, "entries": 5},
      "variants": ["test_busy"], "repetitions": 2, "warmup": 0, "validation": "off"})"), ".");
  RunOptions opt;
  opt.quiet = true;
  opt.plant = parse_plant("busy:2");
  const RunRecord r = run_config(config, opt).runs.at(0);
  EXPECT_EQ(r.warmup, 3);
  EXPECT_EQ(r.samples_ms.size(), 2u);
  EXPECT_GE(r.planted_ms, 2.0);
}

TEST(Rounds, BadCountsAreRefusedBeforeAnythingRuns) {
  RunOptions opt;
  opt.rounds = 0;
  EXPECT_THROW(run("", opt), InputError);
  EXPECT_TRUE(calls.empty());
  opt.rounds = 2;
  opt.profile = true;
  EXPECT_THROW(run("", opt), InputError);
}

// A step that cannot be held (no CUDA stream of its own) still takes its samples, and says why
// it has no device times.
TEST(BlockedStart, AStepNotTimedOnAStreamSaysWhy) {
  RunOptions opt;
  opt.blocked_start = true;
  const RunReport rep = run("", opt);
  const nlohmann::json j = results_json(rep);
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    const RunRecord& r = rep.runs[i];
    EXPECT_EQ(r.status, Status::passed) << r.reason;
    EXPECT_EQ(r.samples_ms.size(), 6u);
    EXPECT_TRUE(r.device_samples_ms.empty());
    if (r.variant->backend == Backend::gpu)
      EXPECT_NE(j["runs"][i]["timing"].value("device_skipped", ""), "");
    else
      EXPECT_FALSE(j["runs"][i]["timing"].contains("device_skipped"));
  }
}

}  // namespace
}  // namespace ladder
