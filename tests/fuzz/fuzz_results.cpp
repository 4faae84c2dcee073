// Fuzz target: results files. The text goes through the JSON reader with the depth limit
// read_results uses, then through check_results, the schema check read_results applies (and so
// `ladder compare`), then through what reads results further: the run times `--costs` takes
// and the shard check `ladder merge` applies. InputError (of one printable line) is the
// expected answer to bad input; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "harness/results.hpp"
#include "harness/shard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  try {
    const nlohmann::json j = ladder::parse_json_text(text, "results", ladder::kMaxResultsDepth);
    const nlohmann::json checked = ladder::check_results(j, "results");
    (void)checked.dump();
    ladder::MeasuredCosts costs;
    costs.add(checked);
    (void)costs.seconds("", "", "");
    (void)ladder::check_shard(checked, "results").owners.size();
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_json_text/check_results", e);
  }
  return 0;
}
