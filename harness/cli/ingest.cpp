// `ladder ingest CONFIG HANDOVER --out FILE`: a peer's runs, validated, measured and written
// by ladder as its own (harness/ingest.hpp). The peer only ran the library; the reference,
// tolerance, metric, peak rule and results file are the study's and the harness's.
#include <fmt/format.h>

#include "../ingest.hpp"
#include "../results.hpp"
#include "commands.hpp"
#include "out_path.hpp"

namespace ladder::cli {
namespace {

constexpr const char* kIngestAbout =
    "Takes a peer's runs on CONFIG's points (HANDOVER: the library's outputs as .npy and its\n"
    "timing samples, per point; see peers/README.md), builds each point's data, validates the\n"
    "outputs against the study's reference with the study's tolerance, computes the metric and\n"
    "its share of the device's limit, and writes role `peer` runs to FILE. Exit status: 0 every\n"
    "run passed or was unsupported, 1 a run failed validation or errored, 2 bad input.\n";

// What the runner does not know of a peer: its own description and its words on each run.
RunReport annotated(const RunReport& report, const Handover& h) {
  RunReport out = report;
  out.peer = h.peer;
  for (RunRecord& r : out.runs) r.note = h.runs.at(r.run_index).note;
  return out;
}

std::vector<std::string> inputs_of(const Config& config, const Handover& h) {
  std::vector<std::string> inputs = input_files(config);
  inputs.push_back(h.path);
  for (const PeerRun& r : h.runs)
    if (!r.outputs.empty()) inputs.push_back(r.outputs);
  return inputs;
}

}  // namespace

const Command ingest_command{
    .name = "ingest",
    .summary = "a peer's runs on a config's points, validated and written as results",
    .positionals = {"CONFIG", "HANDOVER"},
    .options = {{"out", "FILE", "the results file", true}, shared_option("scale"),
                shared_option("validate"), shared_option("device"), shared_option("quiet")},
    .about = kIngestAbout,
    .body = ingest,
};

int ingest(const Parsed& p) {
  if (p.positional.size() != 2) throw InputError("ingest needs a CONFIG and a HANDOVER file");
  const Config config = config_from_options(p);
  const Handover handover = read_handover(p.positional[1], config);
  const PeerConfig peer = peer_config(config, handover);
  RunOptions opt;
  opt.replay = true;
  if (p.has("validate")) opt.validation = parse_validation(p.get("validate"));
  if (p.has("device")) {
    opt.device = integer_option(p, "device", 0);
    opt.device_given = true;
  }
  opt.quiet = p.has("quiet");
  const std::string out = results_target(p.get("out"));
  check_out_creatable(out);
  refuse_overwriting(out, inputs_of(config, handover), "--out");
  opt.on_checked = [&out] { prepare_results_file(out); };
  opt.on_run = [&](const RunReport& partial) { write_results(out, annotated(partial, handover)); };
  const RunReport rep = annotated(run_config(peer.config, opt), handover);
  print_summary(rep);
  write_results(out, rep);
  fmt::print("\nresults: {}\n", p.get("out"));
  if (!rep.all_ok()) {
    fmt::print(stderr, "ladder: some peer runs failed validation or errored (see results)\n");
    return 1;
  }
  return 0;
}

}  // namespace ladder::cli
