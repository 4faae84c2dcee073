// Fuzz target: the text of /proc/cpuinfo and of /proc/driver/nvidia/version, as results record
// them (harness/host_cpu.hpp). These parsers take any text and never throw: a finding is an
// exception, a crash, or an answer that is not what the header promises: the CPU's id built
// from its numeric fields ("VENDOR family F model M [stepping S]" or "Arm implementer 0x.. part
// 0x.."), a microarchitecture only beside an id, and a driver release of digits and dots that
// stands in the input.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "harness/host_cpu.hpp"

namespace {

using ladder::fuzz::broken_promise;
constexpr const char* kReader = "parse_cpuinfo";

void check_cpu(const ladder::CpuIdentity& c) {
  const bool x86 = c.id.find(" family ") != std::string::npos && c.id.find(" model ") != std::string::npos;
  if (!c.id.empty() && !x86 && c.id.rfind("Arm implementer 0x", 0) != 0)
    broken_promise(kReader, "an id of neither form: " + c.id);
  if (c.id.empty() && !c.microarchitecture.empty())
    broken_promise(kReader, "a microarchitecture without an id: " + c.microarchitecture);
  if (c.brand.empty()) broken_promise(kReader, "an empty brand (\"unknown\" when absent)");
}

void check_release(const std::string& release, const std::string& input) {
  for (char ch : release)
    if (!std::isdigit(static_cast<unsigned char>(ch)) && ch != '.')
      broken_promise("parse_driver_release", "a release that is not digits and dots: " + release);
  if (!release.empty() && input.find(release) == std::string::npos)
    broken_promise("parse_driver_release", "a release the input does not hold: " + release);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return 0;
  const std::string text = ladder::fuzz::input_text(data, size);
  check_cpu(ladder::parse_cpuinfo(text));
  check_release(ladder::parse_driver_release(text), text);
  return 0;
}
