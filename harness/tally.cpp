#include "tally.hpp"

#include <fmt/format.h>

namespace ladder {

void Tally::add(Status s) {
  switch (s) {
    case Status::passed: ++passed; return;
    case Status::incorrect: ++incorrect; return;
    case Status::unsupported: ++unsupported, ++skipped; return;
    case Status::skipped: ++skipped; return;
    case Status::error: ++failed; return;
  }
  ++failed;
}

void Tally::add(const std::string& status) {
  for (Status s : {Status::passed, Status::incorrect, Status::unsupported, Status::skipped})
    if (status == to_string(s)) return add(s);
  add(Status::error);
}

void Tally::add_runs(const nlohmann::json& results) {
  if (!results.is_object() || !results.contains("runs") || !results["runs"].is_array()) return;
  for (const nlohmann::json& run : results["runs"])
    if (run.is_object() && run.contains("status") && run["status"].is_string()) add(run["status"].get<std::string>());
}

std::string Tally::text() const {
  return fmt::format("{} passed, {} failed, {} skipped{}, {} incorrect", passed, failed, skipped,
                     unsupported > 0 ? fmt::format(" ({} unsupported)", unsupported) : "", incorrect);
}

}  // namespace ladder
