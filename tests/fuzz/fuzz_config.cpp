// Fuzz target: config files. The text goes through the JSON reader with the config depth
// limit, then through parse_config against the real study registry (every study and variant
// of variants/ is linked in). Data paths resolve under a directory that does not exist, so no
// data file is ever read. InputError (of one printable line) is the expected answer to bad
// input; anything else escaping (another exception, a crash, a sanitizer report, a hang) is a
// finding. Handovers (`ladder ingest`) have their own target, fuzz_ingest.cpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "harness/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  try {
    const nlohmann::json j = ladder::parse_json_text(text, "config", 16);
    const ladder::Config c = ladder::parse_config(j, "/nonexistent-base");
    // What `ladder run` does next with an accepted config: record it in the results file.
    if (c.study == nullptr) ladder::fuzz::broken_promise("parse_config", "no study");
    (void)c.resolved.dump();
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_json_text/parse_config", e);
  }
  return 0;
}
