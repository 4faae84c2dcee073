// The CLI's subcommands; each takes the arguments after its name and returns the exit status.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"
#include "../config.hpp"

namespace ladder::cli {

using Args = std::vector<std::string>;
int list(const Args& args);
int run(const Args& args);
int gen(const Args& args);
int compare(const Args& args);
int reproduce(const Args& args);
int plan(const Args& args);  // plan.cpp

// CONFIG (the first positional) loaded at --scale, with --repetitions, --warmup and --timing
// applied as `run` applies them (`plan` shows the same runs).
Config config_from_options(const Parsed& p);

// The integer value of option --name, at least `lo`; throws InputError otherwise.
int integer_option(const Parsed& p, const std::string& name, int lo);
int export_results(const Args& args);  // compare.cpp: `ladder export` (`export` is a keyword)

// A text table on stdout, columns as wide as their widest cell; `right` aligns numbers.
void print_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<bool>& right);

}  // namespace ladder::cli
