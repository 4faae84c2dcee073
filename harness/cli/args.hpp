// A tiny option parser: positional words plus `--name value` and `--flag` options, with an
// error for anything not declared.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../datagen/base/errors.hpp"

namespace ladder::cli {

struct Parsed {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;
  std::set<std::string> flags;
  bool has(const std::string& o) const { return options.count(o) || flags.count(o); }
  std::string get(const std::string& o, const std::string& fallback = "") const {
    auto it = options.find(o);
    return it == options.end() ? fallback : it->second;
  }
};

// `valued` lists options that take a value; `flags` those that do not. When `open` is true,
// any other `--name value` pair is accepted too (generator parameters).
inline Parsed parse_args(const std::vector<std::string>& args, const std::set<std::string>& valued,
                         const std::set<std::string>& flags, bool open = false) {
  Parsed p;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-' && a[1] != '-')
      throw InputError("unknown option " + a + " (options are spelt --name)");
    if (a.rfind("--", 0) != 0) {
      p.positional.push_back(a);
      continue;
    }
    const std::string name = a.substr(2);
    if (flags.count(name)) {
      p.flags.insert(name);
    } else if (valued.count(name) || (open && !name.empty())) {
      if (i + 1 >= args.size()) throw InputError("option " + a + " needs a value");
      p.options[name] = args[++i];
    } else {
      throw InputError("unknown option " + a);
    }
  }
  return p;
}

}  // namespace ladder::cli
