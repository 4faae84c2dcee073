// A peer's runs handed to ladder (`ladder ingest`). A peer (peers/<study>/<name>.py) runs a
// library on the data of a config's points and keeps only what is its own: it hands over, per
// point, the library's raw outputs and timing samples. ladder then does what it does for its
// own steps, with the same code: builds the point's data, validates the outputs against the
// study's reference and tolerance, computes the metric and its share of the device's limit
// with the study's Work, and writes role `peer` runs through the one results writer.
#pragma once
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "runner.hpp"

namespace ladder {

// One run the peer handed over: outputs and samples, or why it did not run.
struct PeerRun {
  std::size_t point = 0;    // into the config's points, as `ladder plan --json` lists them
  std::size_t variant = 0;  // into Handover::variants
  std::string outputs;      // .npy of the whole output (a path the handover's folder resolves)
  std::vector<double> samples_ms;
  int warmup = 0;
  std::map<std::string, double> facts;
  std::string note;
  std::string unsupported, error;  // set when the library could not run the point, or failed
};

struct Handover {
  std::string path;
  nlohmann::json peer;                // what the peer says of itself: recorded as is
  std::vector<VariantSpec> variants;  // study, name, label, change, backend, precision
  std::vector<Params> overrides;      // per variant: parameters it computes at instead
  std::vector<PeerRun> runs;          // in point, then variant order
};

// Reads and checks a handover against `config` (points, variants, outputs files present,
// samples positive and finite); throws InputError with one line.
Handover read_handover(const std::string& path, const Config& config);
// The same for JSON already parsed; `path` names it and its folder resolves outputs files.
Handover parse_handover(const nlohmann::json& j, const std::string& path, const Config& config);

// The config the handed runs make: one point per run (the config's point, its parameters
// changed where the variant says so for a run with outputs, still named as the config names it), the run's own
// samples and warm-up as its counts, timed hot (a peer flushes no cache), and no `ladder`
// figure (a peer's runs alone would overwrite the steps' ladder figures). Each run has a
// variant of its own whose Prepare replays what the peer handed over, so `run_config` runs,
// validates and records it as any step.
struct PeerConfig {
  std::vector<std::unique_ptr<VariantSpec>> variants;  // the points' variants point here
  Config config;
};
PeerConfig peer_config(const Config& config, const Handover& handover);

// The resolved config as a peer's results record it: no timing mode, no `ladder` figure. What
// `ladder reproduce` compares a peer's earlier results with before it reuses them.
nlohmann::json peer_resolved(nlohmann::json resolved);

}  // namespace ladder
