// The CLI's subcommands. Each declares itself as a Command (args.hpp: its options, which give
// its --help too) next to its body; the body receives the parsed command line and returns the
// exit status.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"
#include "../config.hpp"
#include "../run_progress.hpp"
#include "../runner.hpp"

namespace ladder::cli {

extern const Command list_command, run_command, gen_command;  // commands.cpp
extern const Command plan_command;                            // plan.cpp
extern const Command compare_command, export_command;         // compare.cpp
extern const Command reproduce_command;                       // reproduce.cpp
extern const Command ingest_command;                          // ingest.cpp
extern const Command merge_command;                           // merge.cpp
extern const Command profile_command;                         // profile.cpp
extern const Command ab_command;                              // ab.cpp
int list(const Parsed& p);
int run(const Parsed& p);
// `run` in this process (no --gpus, no --processes): the runs of CONFIG (already loaded with
// the command line's overrides) into --out, with what this process records of itself.
int run_here(const Parsed& p, const Config& config);
// `run --processes K [--cpus LIST]` (run_processes.cpp).
int run_processes(const Parsed& p, const Config& config);
int gen(const Parsed& p);
int compare(const Parsed& p);
int reproduce(const Parsed& p);
int plan(const Parsed& p);
int ingest(const Parsed& p);

// CONFIG (the first positional) loaded at --scale, with --repetitions, --warmup and --timing
// applied as `run` applies them (`plan` shows the same runs).
Config config_from_options(const Parsed& p);

// An option `run`, `plan`, `ingest` and `gen --config` share (--scale, --filter, --validate,
// --repetitions, --warmup, --timing, --device, --quiet), declared once.
OptionSpec shared_option(const std::string& name);

// The integer value of option --name, at least `lo`; throws InputError otherwise.
int integer_option(const Parsed& p, const std::string& name, int lo);
// `run`'s options (--filter, --validate, --dump-outputs, --profile, --quiet, --device) as the
// runner takes them; `profile` times its runs with the same.
RunOptions run_options(const Parsed& p);
// --runs LIST: "3,7-9" as ranges of run indices (plan.hpp's keep_runs selects them); throws
// InputError.
std::vector<RunRange> run_list(const std::string& text);
int export_results(const Parsed& p);
// Nsight Compute's ncu: --ncu PATH when `p` has it, else ncu on PATH, else the CUDA Toolkit's;
// "" when there is none (profile.cpp).
std::string find_ncu(const Parsed& p);  // `ladder export` (`export` is a keyword)

// results/<config name>-<UTC time>.json: where `run` writes when --out is not given.
std::string default_out(const Config& c, const ShardInfo& shard = {});
// The runs of a report as a table on stdout, then each failure's reason.
void print_summary(const RunReport& rep);
// "runs: 12 passed, 0 failed, 65 skipped, 0 incorrect": a results file's runs (parsed JSON)
// by outcome, as `run` ends (with the path of the file after it).
void print_tally(const nlohmann::json& results);

// A text table on stdout, columns as wide as their widest cell; `right` aligns numbers.
void print_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<bool>& right);

}  // namespace ladder::cli
