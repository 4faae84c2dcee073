// ladder: run, validate and time every step of published GPU case studies.
//   ladder list [--json]
//   ladder run CONFIG [--out FILE] [--filter RE] [--validate full|sample:N|off]
//                     [--dump-outputs DIR] [--profile] [--device N] [--quiet]
//                     [--repetitions N] [--warmup N] [--timing hot|cold]
//   ladder plan CONFIG [--scale paper|quick] [--filter RE] [--json]
//   ladder gen STUDY [--generator NAME] [--PARAM VALUE ...] --out FILE
//   ladder compare A.json B.json [--csv]
//   ladder export --csv RESULTS.json [--out FILE]
//   ladder reproduce [--scale paper|quick] [--out DIR] [--configs DIR] [--no-peers]
// Exit status: 0 all runs passed (or were validly unsupported or skipped), 1 a run failed
// validation or errored, 2 bad input (one line on stderr, nothing written), 3 a CUDA error
// outside any run (e.g. selecting the device), 4 an unexpected internal error.
#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "../../datagen/base/errors.hpp"
#include "commands.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ladder list [--json]\n"
    "       ladder run CONFIG [--out FILE] [--filter RE] [--validate full|sample:N|off]\n"
    "                         [--dump-outputs DIR] [--profile] [--device N] [--quiet]\n"
    "                         [--repetitions N] [--warmup N] [--timing hot|cold]\n"
    "       ladder plan CONFIG [--scale paper|quick] [--filter RE] [--json]\n"
    "       ladder gen STUDY [--generator NAME] [--PARAM VALUE ...] --out FILE\n"
    "       ladder compare A.json B.json [--csv]\n"
    "       ladder export --csv RESULTS.json [--out FILE]\n"
    "       ladder reproduce [--scale paper|quick] [--out DIR] [--configs DIR] [--device N]\n"
    "                        [--no-peers] [--python EXE]\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "list") return ladder::cli::list(args);
    if (cmd == "run") return ladder::cli::run(args);
    if (cmd == "plan") return ladder::cli::plan(args);
    if (cmd == "gen") return ladder::cli::gen(args);
    if (cmd == "compare") return ladder::cli::compare(args);
    if (cmd == "reproduce") return ladder::cli::reproduce(args);
    if (cmd == "export") return ladder::cli::export_results(args);
    throw ladder::InputError("unknown command '" + cmd + "' (try `ladder --help`)");
  } catch (const ladder::InputError& e) {
    fmt::print(stderr, "ladder: error: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    // Every point's memory is estimated before its data is built or read, so this is an
    // estimate that fell short; where it happened is not known here.
    fmt::print(stderr, "ladder: error: out of host memory: this input needs more memory than "
                       "was estimated and than this process may use\n");
    return 2;
  } catch (const ladder::CudaError& e) {
    fmt::print(stderr, "ladder: CUDA error: {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ladder: internal error: {}\n", e.what());
    return 4;
  }
}
