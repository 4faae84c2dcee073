// A command of the CLI as it declares itself (its positionals, and its options each with a
// one-line description) and what its body receives once the command line is parsed. The
// declaration is the one place a command's options are named: the parser (CLI11, args.cpp)
// and the --help text are both made from it.
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

using Args = std::vector<std::string>;

// An option, spelt --name; given twice, the last one counts.
struct OptionSpec {
  std::string name;       // without the leading "--"
  std::string value;      // its value as usage shows it ("FILE", "paper|quick"); empty: a flag
  std::string help;       // one line
  bool required = false;  // the command refuses to run without it
};

struct Command {
  std::string name;
  std::string summary;                   // one line, for `ladder --help`
  std::vector<std::string> positionals;  // as usage shows them; the body checks how many came
  // The usage lines, written out where the one made from the declaration would mislead (gen's
  // two forms); empty: made from it.
  std::vector<std::string> forms;
  std::vector<OptionSpec> options;
  // When it has a name: any other `--NAME VALUE` (or `--NAME=VALUE`) is taken too, into
  // Parsed::options, and usage shows this one as its pattern (gen's data parameters).
  OptionSpec open;
  std::string about;                     // what --help says after the usage (lines end in \n)
  std::string (*more_help)() = nullptr;  // help known only at run time, after the options
  int (*body)(const Parsed&) = nullptr;
};

// Parses `args` (the words after the command's name) as `c` declares them and runs its body;
// `--help` or `-h` prints its help on stdout instead and returns 0. Bad usage throws
// InputError (one line).
int execute(const Command& c, const Args& args);

// `ladder --help`: each command with its summary.
std::string overview(const std::vector<const Command*>& commands);

}  // namespace ladder::cli
