# Second hostile set: the command line, compare, export and reproduce (see the heading in
# CMakeLists.txt). Fixtures are tests/cli/fixtures/hc_*; the cases that must succeed, or that
# need names no fixture can hold (quotes, newlines, links), are in hostile_cli.py.

# --- reproduce checks every config's data before anything is created (cause 6) ---------------
# The second config's data file is missing, or holds NaN: refused before out/, a results file
# or .partial/ exist (the reproduction's folder is out.json, which must not appear).
ladder_bad(reproduce_later_data_missing no_such_series
           -- reproduce --configs ${FIX}/hc_repro_late_missing --scale paper --no-peers --out out.json)
ladder_bad(reproduce_later_data_nan nan
           -- reproduce --configs ${FIX}/hc_repro_late_nan --scale paper --no-peers --out out.json)

# --- what reproduce finds in its folder (cause 1) -------------------------------------------
# A directory where a results file, the manifest or the report goes, and .partial as a plain
# file: refused up front, with one line (nothing is created or removed).
ladder_bad(reproduce_results_is_a_directory "directory" --mkdir repro/hc-one.json
           -- reproduce --configs ${FIX}/hc_repro_one --scale paper --no-peers --out repro)
ladder_bad(reproduce_report_is_a_directory "REPORT.md" --mkdir repro/REPORT.md
           -- reproduce --configs ${FIX}/hc_repro_one --scale paper --no-peers --out repro)
ladder_bad(reproduce_claims_is_a_directory "claims.json" --mkdir repro/claims.json
           -- reproduce --configs ${FIX}/hc_repro_one --scale paper --no-peers --out repro)
ladder_bad(reproduce_partial_is_a_file ".partial" --copy ${FIX}/ok.json .partial
           -- reproduce --configs ${FIX}/hc_repro_one --scale paper --no-peers --out .)

# --- --python is checked by what it prints (cause 5) ------------------------------------------
ladder_bad(reproduce_python_true     /bin/true
           -- reproduce --configs ${FIX}/hc_repro_one --no-peers --python /bin/true --out out.json)
ladder_bad(reproduce_python_false    /bin/false
           -- reproduce --configs ${FIX}/hc_repro_one --no-peers --python /bin/false --out out.json)

# --- --dump-outputs checked up front (cause 8) ------------------------------------------------
# Under a file: neither the dump folder nor the new --out folder may be left behind.
ladder_bad(dump_outputs_under_a_file_new_out ok.json
           -- run ${FIX}/ok.json --out newdir/out.json --dump-outputs ${FIX}/ok.json/sub)
# A folder nobody can write in (not even root: /proc is not a file system of files): refused
# before the first run, not after every run was timed.
ladder_bad(dump_outputs_unwritable  /proc/self
           -- run ${FIX}/ok.json --out out.json --dump-outputs /proc/self --quiet)
ladder_bad(dump_outputs_readonly    readonly.d --readonly readonly.d
           -- run ${FIX}/ok.json --out out.json --dump-outputs readonly.d/dumps --quiet)
ladder_bad(dump_outputs_empty       dump-outputs
           -- run ${FIX}/ok.json --out out.json --dump-outputs "")

# --- figures must be ones the study draws (cause 9) --------------------------------------------
ladder_bad(figures_unknown_name     dtw_papr     -- run ${FIX}/hc_figure_unknown.json --out out.json)
ladder_bad(figures_of_another_study twed_paper   -- run ${FIX}/hc_figure_other_study.json --out out.json)
ladder_bad(sweep_figures_unknown    length_sweep -- run ${FIX}/hc_sweep_figure_unknown.json --out out.json)
ladder_bad(reproduce_figures_unknown dtw_length
           -- reproduce --configs ${FIX}/hc_repro_bad_figure --no-peers --out out.json)

# --- an output that is one of the inputs (cause 10) -------------------------------------------
# Each input is a copy in the case's own folder; its size is checked unchanged afterwards.
ladder_bad(export_over_its_input    r.json --copy ${FIX}/hc_results.json r.json
           -- export --csv r.json --out r.json)
ladder_bad(export_over_its_input_link r.json --copy ${FIX}/hc_results.json r.json
           --symlink link.json r.json -- export --csv r.json --out link.json)
ladder_bad(run_over_its_config      c.json --copy ${FIX}/ok.json c.json -- run c.json --out c.json)
ladder_bad(run_over_its_config_link c.json --copy ${FIX}/ok.json c.json --symlink l.json c.json
           -- run c.json --out l.json)
ladder_bad(run_over_its_data_file   hc_series.tsv --copy ${FIX}/hc_data_config.json c.json
           --copy ${FIX}/hc_series.tsv hc_series.tsv -- run c.json --out hc_series.tsv)
ladder_bad(gen_over_its_b_file      b.tsv --copy ${FIX}/good.tsv b.tsv
           -- gen twed --generator random_walk --n 5 --b_file b.tsv --out b.tsv)
ladder_bad(reproduce_over_its_config one.json --mkdir cfg/dtw --copy ${FIX}/hc_repro_one/dtw/one.json cfg/dtw/hc-one.json
           -- reproduce --configs cfg --scale paper --no-peers --out cfg/dtw)

# --- --help on every command (cause 15) ---------------------------------------------------------
foreach(cmd gen "gen twed" "gen twed --n" run list)
  string(REPLACE " " "_" name "${cmd}")
  separate_arguments(words UNIX_COMMAND "${cmd}")
  add_test(NAME cli.help.${name} COMMAND ${LADDER} ${words} --help)
  set_tests_properties(cli.help.${name} PROPERTIES TIMEOUT 30 LABELS cli
                       PASS_REGULAR_EXPRESSION "usage: ladder")
endforeach()

# --- cases that succeed or need names no fixture holds ----------------------------------------
# compare keeps a repeated point and a point named "p #2" apart (cause 11); reproduce reruns a
# config whose results file is not to be trusted, says why, and survives a damaged cost table
# (cause 1), whose times weigh the estimate and the results archive's never do; no shell: folders named with quotes, spaces, $, backticks and newlines (cause 2);
# a fake Python that writes no report (cause 5); a dump name for a long b_file (cause 8); the
# figures the binary knows are the ones plots/ draws (cause 9).
if(Python3_Interpreter_FOUND)
  foreach(case compare_repeated_point reproduce_untrusted_results reproduce_damaged_cost_table
               reproduce_cost_table reproduce_shell_names reproduce_project_quote reproduce_fake_python
               dump_long_b_file figures_match_plots)
    add_test(NAME cli.hostile.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile_cli.py ${LADDER} ${SCRATCH} ${case})
    set_tests_properties(cli.hostile.${case} PROPERTIES TIMEOUT 300 LABELS cli)
  endforeach()
  # Nine reproductions, a report each: room for a busy machine.
  set_tests_properties(cli.hostile.reproduce_damaged_cost_table PROPERTIES TIMEOUT 600)
else()
  message(WARNING "python3 not found: the cli.hostile.* tests are not registered")
endif()
