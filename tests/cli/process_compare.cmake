# The process-level measurement contract: compare's statistics and verdicts on K-process
# results files, --calibration, export --per-process and plan --advise (process_compare.py
# describes each case), and their bad options refused with one line and exit 2.
set(PC_BASE ${FIX}/process_compare_base.json)

# --- bad options --------------------------------------------------------------------------------
ladder_bad(compare_q_zero           "--q"        -- compare ${PC_BASE} ${PC_BASE} --q 0)
ladder_bad(compare_q_one            "--q"        -- compare ${PC_BASE} ${PC_BASE} --q 1)
ladder_bad(compare_q_not_number     "--q"        -- compare ${PC_BASE} ${PC_BASE} --q often)
ladder_bad(compare_q_nan            "--q"        -- compare ${PC_BASE} ${PC_BASE} --q nan)
ladder_bad(compare_min_effect_negative --min-effect -- compare ${PC_BASE} ${PC_BASE} --min-effect -1)
ladder_bad(compare_min_effect_hundred  --min-effect -- compare ${PC_BASE} ${PC_BASE} --min-effect 100)
ladder_bad(compare_min_effect_text  --min-effect -- compare ${PC_BASE} ${PC_BASE} --min-effect lots)
ladder_bad(compare_min_effect_missing_value --min-effect -- compare ${PC_BASE} ${PC_BASE} --min-effect)
ladder_bad(compare_calibration_missing no_such_dim.json
           -- compare ${PC_BASE} ${PC_BASE} --calibration ${FIX}/no_such_dim.json)
ladder_bad(compare_calibration_not_results ok.json -- compare ${PC_BASE} ${PC_BASE} --calibration ${FIX}/ok.json)
ladder_bad(compare_calibration_one_process --processes
           -- compare ${PC_BASE} ${PC_BASE} --calibration ${PC_BASE})
ladder_bad(export_per_process_csv   --per-process -- export ${PC_BASE} --csv --per-process)
ladder_bad(export_per_process_format_csv --per-process -- export ${PC_BASE} --format csv --per-process --out out.csv)
ladder_bad(plan_advise_one_process  --processes  -- plan --advise ${PC_BASE})
ladder_bad(plan_advise_missing      no_such_results.json -- plan --advise ${FIX}/no_such_results.json)
ladder_bad(plan_advise_with_config  CONFIG       -- plan ${FIX}/ok.json --advise ${PC_BASE})
ladder_bad(plan_advise_cost_ratio_zero --cost-ratio -- plan --advise ${PC_BASE} --cost-ratio 0)
ladder_bad(plan_advise_markdown_and_json --markdown -- plan --advise ${PC_BASE} --markdown --json)
ladder_bad(plan_markdown_without_advise --advise -- plan ${FIX}/ok.json --markdown)
ladder_bad(plan_cost_ratio_without_advise --advise -- plan ${FIX}/ok.json --cost-ratio 50)

# --- the contract on files built by the driver --------------------------------------------------
if(Python3_Interpreter_FOUND)
  foreach(case identical known shift noisy one_process calibration dim_tail drift heavy_tailed rounds_note
               gbench_per_process advise)
    add_test(NAME cli.process_compare.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/process_compare.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.process_compare.${case} PROPERTIES TIMEOUT 120 LABELS cli)
  endforeach()
else()
  message(WARNING "python3 not found: the cli.process_compare.* tests are not registered")
endif()

# The committed acceptance runs (results/reference/h200/development/acceptance/) recompared.
if(Python3_Interpreter_FOUND)
  add_test(NAME cli.process_compare.acceptance_files
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/acceptance_files.py ${LADDER})
  set_tests_properties(cli.process_compare.acceptance_files PROPERTIES TIMEOUT 300 LABELS cli)
endif()
