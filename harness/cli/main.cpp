// ladder: run, validate and time every step of published GPU case studies.
//   ladder list [--json]
//   ladder run CONFIG [--out FILE] [--filter RE] [--validate full|sample:N|off]
//                     [--dump-outputs DIR] [--profile] [--device N] [--quiet]
//                     [--repetitions N] [--warmup N] [--timing hot|cold] [--scale paper|quick]
//                     [--runs LIST | --shard K/N | --gpus all|LIST] [--costs FILE|DIR]
//                     [--processes K [--cpus LIST]]
//                     [--process-samples] [--rounds R] [--blocked-start] [--plant RE:FACTOR]
//   ladder plan CONFIG [--scale paper|quick] [--filter RE] [--validate full|sample:N|off]
//                      [--repetitions N] [--warmup N] [--timing hot|cold]
//                      [--shard K/N] [--costs FILE|DIR] [--json]
//   ladder plan --advise RESULTS.json [--cost-ratio X] [--markdown | --json]
//   ladder gen STUDY [--generator NAME] [--PARAM VALUE ...] --out FILE
//   ladder gen --config CONFIG --point K [--scale paper|quick] [--json] --out FILE
//   ladder ingest CONFIG HANDOVER --out FILE [--scale paper|quick]
//                 [--validate full|sample:N|off] [--device N] [--quiet]
//   ladder compare A.json B.json [--csv] [--q Q] [--min-effect P] [--calibration DIM.json]
//   ladder export RESULTS.json --format csv|gbench [--per-process] [--out FILE]   (--csv: --format csv)
//   ladder reproduce [--scale paper|quick] [--out DIR] [--force] [--configs DIR] [--device N]
//                    [--shard K/N | --gpus all|LIST] [--costs FILE|DIR] [--no-peers] [--profile]
//                    [--python EXE]
//   ladder merge OUT SHARD...  |  ladder merge --processes OUT FILE...
//   ladder ab BIN_A BIN_B CONFIG --processes K [--seed S] [--cpus LIST] [--out DIR] [--filter RE]
//             [--scale paper|quick] [--validate full|sample:N|off] [--repetitions N] [--warmup N]
//             [--timing hot|cold] [--device N] [--quiet] [--rounds R] [--plant RE:FACTOR]
//   ladder --help | --version;  ladder COMMAND --help (or -h): its options, each described
// An option's value follows it (`--out FILE`) or is joined to it (`--out=FILE`). Each command
// declares its options beside its body (args.hpp); they are parsed, and its --help written,
// from that declaration.
// Exit status: 0 all runs passed (or were validly unsupported or skipped), 1 a run failed
// validation or errored, 2 bad input (one line on stderr, nothing written), 3 a CUDA error
// outside any run (e.g. selecting the device), 4 an unexpected internal error.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "../../datagen/base/errors.hpp"
#include "../../datagen/base/printable.hpp"
#include "build_info.hpp"
#include "commands.hpp"

namespace {

using namespace ladder::cli;

// In the order `ladder --help` lists them.
const std::vector<const Command*> kCommands = {&list_command,    &run_command,    &plan_command,
                                               &gen_command,     &ingest_command, &compare_command,
                                               &export_command,  &reproduce_command, &merge_command,
                                               &profile_command, &ab_command};

int dispatch(const Args& args) {
  if (args.empty()) throw ladder::InputError("no command given (try `ladder --help`)");
  const std::string& word = args[0];
  if (word == "--help" || word == "-h" || word == "help") {
    fmt::print("{}", overview(kCommands));
    return 0;
  }
  if (word == "--version") {
    fmt::print("ladder {} (commit {})\n", LADDER_VERSION, LADDER_GIT_COMMIT);
    return 0;
  }
  for (const Command* c : kCommands)
    if (c->name == word) return execute(*c, Args(args.begin() + 1, args.end()));
  throw ladder::InputError("unknown command '" + ladder::printable(word) + "' (try `ladder --help`)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(Args(argv + 1, argv + argc));
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
    // It may quote a path or a name from a file (a filesystem error): escaped.
    fmt::print(stderr, "ladder: internal error: {}\n", ladder::printable_all(e.what()));
    return 4;
  }
}
