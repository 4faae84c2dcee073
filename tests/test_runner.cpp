// The runner's contract for a run that goes wrong: whatever a step throws becomes that run's
// `error` with the reason, the runs after it still run, and the report is handed out after
// every run (the CLI writes the results file then). Uses a deliberately failing CPU step
// registered only in this test program.
#include <gtest/gtest.h>

#include "datagen/base/errors.hpp"
#include "harness/config.hpp"
#include "harness/plan.hpp"
#include "harness/results.hpp"
#include "harness/runner.hpp"
#include "harness/step.hpp"

namespace ladder {
namespace {

struct Boom : std::exception {
  const char* what() const noexcept override { return "boom: not a CUDA error"; }
};

const Registrar throws{[] {
  VariantSpec v{.study = "dtw", .name = "test_throws", .step = 0, .label = "throws",
                .change = "test only: every run throws", .backend = Backend::cpu};
  v.supports = [](const Problem&, const Params&, const DeviceCaps&) { return std::string(); };
  v.prepare = [](const Problem&, const Params&, const DeviceCaps&) -> std::unique_ptr<Instance> {
    throw Boom();
  };
  return v;
}()};

// seq_tworow's runs, but each call reports fixed_ms: the time budget's arithmetic is then
// exact, whatever the machine.
double fixed_ms = 1;

class FixedTime : public Instance {
 public:
  explicit FixedTime(std::unique_ptr<Instance> inner) : inner_(std::move(inner)) {}
  void poison() override { inner_->poison(); }
  double run_ms() override {
    inner_->run_ms();
    ++calls;
    return fixed_ms;
  }
  Output fetch() override { return inner_->fetch(); }
  static inline int calls = 0;

 private:
  std::unique_ptr<Instance> inner_;
};

const Registrar fixed_time{[] {
  VariantSpec v{.study = "dtw", .name = "test_fixed_time", .step = 0, .label = "fixed time",
                .change = "test only: seq_tworow reporting a fixed time", .backend = Backend::cpu};
  v.supports = [](const Problem&, const Params&, const DeviceCaps&) { return std::string(); };
  v.prepare = [](const Problem& p, const Params& params,
                 const DeviceCaps& caps) -> std::unique_ptr<Instance> {
    return std::make_unique<FixedTime>(registry().variant("dtw/seq_tworow")->prepare(p, params, caps));
  };
  return v;
}()};

TEST(Runner, ATimeBudgetCutsRepetitionsToWhatFits) {
  const auto run = [](double ms, const char* budget) {
    fixed_ms = ms;
    FixedTime::calls = 0;
    const Config c = parse_config(nlohmann::json::parse(std::string(R"({"study": "dtw",
        "data": {"generator": "cbf"}, "axes": {"n": [9], "entries": [5]},
        "variants": ["test_fixed_time"], "repetitions": 5, "warmup": 2, "time_budget_s": )") +
        budget + "}"), ".");
    RunOptions opt;
    opt.quiet = true;
    return run_config(c, opt);
  };
  // 10 ms in 1 s: every repetition fits; the first call is one of the two warm-ups.
  RunRecord r = run(10, "1").runs.at(0);
  EXPECT_EQ(r.samples_ms.size(), 5u);
  EXPECT_EQ(r.warmup, 2);
  EXPECT_EQ(FixedTime::calls, 7);
  // 300 ms in 1 s: two more calls fit after the first.
  r = run(300, "1").runs.at(0);
  EXPECT_EQ(r.samples_ms.size(), 2u);
  EXPECT_EQ(FixedTime::calls, 4);
  // 600 ms in 1 s: none fits after it, so the first call is the only sample.
  const RunReport cut = run(600, "1");
  r = cut.runs.at(0);
  EXPECT_EQ(r.samples_ms, std::vector<double>{600});
  EXPECT_EQ(r.warmup, 0);
  EXPECT_EQ(FixedTime::calls, 1);
  EXPECT_EQ(r.status, Status::passed) << r.reason;
  const auto timing = results_json(cut)["runs"][0]["timing"];
  EXPECT_EQ(timing["time_budget_s"], 1.0);
  EXPECT_EQ(timing["repetitions_planned"], 5);
  EXPECT_EQ(timing["warmup"], 0);
  // No budget: the count asked for.
  r = run(600, "0").runs.at(0);
  EXPECT_EQ(r.samples_ms.size(), 5u);
  EXPECT_EQ(FixedTime::calls, 7);
  EXPECT_EQ(r.repetitions_planned, 5);
}

// The same as a GPU step, for --profile, which runs GPU steps only (with `replay`, a GPU step
// runs where no GPU is).
const Registrar fixed_time_gpu{[] {
  VariantSpec v = *registry().variant("dtw/test_fixed_time");
  v.name = "test_fixed_time_gpu";
  v.backend = Backend::gpu;
  return v;
}()};

TEST(Runner, AProfiledRunIsValidatedButNeverTimed) {
  fixed_ms = 5;
  FixedTime::calls = 0;
  const Config c = parse_config(nlohmann::json::parse(R"({"study": "dtw",
      "data": {"generator": "cbf"}, "axes": {"n": [9], "entries": [5]},
      "variants": ["test_fixed_time_gpu", "test_fixed_time"], "repetitions": 4, "warmup": 2})"), ".");
  RunOptions opt;
  opt.quiet = true;
  opt.profile = true;
  opt.replay = true;
  const RunReport rep = run_config(c, opt);
  const RunRecord& r = rep.runs.at(0);
  EXPECT_EQ(r.status, Status::passed) << r.reason;
  EXPECT_TRUE(r.samples_ms.empty());   // the profiled call's time is the profiler's
  EXPECT_EQ(FixedTime::calls, 3);      // two warm-ups, then the profiled call; the CPU step none
  EXPECT_TRUE(results_json(rep)["runs"][0]["timing"].is_null());
  EXPECT_EQ(nvtx_name(*r.variant), "dtw.test_fixed_time_gpu");
  EXPECT_EQ(rep.runs.at(1).status, Status::skipped);  // no profiler reads a CPU step's range
  EXPECT_EQ(rep.runs.at(1).reason, "--profile runs the GPU steps only");
}

TEST(Runner, AFailingRunIsRecordedAndTheOthersGoOn) {
  const Config c = parse_config(nlohmann::json::parse(R"({"study": "dtw",
      "data": {"generator": "cbf"}, "axes": {"n": [9], "entries": [5, 6]},
      "variants": ["test_throws", "seq_tworow"], "repetitions": 2, "warmup": 0})"), ".");
  RunOptions opt;
  opt.quiet = true;
  std::vector<std::size_t> seen;
  opt.on_run = [&](const RunReport& partial) { seen.push_back(partial.runs.size()); };
  const RunReport rep = run_config(c, opt);
  ASSERT_EQ(rep.runs.size(), 4u);
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 3, 4}));
  EXPECT_EQ(rep.planned, 4u);
  for (const RunRecord& r : rep.runs) {
    if (r.variant->name == "test_throws") {
      EXPECT_EQ(r.status, Status::error);
      EXPECT_EQ(r.reason, "boom: not a CUDA error");
      EXPECT_TRUE(r.samples_ms.empty());
    } else {
      EXPECT_EQ(r.status, Status::passed) << r.reason;
      EXPECT_EQ(r.samples_ms.size(), 2u);
      EXPECT_GT(r.stats.mean, 0);
    }
  }
  EXPECT_FALSE(rep.all_ok());
  const auto j = results_json(rep);
  EXPECT_EQ(j["runs"].size(), 4u);
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_EQ(j["runs"][1]["timing"]["mode"], "hot");
  EXPECT_EQ(j["runs"][1]["role"], "step");
  EXPECT_EQ(j["runs"][1]["metric"], "gcups");
}

TEST(Runner, ResolveFillsEveryDefaultAndKeepsGivenValues) {
  const Study& dtw = *registry().study("dtw");
  const VariantSpec& shared = *registry().variant("dtw/shared");
  Params given;
  given.set("n", "7");
  given.set("block_size", "64");
  const Params p = resolve(dtw, &shared, given);
  EXPECT_EQ(p.text("n"), "7");
  EXPECT_EQ(p.text("block_size"), "64");
  EXPECT_EQ(p.text("seed"), "42");
  EXPECT_EQ(p.text("noise"), "uniform");
  EXPECT_FALSE(p.has("band"));  // no default: unconstrained
  EXPECT_FALSE(resolve(dtw, nullptr, Params{}).has("block_size"));
}

// --runs: ranges in any order, overlapping or repeated, select each run once, in plan order; an
// index beyond the plan is refused at once, whatever the range's length.
TEST(Plan, KeepRunsSelectsByRangesWithoutWalkingThem) {
  std::vector<PlannedRun> plan(10);
  for (std::size_t i = 0; i < plan.size(); ++i) plan[i].index = i;
  const auto kept = [&](const std::vector<RunRange>& wanted) {
    std::vector<std::size_t> out;
    for (const PlannedRun& r : keep_runs(plan, wanted)) out.push_back(r.index);
    return out;
  };
  EXPECT_EQ(kept({{7, 7}, {0, 1}, {1, 1}}), (std::vector<std::size_t>{0, 1, 7}));
  EXPECT_EQ(kept({{2, 8}, {3, 4}, {9, 9}}), (std::vector<std::size_t>{2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(kept({{0, 9}}).size(), 10u);
  try {
    keep_runs(plan, {{3, 3}, {0, 999999999}});
    ADD_FAILURE() << "a range beyond the plan was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("runs 0 to 9, not 999999999"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ladder
