// The shipped configs: every configs/**/*.json loads, and every study's smoke config runs its
// CPU steps to a pass (the GPU steps are covered by test_gpu_steps and by scripts/gpu_check.sh).
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/config.hpp"
#include "harness/runner.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
const fs::path kConfigs = fs::path(LADDER_SOURCE_DIR) / "configs";

TEST(Configs, EveryConfigLoads) {
  std::size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(load_config(entry.path().string())) << entry.path();
    ++count;
  }
  EXPECT_GE(count, 2u * registry().studies().size());
}

class SmokeConfig : public testing::TestWithParam<std::string> {};

TEST_P(SmokeConfig, CpuStepsPass) {
  const fs::path path = kConfigs / GetParam() / "smoke.json";
  ASSERT_TRUE(fs::exists(path)) << "every study needs a smoke config: " << path;
  RunOptions opt;
  opt.quiet = true;
  for (const VariantSpec* v : registry().variants(GetParam()))
    if (v->backend == Backend::cpu) opt.filter += (opt.filter.empty() ? "^(" : "|") + v->id();
  opt.filter += ")$";
  const RunReport rep = run_config(load_config(path.string()), opt);
  ASSERT_FALSE(rep.runs.empty());
  for (const RunRecord& r : rep.runs)
    EXPECT_TRUE(r.status == Status::passed || r.status == Status::unsupported)
        << r.variant->id() << " " << r.point << ": " << to_string(r.status) << " " << r.reason;
}

std::vector<std::string> study_names() {
  std::vector<std::string> out;
  for (const auto& s : registry().studies()) out.push_back(s->name());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Studies, SmokeConfig, testing::ValuesIn(study_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ladder
