#include "host_cpu.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace ladder {
namespace {

// (vendor, family, model) -> microarchitecture: the server parts GPU nodes are built on.
const std::map<std::tuple<std::string, int, int>, std::string>& x86_table() {
  static const std::map<std::tuple<std::string, int, int>, std::string> table{
      {{"GenuineIntel", 6, 63}, "Haswell"},
      {{"GenuineIntel", 6, 79}, "Broadwell"},
      {{"GenuineIntel", 6, 85}, "Skylake-SP / Cascade Lake / Cooper Lake"},
      {{"GenuineIntel", 6, 106}, "Ice Lake-SP"},
      {{"GenuineIntel", 6, 108}, "Ice Lake-D"},
      {{"GenuineIntel", 6, 143}, "Sapphire Rapids"},
      {{"GenuineIntel", 6, 167}, "Rocket Lake"},
      {{"GenuineIntel", 6, 173}, "Granite Rapids"},
      {{"GenuineIntel", 6, 175}, "Sierra Forest"},
      {{"GenuineIntel", 6, 207}, "Emerald Rapids"},
      {{"AuthenticAMD", 23, 1}, "Zen (Naples)"},
      {{"AuthenticAMD", 23, 49}, "Zen 2 (Rome)"},
      {{"AuthenticAMD", 25, 1}, "Zen 3 (Milan)"},
      {{"AuthenticAMD", 25, 17}, "Zen 4 (Genoa)"},
      {{"AuthenticAMD", 25, 160}, "Zen 4c (Bergamo)"},
      {{"AuthenticAMD", 26, 2}, "Zen 5 (Turin)"},
      {{"AuthenticAMD", 26, 17}, "Zen 5c (Turin Dense)"}};
  return table;
}

// (implementer, part) -> core, for Arm hosts (Grace) whose cpuinfo has no model name.
const std::map<std::pair<int, int>, std::string>& arm_table() {
  static const std::map<std::pair<int, int>, std::string> table{
      {{0x41, 0xd0c}, "Neoverse N1"},
      {{0x41, 0xd40}, "Neoverse V1"},
      {{0x41, 0xd4f}, "Neoverse V2 (e.g. NVIDIA Grace)"},
      {{0x41, 0xd84}, "Neoverse V3"}};
  return table;
}

std::string fmt_arm(int implementer, int part) {
  char text[64];
  std::snprintf(text, sizeof text, "Arm implementer 0x%x part 0x%x", implementer, part);
  return text;
}

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CpuIdentity parse_cpuinfo(const std::string& text) {
  std::map<std::string, std::string> field;  // the first processor's fields
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() && !field.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r") + 1);
    field.emplace(key, value);
  }
  CpuIdentity c;
  if (!field["model name"].empty()) c.brand = field["model name"];  // "unknown" when blank
  auto integer = [&](const char* key) {
    try {
      return field.count(key) ? std::stoi(field[key], nullptr, 0) : -1;
    } catch (const std::exception&) {
      return -1;
    }
  };
  const std::string vendor = field.count("vendor_id") ? field["vendor_id"] : "";
  if (const int family = integer("cpu family"), model = integer("model"); family >= 0 && model >= 0) {
    c.id = vendor + " family " + std::to_string(family) + " model " + std::to_string(model);
    if (const int stepping = integer("stepping"); stepping >= 0) c.id += " stepping " + std::to_string(stepping);
    if (const auto it = x86_table().find({vendor, family, model}); it != x86_table().end())
      c.microarchitecture = it->second;
  } else if (const int impl = integer("CPU implementer"), part = integer("CPU part"); impl >= 0 && part >= 0) {
    c.id = fmt_arm(impl, part);
    if (const auto it = arm_table().find({impl, part}); it != arm_table().end()) c.microarchitecture = it->second;
  }
  return c;
}

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// "580.95.05", "550.54": two or three numbers joined by dots.
bool release_number(const std::string& word) {
  int parts = 0;
  for (std::size_t i = 0;; ++parts) {
    const std::size_t end = word.find_first_not_of("0123456789", i);
    if (end == i) return false;  // an empty part
    if (end == std::string::npos) return parts + 1 == 2 || parts + 1 == 3;
    if (word[end] != '.') return false;
    i = end + 1;
  }
}

}  // namespace

std::string parse_driver_release(const std::string& text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue ...": the first word on a
  // line after "NVRM version:" that is a release, with white space on both sides. Read by hand:
  // the text is a file's, and std::regex matches recursively.
  for (std::size_t at = text.find("NVRM version:"); at != std::string::npos; at = text.find("NVRM version:", at + 1)) {
    const std::size_t stop = std::min(text.find('\n', at), text.size());
    for (std::size_t i = at + 13; i < stop; ++i) {
      if (blank(text[i]) || !blank(text[i - 1])) continue;  // not the start of a word
      std::size_t end = i;
      while (end < text.size() && !blank(text[end])) ++end;
      if (end < text.size() && release_number(text.substr(i, end - i))) return text.substr(i, end - i);
      i = end;
    }
  }
  return "";
}

nlohmann::json cpu_json() {
  const CpuIdentity c = parse_cpuinfo(read_text("/proc/cpuinfo"));
  auto or_null = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  return {{"cpu", c.brand}, {"cpu_id", or_null(c.id)}, {"cpu_microarchitecture", or_null(c.microarchitecture)}};
}

nlohmann::json driver_release_json() {
  const std::string r = parse_driver_release(read_text("/proc/driver/nvidia/version"));
  return r.empty() ? nlohmann::json(nullptr) : nlohmann::json(r);
}

}  // namespace ladder
