// The options that spread a plan over processes, shared by `run`, `plan` and `reproduce`:
// --shard K/N (this process runs shard K), --costs (what balances the shards) and
// --gpus all|LIST (one child process per GPU, each a shard, merged at the end).
#pragma once
#include <string>
#include <vector>

#include "../shard.hpp"
#include "args.hpp"

namespace ladder::cli {

OptionSpec shard_option(const std::string& name);  // "shard", "costs" or "gpus"

// --costs FILE|DIR read, or none.
MeasuredCosts costs_option(const Parsed& p);

// --gpus all|0,2,...: the device indices, each present, none twice, all of one GPU model
// (a merged file records one device model); throws InputError.
std::vector<int> gpus_option(const Parsed& p);

// A child of --gpus: what it runs and where its results grow, for the combined progress.
struct ShardChild {
  std::vector<std::string> argv;
  std::string log;    // its standard output and error
  std::string watch;  // its results file, or a folder of them
  double cost = 0;    // expected seconds of its runs (harness/shard.hpp)
  std::size_t runs = 0;
};

// Starts every child at once, each on its share of this process's cores (OMP_NUM_THREADS
// set to match), shows one progress line for all (runs done, elapsed, estimate left), and
// waits for them. Ctrl-C or SIGTERM stops every child, which leave whole files; then this
// process ends by the same signal. Returns each child's exit status (-1: killed).
std::vector<int> run_shard_children(const std::vector<ShardChild>& children, const std::string& what,
                                    const std::vector<std::vector<double>>& costs,
                                    const std::vector<std::string>& config_names);

// " --shard K/N" style argument pairs of `p` to hand on to a child: every option given except
// those named in `drop` (values as given).
std::vector<std::string> pass_on(const Parsed& p, const std::vector<std::string>& drop);

}  // namespace ladder::cli
