# Third hostile set (hostile3.cmake): cases of this area.

# --- what `ladder gen` writes reads back --------------------------------------------------------
# A generated EED alphabet over 94 symbols was written with tabs and control bytes as symbols,
# a file the reader then refused without a stated format. The widest alphabet a file holds is
# now 95 (the printable bytes: written and run back in hostile3_gen.py); a wider one is refused
# before anything is generated, naming that maximum, by `gen` and by `gen --config` (a peer's
# data).
ladder_bad(h3_gen_eed_alphabet_96 "at most 95" --match "96 symbols" --time-limit 10
           -- gen eed --alphabet 96 --out out.txt)
ladder_bad(h3_gen_eed_alphabet_200 "at most 95" --match "200 symbols" --time-limit 10
           -- gen eed --alphabet 200 --pairs 1000 --n 1000 --out sub/out.txt)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/h3_eed_alphabet_256.json
     "{\"study\": \"eed\", \"data\": {\"generator\": \"random_pairs\", \"seed\": 1}, \"axes\": {\"alphabet\": [26, 256]}, \"params\": {\"pairs\": 4, \"n\": 20}, \"variants\": [\"eed/seq\"]}\n")
ladder_bad(h3_gen_config_eed_alphabet_256 "at most 95" --match "256 symbols" --time-limit 10
           -- gen --config ${CMAKE_CURRENT_BINARY_DIR}/h3_eed_alphabet_256.json --point 1 --out out.txt)

if(Python3_Interpreter_FOUND)
  # The widest EED alphabet written, then run from the file; anticorrelated skyline points at
  # d = 64 generated (and run) within a minute on two threads.
  foreach(case eed_widest_alphabet skyline_gen_d64 skyline_run_d64)
    add_test(NAME cli.h3.gen.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile3_gen.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.h3.gen.${case} PROPERTIES TIMEOUT 120 LABELS cli)
  endforeach()
else()
  message(WARNING "python3 not found: the cli.h3.gen.* tests are not registered")
endif()
