# The command line itself (harness/cli/args.hpp): --version, --help on every command, both
# spellings of an option's value, and bad usage refused with one line and exit status 2.

# --- usage refused (one line, exit 2, nothing created) ------------------------------------------
ladder_bad(usage_no_command         command      --)
ladder_bad(usage_unknown_top_option --bogus      -- --bogus)
ladder_bad(usage_unknown_option_joined --fast    -- run ${FIX}/ok.json --out=out.json --fast=1)
ladder_bad(usage_single_dash_option -x           -- run ${FIX}/ok.json --out out.json -x)
ladder_bad(usage_joined_empty_value --filter     -- run ${FIX}/ok.json --out out.json --filter=)
ladder_bad(usage_flag_given_value   quiet        -- run ${FIX}/ok.json --out out.json --quiet=yes)
ladder_bad(usage_list_flag_value    json         -- list --json=1)
ladder_bad(usage_plan_missing_value --warmup     -- plan ${FIX}/ok.json --warmup)
ladder_bad(usage_plan_two_configs   config       -- plan ${FIX}/ok.json ${FIX}/ok.json)
ladder_bad(usage_after_double_dash  config       -- run ${FIX}/ok.json --out out.json -- --quiet)
ladder_bad(usage_compare_three_files results     -- compare ${FIX}/ok.json ${FIX}/ok.json ${FIX}/ok.json)
ladder_bad(usage_export_csv_value   csv          -- export --csv=yes ${FIX}/ok.json)
ladder_bad(usage_reproduce_missing_value --device -- reproduce --out out.json --device)
ladder_bad(usage_gen_param_missing_value --n     -- gen dtw --entries 5 --out out.json --n)
ladder_bad(usage_gen_param_bad_name "unknown option" -- gen dtw --n=16 --=5 --out out.json)
ladder_bad(usage_ingest_without_out --out        -- ingest ${FIX}/ok.json ${FIX}/ok.json)
ladder_bad(usage_ingest_one_file    handover     -- ingest ${FIX}/ok.json --out out.json)
ladder_bad(usage_ingest_unknown_option --filter  -- ingest ${FIX}/ok.json h.json --out out.json --filter x)

# --- --version, --help, option spellings, the docs -------------------------------------------
if(Python3_Interpreter_FOUND)
  foreach(case version overview docs forms.plan forms.run forms.gen
               help.list help.run help.plan help.gen help.ingest help.compare help.export
               help.reproduce help.merge help.ab)
    add_test(NAME cli.usage.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/usage.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.usage.${case} PROPERTIES TIMEOUT 60 LABELS cli
                         ENVIRONMENT "LADDER_EXPECTED_VERSION=${PROJECT_VERSION};LADDER_EXPECTED_COMMIT=${LADDER_GIT_COMMIT}")
  endforeach()
else()
  message(WARNING "python3 not found: the cli.usage.* tests are not registered")
endif()
