# Third hostile set (hostile3.cmake): cases of this area.

# --- `--OPTION=` with nothing after the '=' (cause 1) -----------------------------------------
# CLI11 took the next word as the value: `--out= --quiet` wrote the results to a file named
# "--quiet", `reproduce --out= --no-peers` wrote into a folder "--no-peers" and ran the peers.
# Every option that takes a value, declared or open (gen's data parameters), is refused so.
set(SMOKE ${CMAKE_SOURCE_DIR}/configs/dtw/smoke.json)
ladder_bad(h3_run_out_empty_value       "option --out needs a value (FILE)"
           -- run ${FIX}/ok.json --out= --quiet)
ladder_bad(h3_run_filter_empty_value    "option --filter needs a value (RE)"
           -- run ${FIX}/ok.json --filter= --quiet --out out.json)
ladder_bad(h3_run_runs_empty_value      "option --runs needs a value (LIST)"
           -- run ${FIX}/ok.json --runs= --quiet --out out.json)
ladder_bad(h3_reproduce_out_empty_value "option --out needs a value (DIR)"
           -- reproduce --configs ${FIX}/hc_repro_one --scale paper --out= --no-peers)
ladder_bad(h3_export_out_empty_value    "option --out needs a value (FILE)"
           -- export ${FIX}/hc_results.json --out= --csv)
ladder_bad(h3_profile_into_empty_value  "option --into needs a value (RESULTS)"
           -- profile ${SMOKE} --into= --quiet)
ladder_bad(h3_gen_out_empty_value       "option --out needs a value (FILE)"
           -- gen dtw --n 8 --out= --json)
ladder_bad(h3_gen_param_empty_value     "option --n needs a value (VALUE)"
           -- gen dtw --n= --entries 4 --out out.json)
ladder_bad(h3_plan_costs_empty_value    "option --costs needs a value (FILE|DIR)"
           -- plan ${FIX}/ok.json --costs= --json)
ladder_bad(h3_ingest_out_empty_value    "option --out needs a value (FILE)"
           -- ingest ${FIX}/ok.json ${FIX}/ok.json --out= --quiet)
ladder_bad(h3_empty_value_last          "option --out needs a value (FILE)"
           -- run ${FIX}/ok.json --quiet --out=)

# --- std::regex on user-controlled text (cause 3) ----------------------------------------------
# std::regex matches recursively: a 100 KB --metrics name overflowed the stack (SIGSEGV). A name
# that is no metric is refused, and so is one shaped like a metric but longer than any is.
string(REPEAT "a" 100000 long_word)
ladder_bad(h3_profile_metrics_100k      "not an ncu metric name"
           -- profile ${SMOKE} --metrics "${long_word}" --out out.json)
ladder_bad(h3_profile_metrics_100k_shaped "longer than 200 characters"
           -- profile ${SMOKE} --metrics "sm__${long_word}" --out out.json)
# (A handover's 50,000-byte variant name is in hostile3_usage.py: it needs a handover.)

# --- --runs on a range far beyond the plan (cause 5) -------------------------------------------
# The range was expanded index by index (each looked up in a list): 0-1000000 spun for over 40 s
# before saying the plan has no such run. Now refused at once, also by profile.
ladder_bad(h3_runs_huge_range           "not 1000000" --time-limit 5
           -- run ${FIX}/ok.json --runs 0-1000000 --out out.json)
ladder_bad(h3_runs_widest_range         "not 999999999" --time-limit 5
           -- run ${FIX}/ok.json --runs 0-999999999,3 --out out.json)
ladder_bad(h3_profile_runs_huge_range   "not 1000000" --time-limit 5
           -- profile ${SMOKE} --runs 5,0-1000000 --out out.json)

# --- cases that need set-up (hostile3_usage.py) ------------------------------------------------
if(Python3_Interpreter_FOUND)
  foreach(case ingest_long_variant_name runs_ranges cuda_device_given cuda_reason_once device_hidden gpus_beyond)
    add_test(NAME cli.h3.usage.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile3_usage.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.h3.usage.${case} PROPERTIES TIMEOUT 300 LABELS cli SKIP_RETURN_CODE 77)
  endforeach()
endif()
