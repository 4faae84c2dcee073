// `ladder merge OUT SHARD...`: the results files of a plan's shards (`--shard K/N`, `--gpus`,
// a Slurm array) joined into the file one process would have written: runs in run_index
// order, each keeping the device and host it ran on, `complete` only when every run is there.
// Shards of `ladder reproduce` merge into a folder of per-config files that a plain
// `ladder reproduce --out OUT` then reuses, adding the peers, figures and report.
#pragma once
#include <string>
#include <vector>

namespace ladder::cli {

struct MergeOutcome {
  bool complete = false;
  std::vector<std::string> missing;  // one line per missing or incomplete shard
  std::vector<std::string> written;  // the files written
  std::size_t runs = 0;              // the runs they hold
};

// Merges the shard files given (a folder stands for every .json file under it) into `out`: a
// file for the shards of one config, a folder for the shards of a reproduction. Shards that do
// not belong together (other commits, configs, scales, splits or GPU models, an index given
// twice) or a file that is not a shard's results throw InputError before anything is written.
// Files are written even when shards are missing, marked incomplete.
MergeOutcome merge_shards(const std::string& out, const std::vector<std::string>& inputs);

// `merge --processes OUT FILE...` (merge_processes.cpp): one-process results files of one config
// joined into one K-process file; a folder stands for its .json files. Returns the exit status.
int merge_process_files(const std::vector<std::string>& positional);

// The folder a reproduction's shard K of N writes in, under its reproduction folder.
std::string shard_folder(const std::string& dir, std::size_t index, std::size_t count);

}  // namespace ladder::cli
