# Second hostile set: see the heading in CMakeLists.txt. The data-file readers: every file is
# opened through datagen/data_file.hpp (a FIFO is refused before a byte is read), the EED
# reader reads the format it is told or one it cannot misread, SkyBench's trailing commas read,
# and a file in a layout no reader takes is named for what it is. Fixtures: fixtures/hr_*.

# --- a FIFO is refused, never waited on -----------------------------------------------------
# A named pipe with no writer: opening it to read would block forever. The test makes `pipe`
# in its working directory beside a link to the config, whose data paths are relative to the
# link's directory. TWED once opened the file to sniff its kind before any check (a hang for
# data.file, b_file and `gen twed --b_file`); the other readers are checked alike.
foreach(study twed twed_times twed_b_file dtw eed skyline)
  ladder_bad(hr_fifo_${study} "not a regular file" --time-limit 10 --fifo pipe
             --symlink cfg.json ${FIX}/hr_fifo_${study}.json
             -- run cfg.json --out out.json --quiet)
endforeach()
ladder_bad(hr_fifo_covariance_npy "not a regular file" --time-limit 10 --fifo pipe.npy
           --symlink cfg.json ${FIX}/hr_fifo_cov.json -- run cfg.json --out out.json --quiet)
ladder_bad(hr_fifo_gen_twed_b_file "not a regular file" --time-limit 10 --fifo pipe
           -- gen twed --generator random_walk --n 5 --b_file pipe --out out.npy)
ladder_bad(hr_fifo_config "not a regular file" --time-limit 10 --fifo pipe.json
           -- run pipe.json --out out.json --quiet)
# Through a link: the file opened is what the link names.
ladder_bad(hr_fifo_twed_via_link "not a regular file" --time-limit 10 --fifo pipe
           --symlink data.tsv pipe --symlink cfg.json ${FIX}/hr_fifo_twed_link.json
           -- run cfg.json --out out.json --quiet)

# --- the EED reader's format is stated or cannot be wrong ------------------------------------
# "abc<TAB>abd\nxy<BEL>z<TAB>qq\n" was read as one pair (the control byte switched the file to
# the line format, tabs becoming symbols); it is ambiguous, so it is refused with its line and
# the advice to state the format. So is a NUL in a tab-separated file, and a file with tabs
# that are not one on every line (control bytes or not).
ladder_bad(hr_eed_control_byte_in_tsv "line 2" --match format --match tsv
           -- run ${FIX}/hr_eed_bel_auto.json --out out.json --quiet)
ladder_bad(hr_eed_nul_in_tsv "line 2" --match format --ascii
           -- run ${FIX}/hr_eed_nul_auto.json --out out.json --quiet)
ladder_bad(hr_eed_tabs_mixed_binary "line 1" --match "2 tabs" --match format
           -- run ${FIX}/hr_eed_tabs_mixed_binary.json --out out.json --quiet)
# A UTF-8 byte-order mark is refused as by every other text reader (it was three symbols),
# whatever the format.
ladder_bad(hr_eed_bom "byte-order mark" -- run ${FIX}/hr_eed_bom.json --out out.json --quiet)
ladder_bad(hr_eed_bom_tsv "byte-order mark" -- run ${FIX}/hr_eed_bom_tsv.json --out out.json --quiet)
ladder_bad(hr_eed_bom_lines "byte-order mark"
           -- run ${FIX}/hr_eed_bom_lines.json --out out.json --quiet)
# A stated format is held to: a line without its tab in a 'tsv' file.
ladder_bad(hr_eed_tsv_missing_tab "line 2" --match "no tab" --match tsv
           -- run ${FIX}/hr_eed_tsv_missing_tab.json --out out.json --quiet)
ladder_bad(hr_eed_format_unknown format --match csv
           -- run ${FIX}/hr_eed_format_unknown.json --out out.json --quiet)
# Generated pairs have no file layout: the parameter is refused rather than ignored.
ladder_bad(hr_eed_format_generated format
           -- run ${FIX}/hr_eed_format_generated.json --out out.json --quiet)

# --- SkyBench's trailing comma ----------------------------------------------------------------
# Every line ending in one comma reads (cli.hostile_readers.skybench*); one line without it, or
# only one line with it, is refused with its line; an empty field is refused wherever it is.
ladder_bad(hr_skybench_missing_comma "line 3" --match "does not end in a comma"
           -- run ${FIX}/hr_skybench_missing_comma.json --out out.json --quiet)
ladder_bad(hr_skybench_one_comma "line 3" --match "ends in a comma"
           -- run ${FIX}/hr_skybench_one_comma.json --out out.json --quiet)
ladder_bad(hr_skybench_empty_middle "line 2 column 2" --match empty
           -- run ${FIX}/hr_skybench_empty_middle.json --out out.json --quiet)
ladder_bad(hr_skybench_two_commas "line 2 column 4" --match empty
           -- run ${FIX}/hr_skybench_two_commas.json --out out.json --quiet)

# --- a file in a layout no reader takes is named for what it is ------------------------------
# Semicolons and quoted numbers were answered "a header is only allowed as line 1" (skyline) or
# with the field they tripped on (UCR). (The messages say "uses ';' as separator"; a ';' in a
# CMake argument would split it, so the cases match the words around it.)
ladder_bad(hr_skyline_semicolon "line 1" --match "as separator" --reject header
           -- run ${FIX}/hr_skyline_semicolon.json --out out.json --quiet)
ladder_bad(hr_skyline_semicolon_one_line "as separator" --reject header
           -- run ${FIX}/hr_skyline_semicolon_one_line.json --out out.json --quiet)
ladder_bad(hr_skyline_decimal_comma "line 2" --match "as separator" --match "decimal"
           -- run ${FIX}/hr_skyline_decimal_comma.json --out out.json --quiet)
ladder_bad(hr_skyline_quoted "line 1" --match "quoted numbers" --reject header
           -- run ${FIX}/hr_skyline_quoted.json --out out.json --quiet)
ladder_bad(hr_skyline_quoted_ids "line 2" --match "quoted numbers"
           -- run ${FIX}/hr_skyline_quoted_r.json --out out.json --quiet)
ladder_bad(hr_ucr_semicolon "line 1" --match "as separator"
           -- run ${FIX}/hr_ucr_semicolon.json --out out.json --quiet)
ladder_bad(hr_ucr_quoted "line 1" --match "quoted numbers"
           -- run ${FIX}/hr_ucr_quoted.json --out out.json --quiet)
# gzip, by its magic bytes, whatever the reader: it was "not a text file", or not a .npy file.
foreach(case twed_idx_gz ucr_gz twed_ucr_gz skyline_gz eed_gz cov_npy_gz twed_npy_gz
             skyline_npy_gz)
  ladder_bad(hr_${case} "gzip-compressed" --match gunzip --ascii
             -- run ${FIX}/hr_${case}.json --out out.json --quiet)
endforeach()
ladder_bad(hr_config_gz "gzip-compressed" --match gunzip
           -- run ${FIX}/hr_config.json.gz --out out.json --quiet)

# --- what must read -----------------------------------------------------------------------------
# SkyBench's layout (with and without ids) runs and matches a skyline computed in the script;
# the BEL file reads as two pairs with format tsv or a .tsv name, as one with format lines
# (distances checked); `ladder list` names the format parameter.
if(Python3_Interpreter_FOUND)
  foreach(case skybench skybench_ids eed_tsv eed_tsv_name eed_lines)
    add_test(NAME cli.hostile_readers.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile_readers.py ${LADDER} ${SCRATCH}
                     ${case})
    set_tests_properties(cli.hostile_readers.${case} PROPERTIES TIMEOUT 120 LABELS cli)
  endforeach()
  # The same file through every GPU step: skipped (77) without a device.
  add_test(NAME cli.hostile_readers.skybench_gpu
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile_readers.py ${LADDER} ${SCRATCH} skybench_gpu)
  set_tests_properties(cli.hostile_readers.skybench_gpu PROPERTIES TIMEOUT 120 LABELS "cli;gpu"
                       SKIP_RETURN_CODE 77)
endif()
add_test(NAME cli.hostile_readers.list_eed_format COMMAND ${LADDER} list --json)
set_tests_properties(cli.hostile_readers.list_eed_format PROPERTIES TIMEOUT 60 LABELS cli
                     PASS_REGULAR_EXPRESSION "layout of a data file: tsv [^\n]*, lines [^\n]* or auto")
