// The CLI's subcommands; each takes the arguments after its name and returns the exit status.
#pragma once
#include <string>
#include <vector>

namespace ladder::cli {

using Args = std::vector<std::string>;
int list(const Args& args);
int run(const Args& args);
int gen(const Args& args);
int compare(const Args& args);

}  // namespace ladder::cli
