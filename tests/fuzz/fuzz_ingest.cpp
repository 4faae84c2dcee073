// Fuzz target: a peer's handover (`ladder ingest CONFIG HANDOVER`, harness/ingest.hpp). The
// text goes through the JSON reader with the handover's depth limit, then parse_handover
// against a small twed config (the real study registry is linked in), in a folder that holds
// an outputs file `p0.npy` (a valid one: runs naming it get past it to their samples, warm-up
// and facts). An accepted handover then goes where `ladder ingest` takes it before running:
// peer_config and the plan of the config it makes. InputError (of one printable line) is the
// expected answer to bad input; anything else escaping is a finding. Also: every run is of a
// point of the config and a variant of the handover, once, in point then variant order, with
// outputs and positive finite samples or a reason; the peer's config has one point per run,
// each with that run's variant alone, and its plan runs each of them once.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "datagen/npy.hpp"
#include "fuzz_input.hpp"
#include "harness/config.hpp"
#include "harness/ingest.hpp"
#include "harness/plan.hpp"

namespace {

using ladder::fuzz::broken_promise;

constexpr std::size_t kHandoverDepth = 16;  // read_handover's limit

// The folder the handover lies in, with the outputs file the corpus names.
const std::string& handover_path() {
  static const ladder::fuzz::ScratchDir dir;
  static const std::string path = [] {
    ladder::Output out;
    out.data = std::vector<double>{1.0, 2.0, 3.0};
    ladder::write_npy((dir.root() / "p0.npy").string(), out);
    return (dir.root() / "h.json").string();
  }();
  return path;
}

// Two points (batch and triangle), so that point indices matter.
const ladder::Config& config() {
  static const ladder::Config c = ladder::parse_config(
      nlohmann::json::parse(R"({"name": "fuzz", "study": "twed",
        "data": {"generator": "random_walk", "seed": 1, "n": 8, "series": 3},
        "axes": {"mode": ["batch", "triangle"]}, "variants": ["twed/seq_full"]})"),
      "/nonexistent-base");
  return c;
}

void check_runs(const ladder::Handover& h) {
  std::pair<std::size_t, std::size_t> last{0, 0};
  for (std::size_t i = 0; i < h.runs.size(); ++i) {
    const ladder::PeerRun& r = h.runs[i];
    if (r.point >= config().points.size() || r.variant >= h.variants.size())
      broken_promise("parse_handover", "a run beyond the points or variants");
    if (i > 0 && std::make_pair(r.point, r.variant) <= last)
      broken_promise("parse_handover", "runs out of point, variant order, or one twice");
    last = {r.point, r.variant};
    const bool ran = !r.outputs.empty();
    if (ran + !r.unsupported.empty() + !r.error.empty() != 1)
      broken_promise("parse_handover", "a run with not exactly one of outputs, unsupported, error");
    if (ran && r.samples_ms.empty()) broken_promise("parse_handover", "outputs without samples");
    for (double s : r.samples_ms)
      if (!(std::isfinite(s) && s > 0)) broken_promise("parse_handover", "a sample not a positive number");
    if (r.warmup < 0) broken_promise("parse_handover", "a negative warm-up");
  }
  if (h.overrides.size() != h.variants.size()) broken_promise("parse_handover", "not one override per variant");
}

void check_peer_config(const ladder::Handover& h) {
  const ladder::PeerConfig peer = ladder::peer_config(config(), h);
  const ladder::Config& c = peer.config;
  if (c.points.size() != h.runs.size()) broken_promise("peer_config", "not one point per run");
  for (const ladder::Point& pt : c.points)
    if (pt.variants.size() != 1) broken_promise("peer_config", "a point without exactly one variant");
  const std::vector<ladder::PlannedRun> plan = ladder::plan_runs(c, "");
  if (plan.size() != h.runs.size()) broken_promise("plan_runs", "the peer's plan is not one run per handed run");
  (void)c.resolved.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  try {
    const nlohmann::json j = ladder::parse_json_text(text, "handover", kHandoverDepth);
    const ladder::Handover h = ladder::parse_handover(j, handover_path(), config());
    check_runs(h);
    check_peer_config(h);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_handover", e);
  }
  return 0;
}
