# Third hostile set (hostile3.cmake): cases of this area: merge, shard folders, costs.

# --- what merge reads: shards of one plan, each file for what it is -----------------------------
# A results file is refused naming the field amiss (cause 10: every one was "not a ladder
# results file (schema_version 1)"), by merge and by --costs alike.
ladder_bad(h3_results_run_lacks_study "runs[0] has no 'study'"
           -- merge out.json ${FIX}/h3_run_fields.json)
ladder_bad(h3_results_schema_3 "schema_version is 3" -- merge out.json ${FIX}/h3_schema_3.json)
ladder_bad(h3_costs_schema_3 "schema_version is 3"
           -- run ${FIX}/ok.json --shard 0/2 --costs ${FIX}/h3_schema_3.json --out out.json)
ladder_bad(h3_results_timing_median "runs[0]'s 'timing' has no numeric median"
           -- merge out.json ${FIX}/h3_timing_median.json)
# Shard files edited (run here, then changed): a plan's shards agree on runs_total, owners and
# who holds each run, within a bounded count (cause 4); the OUT of a merge is not in a folder it
# reads, two configs never share a file, and the exit status agrees with the file (cause 8); a
# shard is refused for what is wrong with it (cause 10); --costs holds times a run can take
# (cause 12). hostile3_shards.py says what each case edits.
if(Python3_Interpreter_FOUND)
  foreach(case runs_total_larger run_in_two_shards owners_differ count_huge bad_summary
               run_index_beyond out_inside_folder out_inside_reproduction safe_name_collision
               incomplete_flag_all_runs runless_shard_absent costs_wall_huge costs_wall_negative
               costs_wall_text costs_samples_huge)
    add_test(NAME cli.h3_shards.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile3_shards.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.h3_shards.${case} PROPERTIES TIMEOUT 300 LABELS cli)
  endforeach()
endif()

# --- reproduce --shard: DIR/shards/K-of-N/ is checked before anything is created --------------
# A file where a folder goes, or a folder where a results file goes, ended in "internal error:
# filesystem error" (exit 4) or after the runs (cause 8).
ladder_bad(h3_reproduce_shards_is_file "not a directory" --mkdir repro --copy ${FIX}/ok.json repro/shards
           -- reproduce --configs ${FIX}/reproduce --scale quick --shard 0/2 --out repro)
ladder_bad(h3_reproduce_shard_folder_is_file "not a directory" --mkdir repro/shards
           --copy ${FIX}/ok.json repro/shards/0-of-2
           -- reproduce --configs ${FIX}/reproduce --scale quick --shard 0/2 --out repro)
ladder_bad(h3_reproduce_shard_file_is_folder "in the way" --mkdir repro/shards/0-of-2/repro-fast.json
           -- reproduce --configs ${FIX}/reproduce --scale quick --shard 0/2 --out repro)
ladder_bad(h3_reproduce_shard_partial_is_file "in the way" --mkdir repro/shards/0-of-2
           --copy ${FIX}/ok.json repro/shards/0-of-2/.partial
           -- reproduce --configs ${FIX}/reproduce --scale quick --shard 0/2 --out repro)
