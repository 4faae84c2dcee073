// Experiment configs: a JSON file naming a study, its data, parameter axes, variants,
// repetitions and validation. Loading checks everything up front so that a bad config fails
// before any run starts (and before any results file exists).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "params.hpp"
#include "study.hpp"

namespace ladder {

struct Validation {
  enum class Mode { full, sample, off };
  Mode mode = Mode::full;
  std::size_t sample = 0;  // outputs checked in sample mode
  std::string text() const;
};
// "full", "off" or "sample:N" with N >= 1; throws InputError otherwise.
Validation parse_validation(const std::string& text);

// hot: each sample finds the L2 cache as the previous one left it; cold: the GPU's L2 is
// flushed before every sample (CPU steps are always timed hot).
enum class TimingMode { hot, cold };
const char* to_string(TimingMode m);
// "hot" or "cold" (the config's `timing`, --timing); throws InputError naming `where`.
TimingMode parse_timing(const std::string& text, const std::string& where);

// Counts that may differ by backend: slow CPU baselines get fewer repetitions.
struct PerBackend {
  int cpu = 0, gpu = 0;
  int operator[](Backend b) const { return b == Backend::cpu ? cpu : gpu; }
};

// One parameter point (fixed values included) and the variants that run it.
struct Point {
  Params params;
  std::vector<const VariantSpec*> variants;
  std::string sweep;  // label of the sweep it came from ("" for a config without sweeps)
  DataSource data;    // the config's data, or the sweep's own
  std::optional<Validation> validation;  // the sweep's own mode, when it sets one
  // The sweep's own counts, when it sets them (a long point needs fewer repetitions).
  std::optional<PerBackend> repetitions, warmup;
  std::optional<double> time_budget_s;  // the sweep's own budget, when it sets one
  // How results name the point when not by its parameters: a peer's run at changed
  // parameters (`ladder ingest`) keeps the name of the config's point it stands beside.
  std::string name;
  std::string key() const { return name.empty() ? params.key() : name; }
};

struct Config {
  std::string path;  // as given (and as results record it)
  std::string file;  // the file read: `path`, or the share folder's copy of it (share_dir.hpp)
  std::string name;
  const Study* study = nullptr;
  DataSource data;
  std::vector<Point> points;
  PerBackend repetitions{10, 10};
  PerBackend warmup{2, 2};
  // Seconds a run's timed calls may take (0: no budget). The first call measures the run;
  // the repetitions are cut to what fits, and a call longer than the budget is the only
  // sample. Slow steps keep few samples, fast ones get every repetition the rank test needs.
  double time_budget_s = 0;
  Validation validation;
  TimingMode timing = TimingMode::hot;
  std::string scale;        // "paper" or "quick" when loaded at a reproduction scale, else ""
  nlohmann::json resolved;  // the config as it will run, recorded in results
};

// Reproduction scales. A config marks itself a paper experiment (one that `ladder reproduce`
// runs) with a "reproduce" object; its optional "paper" and "quick" objects adjust the config
// at that scale (see apply_scale).
inline const char* const kScales[] = {"paper", "quick"};
// "paper" or "quick" (`--scale`); throws InputError naming `where` otherwise.
std::string parse_scale(const std::string& text, const std::string& where);
bool is_paper_experiment(const nlohmann::json& config);

// The config as it runs at `scale`: the top-level fields of "reproduce".<scale> replace the
// config's own (objects merged key by key, RFC 7386); its "sweeps" is either a list that
// replaces the config's sweeps, or an object from sweep label to the changes of every sweep of
// that label (null drops them). The result has no "reproduce" object left. An empty scale
// leaves the config as it is. Throws InputError for a malformed block or a label no sweep has.
nlohmann::json apply_scale(const nlohmann::json& config, const std::string& scale);

// Reads and checks a config file, at a reproduction scale when `scale` is not empty; throws
// InputError with a one-line reason. A relative path not found from the working directory is
// read from the share folder (resolve_shared_path), so configs/dtw/smoke.json runs anywhere.
Config load_config(const std::string& path, const std::string& scale = "");
// The same from parsed JSON; `base_dir` resolves relative data file paths.
Config parse_config(const nlohmann::json& j, const std::string& base_dir);

// Every file a config reads: the config itself, its data files and the data parameters that
// name files (TWED's b_file), each once. An output must never be one of them.
std::vector<std::string> input_files(const Config& config);

// Expands {"a": [1, 2], "b": [3]} (product) and {"c": [..], "d": [..]} (zip, equal lengths)
// over `fixed` into parameter points. Values become text (see json_to_param).
std::vector<Params> expand_axes(const nlohmann::json& product, const nlohmann::json& zip,
                                const Params& fixed);
// A JSON scalar as parameter text: integers exactly, other numbers in shortest round-trip form.
std::string json_to_param(const std::string& name, const nlohmann::json& v);

}  // namespace ladder
