// Parameters, sweep expansion and config checking.
#include <gtest/gtest.h>

#include "harness/config.hpp"
#include "datagen/base/errors.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

TEST(Params, TypedGettersCheckValues) {
  Params p;
  p.set("n", "128");
  p.set("x", "0.5");
  p.set("bad", "12abc");
  EXPECT_EQ(p.integer("n"), 128);
  EXPECT_DOUBLE_EQ(p.real("x"), 0.5);
  EXPECT_THROW(p.integer("bad"), InputError);
  EXPECT_THROW(p.integer("x"), InputError);
  EXPECT_THROW(p.text("missing"), InputError);
  EXPECT_EQ(p.key(), "bad=12abc,n=128,x=0.5");
  EXPECT_EQ(p.key({"x", "n"}), "x=0.5,n=128");
}

TEST(Params, CheckParamRangesAndChoices) {
  ParamSpec n{"n", "", "", ParamSpec::Kind::integer, 1, 100};
  EXPECT_NO_THROW(check_param(n, "1"));
  EXPECT_NO_THROW(check_param(n, "100"));
  EXPECT_THROW(check_param(n, "0"), InputError);
  EXPECT_THROW(check_param(n, "101"), InputError);
  EXPECT_THROW(check_param(n, "2.5"), InputError);
  ParamSpec t{"noise", "a", "", ParamSpec::Kind::text, 0, 0, {"a", "b"}};
  EXPECT_NO_THROW(check_param(t, "b"));
  EXPECT_THROW(check_param(t, "c"), InputError);
}

TEST(Axes, ProductMultipliesZipPairs) {
  Params fixed;
  fixed.set("seed", "1");
  auto pts = expand_axes(json{{"n", {1, 2, 3}}, {"entries", {10, 20}}},
                         json{{"a", {"x", "y"}}, {"b", {5, 6}}}, fixed);
  ASSERT_EQ(pts.size(), 3u * 2u * 2u);
  for (const auto& p : pts) {
    EXPECT_EQ(p.text("seed"), "1");
    // zipped values stay paired
    EXPECT_EQ(p.text("a") == "x", p.text("b") == "5");
  }
  EXPECT_EQ(expand_axes(json(), json(), fixed).size(), 1u);
}

TEST(Axes, RejectsBadShapes) {
  EXPECT_THROW(expand_axes(json{{"n", json::array()}}, json(), {}), InputError);
  EXPECT_THROW(expand_axes(json{{"n", 5}}, json(), {}), InputError);
  EXPECT_THROW(expand_axes(json(), json{{"a", {1, 2}}, {"b", {1}}}, {}), InputError);
  EXPECT_THROW(expand_axes(json{{"n", {json::array({1})}}}, json(), {}), InputError);
}

TEST(Axes, NumbersBecomeExactText) {
  EXPECT_EQ(json_to_param("n", json(4099)), "4099");
  EXPECT_EQ(json_to_param("x", json(0.1)), "0.10000000000000001");
  EXPECT_EQ(json_to_param("s", json("gaussian")), "gaussian");
  EXPECT_THROW(json_to_param("o", json::object()), InputError);
}

json good_config() {
  return json::parse(R"({"study": "dtw", "data": {"generator": "cbf", "seed": 3},
    "axes": {"n": [31, 33], "entries": [7]}, "params": {"block_size": 64},
    "variants": ["seq_*", "dtw/shared"], "repetitions": 4, "warmup": 0,
    "validation": "sample:5"})");
}

TEST(Config, ParsesAndSelects) {
  Config c = parse_config(good_config(), ".");
  EXPECT_EQ(c.study->name(), "dtw");
  EXPECT_EQ(c.name, "dtw");
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[0].params.text("block_size"), "64");
  EXPECT_EQ(c.points[1].params.text("seed"), "3");
  const auto& vs = c.points[0].variants;
  ASSERT_EQ(vs.size(), 3u);
  EXPECT_EQ(vs[0]->id(), "dtw/seq_full");
  EXPECT_EQ(vs[2]->id(), "dtw/shared");
  EXPECT_EQ(c.repetitions[Backend::cpu], 4);
  EXPECT_EQ(c.warmup[Backend::gpu], 0);
  EXPECT_EQ(c.validation.mode, Validation::Mode::sample);
  EXPECT_EQ(c.validation.sample, 5u);
}

// Variant patterns: stars anywhere, several of them, and a pattern of many stars that a
// backtracking match would take exponential time on (a fuzzing find).
TEST(Config, VariantPatterns) {
  auto ids = [](const char* pattern) {
    json j = good_config();
    j["params"].erase("block_size");
    j["variants"] = json::array({pattern});
    const Config c = parse_config(j, ".");
    std::vector<std::string> out;
    for (const VariantSpec* v : c.points[0].variants) out.push_back(v->id());
    return out;
  };
  EXPECT_EQ(ids("s*_f*ll"), std::vector<std::string>{"dtw/seq_full"});
  EXPECT_EQ(ids("*seq_full"), std::vector<std::string>{"dtw/seq_full"});
  EXPECT_EQ(ids("**s**eq**_**full**"), std::vector<std::string>{"dtw/seq_full"});
  EXPECT_EQ(ids("dtw/*").size(), registry().variants("dtw").size());
  const std::string many = "seq" + std::string(200, '*') + "_fulx";
  json j = good_config();
  j["variants"] = json::array({many});
  EXPECT_THROW(parse_config(j, "."), InputError);
}

TEST(Config, AllVariantsByDefault) {
  json j = good_config();
  j.erase("variants");
  j["params"].erase("block_size");
  EXPECT_EQ(parse_config(j, ".").points[0].variants.size(), registry().variants("dtw").size());
}

TEST(Config, SweepsCarryTheirOwnAxesAndVariants) {
  json j = json::parse(R"({"study": "dtw", "data": {"generator": "cbf"},
    "params": {"entries": 9}, "repetitions": {"cpu": 1, "gpu": 7}, "warmup": {"gpu": 3},
    "variants": ["seq_tworow", "shared"],
    "sweeps": [{"label": "a", "axes": {"n": [3, 4]}},
               {"axes": {"n": [5]}, "params": {"queries": 2}, "variants": ["openmp"]}]})");
  Config c = parse_config(j, ".");
  ASSERT_EQ(c.points.size(), 3u);
  EXPECT_EQ(c.points[0].sweep, "a");
  EXPECT_EQ(c.points[1].params.text("n"), "4");
  EXPECT_EQ(c.points[1].variants.size(), 2u);
  EXPECT_EQ(c.points[2].sweep, "sweep2");
  EXPECT_EQ(c.points[2].params.text("queries"), "2");
  EXPECT_EQ(c.points[2].params.text("entries"), "9");
  ASSERT_EQ(c.points[2].variants.size(), 1u);
  EXPECT_EQ(c.points[2].variants[0]->id(), "dtw/openmp");
  EXPECT_EQ(c.repetitions[Backend::cpu], 1);
  EXPECT_EQ(c.repetitions[Backend::gpu], 7);
  EXPECT_EQ(c.warmup[Backend::cpu], 2);
  EXPECT_EQ(c.warmup[Backend::gpu], 3);
  j["axes"] = {{"n", {1}}};
  EXPECT_THROW(parse_config(j, "."), InputError);
  j.erase("axes");
  j["sweeps"][0]["colour"] = 1;
  EXPECT_THROW(parse_config(j, "."), InputError);
  j["sweeps"] = json::array();
  EXPECT_THROW(parse_config(j, "."), InputError);
  j["sweeps"] = {{{"axes", {{"n", {3}}}}, {"variants", {"openmp"}}, {"params", {{"block_size", 8}}}}};
  EXPECT_THROW(parse_config(j, "."), InputError);  // block_size is not openmp's
}

TEST(Config, SweepsMayCarryTheirOwnCounts) {
  json j = json::parse(R"({"study": "dtw", "data": {"generator": "cbf"},
    "repetitions": {"cpu": 2, "gpu": 9}, "variants": ["seq_tworow"],
    "sweeps": [{"axes": {"n": [3]}},
               {"axes": {"n": [5]}, "repetitions": {"gpu": 3}, "warmup": 0}]})");
  Config c = parse_config(j, ".");
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_FALSE(c.points[0].repetitions.has_value());
  EXPECT_FALSE(c.points[0].warmup.has_value());
  ASSERT_TRUE(c.points[1].repetitions.has_value());
  EXPECT_EQ((*c.points[1].repetitions)[Backend::gpu], 3);
  EXPECT_EQ((*c.points[1].repetitions)[Backend::cpu], 2);  // unset: the config's
  ASSERT_TRUE(c.points[1].warmup.has_value());
  EXPECT_EQ((*c.points[1].warmup)[Backend::cpu], 0);
  j["sweeps"][1]["repetitions"] = 0;
  EXPECT_THROW(parse_config(j, "."), InputError);
  j["sweeps"][1]["repetitions"] = {{"tpu", 1}};
  EXPECT_THROW(parse_config(j, "."), InputError);
  j["sweeps"][1]["repetitions"] = 1;
  j["sweeps"][1]["warmup"] = "none";
  EXPECT_THROW(parse_config(j, "."), InputError);
}

TEST(Config, TimeBudgetAtTheTopAndPerSweep) {
  json j = json::parse(R"({"study": "dtw", "data": {"generator": "cbf"}, "time_budget_s": 2.5,
    "variants": ["seq_tworow"], "sweeps": [{"axes": {"n": [3]}},
                                            {"axes": {"n": [5]}, "time_budget_s": 0}]})");
  Config c = parse_config(j, ".");
  EXPECT_EQ(c.time_budget_s, 2.5);
  EXPECT_FALSE(c.points[0].time_budget_s.has_value());
  EXPECT_EQ(c.points[1].time_budget_s.value_or(-1), 0);
  for (const json bad : {json(-1), json("2"), json(1e9), json(true)}) {
    j["time_budget_s"] = bad;
    EXPECT_THROW(parse_config(j, "."), InputError) << bad.dump();
    j["time_budget_s"] = 1;
    j["sweeps"][1]["time_budget_s"] = bad;
    EXPECT_THROW(parse_config(j, "."), InputError) << bad.dump();
    j["sweeps"][1]["time_budget_s"] = 0;
  }
  EXPECT_EQ(parse_config(json::parse(R"({"study": "dtw", "data": {"generator": "cbf"},
    "variants": ["seq_tworow"]})"), ".").time_budget_s, 0);
}

TEST(Config, RejectsBadInput) {
  auto bad = [](const std::function<void(json&)>& edit) {
    json j = good_config();
    edit(j);
    EXPECT_THROW(parse_config(j, "."), InputError) << j.dump();
  };
  bad([](json& j) { j["colour"] = "red"; });
  bad([](json& j) { j["study"] = "nope"; });
  bad([](json& j) { j.erase("study"); });
  bad([](json& j) { j["variants"] = {"dtw/fastest"}; });
  bad([](json& j) { j["axes"]["n"] = {0}; });
  bad([](json& j) { j["axes"]["entries"] = {-5}; });
  bad([](json& j) { j["axes"]["n"] = {2.5}; });
  bad([](json& j) { j["params"]["chunk_size"] = 4; });
  bad([](json& j) { j["params"]["block_size"] = 0; });
  bad([](json& j) { j["repetitions"] = "10"; });
  bad([](json& j) { j["repetitions"] = {{"tpu", 3}}; });
  bad([](json& j) { j["warmup"] = {{"gpu", -1}}; });
  bad([](json& j) { j["validation"] = "sample:0"; });
  bad([](json& j) { j["data"]["file"] = "x.tsv"; });
  bad([](json& j) { j["data"] = json::object(); });
  bad([](json& j) { j["data"]["generator"] = "sine"; });
  bad([](json& j) { j["data"]["noise"] = "pink"; });
  // block_size belongs to the GPU variants: with only CPU ones selected it is unknown
  bad([](json& j) { j["variants"] = {"seq_full"}; });
}

TEST(Config, ValidationModes) {
  EXPECT_EQ(parse_validation("full").mode, Validation::Mode::full);
  EXPECT_EQ(parse_validation("off").mode, Validation::Mode::off);
  EXPECT_EQ(parse_validation("sample:12").sample, 12u);
  EXPECT_THROW(parse_validation("sample:"), InputError);
  EXPECT_THROW(parse_validation("sample:-1"), InputError);
  EXPECT_THROW(parse_validation("some"), InputError);
}

TEST(Config, LoadReportsMissingAndMalformedFiles) {
  EXPECT_THROW(load_config("/nonexistent/config.json"), InputError);
  const std::string path = testing::TempDir() + "/malformed.json";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("{\"study\": \"dtw\",", f);
  std::fclose(f);
  EXPECT_THROW(load_config(path), InputError);
}

}  // namespace
}  // namespace ladder
