# Third hostile set: the surfaces added since the second (merge, shards, costs, profile, ingest,
# export, peers, figures, Slurm). Each file holds the cases of its causes beside the others of
# its kind; a case fails on the code before its fix, with the exit status and one stderr line.
include(${CLI_DIR}/hostile3_usage.cmake)     # options, regular expressions, --runs, CUDA start
include(${CLI_DIR}/hostile3_shards.cmake)    # merge, shard folders, costs
include(${CLI_DIR}/hostile3_outputs.cmake)   # compare, export, profile, what reaches the terminal
include(${CLI_DIR}/hostile3_gen.cmake)       # what gen writes and estimates
