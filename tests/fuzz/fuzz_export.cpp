// Fuzz target: `ladder export` of a results file (harness/cli/export.cpp). The text goes
// through the JSON reader with the results depth limit and check_results, as read_results
// reads it, then through both formats: CSV and Google Benchmark's JSON (`--format gbench`, by
// sample and `--per-process`).
// InputError (of one printable line) is the expected answer to bad input; anything else
// escaping is a finding. Also: the CSV is RFC 4180 records ending in CRLF, a header then one
// record per run, each as many fields as the header; the gbench JSON dumps (no invalid
// UTF-8), every entry has a number of milliseconds as its real and CPU time, a run's entries
// are as many iterations as its repetitions, and two runs never share a name (compare.py
// matches benchmarks by name).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "datagen/base/printable.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "fuzz_results_input.hpp"
#include "harness/cli/export.hpp"
#include "harness/results.hpp"

namespace {

using nlohmann::json;
using ladder::fuzz::broken_promise;

// The field count of every record of RFC 4180 text whose records all end in CRLF; aborts on
// text that is not such.
std::vector<std::size_t> csv_records(const std::string& text) {
  std::vector<std::size_t> records;
  std::size_t fields = 1, i = 0;
  while (i < text.size()) {
    if (text[i] == '"') {
      // A quoted field: up to the quote not doubled, which a separator or the record's end follows.
      for (++i;; ++i) {
        if (i >= text.size()) broken_promise("export_csv", "an unterminated quoted field");
        if (text[i] == '"' && (i + 1 >= text.size() || text[i + 1] != '"')) break;
        if (text[i] == '"') ++i;
      }
      ++i;
      if (i < text.size() && text[i] != ',' && text[i] != '\r')
        broken_promise("export_csv", "text after a quoted field");
      continue;
    }
    if (text[i] == ',') {
      ++fields, ++i;
    } else if (text[i] == '\r') {
      if (i + 1 >= text.size() || text[i + 1] != '\n') broken_promise("export_csv", "a CR without LF");
      records.push_back(fields);
      fields = 1, i += 2;
    } else if (text[i] == '\n') {
      broken_promise("export_csv", "a line feed outside quotes without CR");
    } else {
      ++i;
    }
  }
  if (!text.empty() && text.back() != '\n') broken_promise("export_csv", "a last record without CRLF");
  return records;
}

void check_csv(const json& results) {
  const std::vector<std::size_t> records = csv_records(ladder::cli::export_csv_text(results));
  if (records.size() != results["runs"].size() + 1) broken_promise("export_csv", "not a record per run");
  for (std::size_t fields : records)
    if (fields != records.front()) broken_promise("export_csv", "a record with another field count than the header");
}

void check_gbench(const json& results, bool per_process) {
  const json out = ladder::cli::export_gbench_json(results, per_process);
  (void)out.dump(2);
  std::map<std::string, std::size_t> family_of;  // benchmark name -> the run it came from
  std::map<std::size_t, std::size_t> iterations, repetitions;
  for (const json& b : out.at("benchmarks")) {
    for (const char* t : {"real_time", "cpu_time"})
      if (!b.contains(t) || !b[t].is_number() || !std::isfinite(b[t].get<double>()))
        broken_promise("export_gbench", std::string("an entry whose ") + t + " is not a number of ms");
    const std::size_t family = b.at("family_index").get<std::size_t>();
    const std::string name = b.at("name").get<std::string>();
    if (const auto [it, added] = family_of.emplace(name, family); !added && it->second != family)
      broken_promise("export_gbench", "two runs named alike: " + ladder::printable(name, 80));
    if (b.at("run_type") == "iteration") ++iterations[family];
    repetitions[family] = b.at("repetitions").get<std::size_t>();
  }
  for (const auto& [family, n] : repetitions)
    if (iterations[family] != n) broken_promise("export_gbench", "a run whose iterations are not its repetitions");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::optional<json> read = ladder::fuzz::read_results_text(ladder::fuzz::input_text(data, size));
  if (!read) return 0;
  const json& results = *read;
  // What export does with a file read_results took: InputError only, if anything.
  try {
    check_csv(results);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("export_csv", e);
  }
  // By sample, and by process median (--per-process: a K-process file's timing.processes).
  for (bool per_process : {false, true}) {
    try {
      check_gbench(results, per_process);
    } catch (const ladder::InputError& e) {
      ladder::fuzz::check_message("export_gbench", e);
    }
  }
  return 0;
}
