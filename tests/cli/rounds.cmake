# The sampling options of `run` (harness/sampling.hpp): --process-samples, --rounds, --blocked-start
# and --plant. Bad values are refused with one line and exit 2, nothing created; on a machine
# without a GPU (no GPU run to change) they are accepted and leave every CPU run's count as it was.

# --- bad values ------------------------------------------------------------------------------
ladder_bad(rounds_zero              "'--rounds' must be in [1" -- run ${FIX}/ok.json --out out.json --rounds 0)
ladder_bad(rounds_negative          "'--rounds' must be in [1" -- run ${FIX}/ok.json --out out.json --rounds -3)
ladder_bad(rounds_not_a_number      "'--rounds' must be an integer" -- run ${FIX}/ok.json --out out.json --rounds two)
ladder_bad(plant_without_colon      "give RE:FACTOR" -- run ${FIX}/ok.json --out out.json --plant dtw/shared)
ladder_bad(plant_without_regex      "give RE:FACTOR" -- run ${FIX}/ok.json --out out.json --plant :1.5)
ladder_bad(plant_factor_half        "at most 10, not 0.5" -- run ${FIX}/ok.json --out out.json --plant dtw/shared:0.5)
ladder_bad(plant_factor_one         "at most 10, not 1" -- run ${FIX}/ok.json --out out.json --plant dtw/shared:1)
ladder_bad(plant_factor_above_ten   "at most 10, not 11" -- run ${FIX}/ok.json --out out.json --plant dtw/shared:11)
ladder_bad(plant_factor_not_number  "FACTOR must be a number" -- run ${FIX}/ok.json --out out.json --plant dtw/shared:slow)
ladder_bad(plant_bad_regex          "not a valid regular expression" -- run ${FIX}/ok.json --out out.json --plant "dtw/(shared:1.5")
ladder_bad(rounds_with_profile      "--profile takes no samples" -- run ${FIX}/ok.json --out out.json --profile --rounds 2)
ladder_bad(plant_with_profile       "--profile takes no samples" -- run ${FIX}/ok.json --out out.json --profile --plant dtw:2)

# --- accepted on a CPU-only run ------------------------------------------------------------------
if(Python3_Interpreter_FOUND)
  add_test(NAME cli.rounds.cpu_counts
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/rounds.py ${LADDER} ${SCRATCH})
  set_tests_properties(cli.rounds.cpu_counts PROPERTIES TIMEOUT 300 LABELS cli)
endif()
