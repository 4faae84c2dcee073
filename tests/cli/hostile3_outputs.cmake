# Third hostile set (hostile3.cmake): cases of this area.
# compare and export (causes 5, 7, 14), profile with an ncu that wrote no report (cause 9) and
# names from files on the terminal (cause 11); each case is described in hostile3_outputs.py.
if(Python3_Interpreter_FOUND)
  foreach(case compare_many_samples compare_known_p compare_csv_repeated_point
               gbench_sample_not_number gbench_median_only gbench_names_collide
               profile_no_report terminal_names)
    add_test(NAME cli.hostile3.outputs.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile3_outputs.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.hostile3.outputs.${case} PROPERTIES TIMEOUT 300 LABELS cli)
  endforeach()
else()
  message(WARNING "python3 not found: the cli.hostile3.outputs.* tests are not registered")
endif()
