// Fuzz target: config files. The text goes through the JSON reader with the config depth
// limit, then through parse_config against the real study registry (every study and variant
// of variants/ is linked in). Data paths resolve under a directory that does not exist, so no
// data file is ever read. InputError (of one printable line) is the expected answer to bad
// input; anything else escaping (another exception, a crash, a sanitizer report, a hang) is a
// finding. The same text is also read as a peer's handover (`ladder ingest`) against a small
// twed config: its outputs files resolve under the same missing directory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "harness/config.hpp"
#include "harness/ingest.hpp"

namespace {

// The config a fuzzed handover is read against: two points, so that point indices matter.
const ladder::Config& twed_config() {
  static const ladder::Config c = ladder::parse_config(
      nlohmann::json::parse(R"({"name": "fuzz", "study": "twed",
        "data": {"generator": "random_walk", "seed": 1, "n": 8, "series": 3},
        "axes": {"mode": ["batch", "triangle"]}, "variants": ["twed/seq_full"]})"),
      "/nonexistent-base");
  return c;
}

void handover(const nlohmann::json& j) {
  try {
    const ladder::Handover h = ladder::parse_handover(j, "/nonexistent-base/h.json", twed_config());
    for (const ladder::PeerRun& r : h.runs)
      if (r.point >= twed_config().points.size() || r.variant >= h.variants.size())
        ladder::fuzz::broken_promise("parse_handover", "a run beyond the points or variants");
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_handover", e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  try {
    const nlohmann::json j = ladder::parse_json_text(text, "config", 16);
    handover(j);
    const ladder::Config c = ladder::parse_config(j, "/nonexistent-base");
    // What `ladder run` does next with an accepted config: record it in the results file.
    if (c.study == nullptr) ladder::fuzz::broken_promise("parse_config", "no study");
    (void)c.resolved.dump();
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_json_text/parse_config", e);
  }
  return 0;
}
