# The process as the sample (harness/processes.hpp): `run --processes K`, `merge --processes`
# and `ab`, through the real binary with CPU steps (processes.py says what each case checks),
# and their bad input refused with one line and exit 2 before anything is created.

if(Python3_Interpreter_FOUND)
  foreach(case run_three run_cpus run_interrupt merge_three merge_mismatch ab_two_copies ab_interrupt)
    add_test(NAME cli.processes.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/processes.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.processes.${case} PROPERTIES TIMEOUT 300 LABELS cli)
  endforeach()
endif()

# --- run --processes K [--cpus LIST] ------------------------------------------------------------
ladder_bad(processes_zero           "--processes 0"   -- run ${FIX}/ok.json --out out.json --processes 0)
ladder_bad(processes_too_many       "1000"            -- run ${FIX}/ok.json --out out.json --processes 1001)
ladder_bad(processes_not_number     "'three'"         -- run ${FIX}/ok.json --out out.json --processes three)
ladder_bad(processes_with_gpus      "--gpus"          -- run ${FIX}/ok.json --out out.json --processes 2 --gpus all)
ladder_bad(processes_with_shard     "--shard"         -- run ${FIX}/ok.json --out out.json --processes 2 --shard 0/2)
ladder_bad(processes_with_runs      "--runs"          -- run ${FIX}/ok.json --out out.json --processes 2 --runs 0)
ladder_bad(processes_with_profile   "--profile"       -- run ${FIX}/ok.json --out out.json --processes 2 --profile)
ladder_bad(processes_with_dump      "--dump-outputs"
           -- run ${FIX}/ok.json --out out.json --processes 2 --dump-outputs dumps)
ladder_bad(processes_with_costs     "--costs"
           -- run ${FIX}/ok.json --out out.json --processes 2 --costs ${FIX}/ok.json)
ladder_bad(processes_bad_config     "no_such"         -- run ${FIX}/no_such.json --out out.json --processes 2)
ladder_bad(processes_bad_filter     "nothing"
           -- run ${FIX}/ok.json --out out.json --processes 2 --filter "^dtw/nothing$")
ladder_bad(processes_parts_in_way   "in the way"      --mkdir out.processes
           -- run ${FIX}/ok.json --out out.json --processes 2)
ladder_bad(cpus_without_processes   "--processes"     -- run ${FIX}/ok.json --out out.json --cpus 0)
ladder_bad(cpus_not_a_list          "0-3,8"           -- run ${FIX}/ok.json --out out.json --processes 2 --cpus x)
ladder_bad(cpus_twice               "twice"           -- run ${FIX}/ok.json --out out.json --processes 2 --cpus 0,0)
ladder_bad(cpus_not_ours            "CPU 1023"        -- run ${FIX}/ok.json --out out.json --processes 2 --cpus 1023)
ladder_bad(cpus_with_gpus_only      "--processes"     -- run ${FIX}/ok.json --out out.json --gpus all --cpus 0)

# --- merge --processes OUT FILE... ----------------------------------------------------------------
ladder_bad(merge_processes_no_file  "FILE"            -- merge --processes out.json)
ladder_bad(merge_processes_not_results "schema_version" -- merge --processes out.json ${FIX}/ok.json)
ladder_bad(merge_processes_newer_schema "schema_version is 3"
           -- merge --processes out.json ${FIX}/h3_schema_3.json)

# --- ab BIN_A BIN_B CONFIG --processes K -------------------------------------------------------
ladder_bad(ab_one_process           "--processes 1"
           -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --processes 1 --out abdir)
ladder_bad(ab_without_processes     "--processes"     -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --out abdir)
ladder_bad(ab_bin_not_executable    "BIN_B"
           -- ab ${LADDER} ${FIX}/ok.json ${FIX}/ok.json --processes 2 --out abdir)
ladder_bad(ab_bin_missing           "BIN_A"
           -- ab no_such_ladder ${LADDER} ${FIX}/ok.json --processes 2 --out abdir)
ladder_bad(ab_bin_not_ladder        "not a ladder"
           -- ab ${LADDER} ${LADDER_BASH} ${FIX}/ok.json --processes 2 --out abdir)
ladder_bad(ab_dir_not_empty         "not an empty folder" --mkdir abdir --copy ${FIX}/ok.json abdir/x.json
           -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --processes 2 --out abdir)
ladder_bad(ab_unknown_option        "--shard"
           -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --processes 2 --out abdir --shard 0/2)
ladder_bad(ab_bad_seed              "seed"
           -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --processes 2 --out abdir --seed -4)
ladder_bad(ab_bad_config            "no_such"
           -- ab ${LADDER} ${LADDER} ${FIX}/no_such.json --processes 2 --out abdir)
ladder_bad(ab_two_positionals       "CONFIG"          -- ab ${LADDER} ${FIX}/ok.json --processes 2 --out abdir)
ladder_bad(ab_bad_plant             "RE:FACTOR"
           -- ab ${LADDER} ${LADDER} ${FIX}/ok.json --processes 2 --out abdir --plant slow)
