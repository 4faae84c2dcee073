# Second hostile set, generation and memory (included from CMakeLists.txt, which defines
# ladder_bad, FIX, SCRATCH and LADDER).
#
# --- memory: inputs, outputs and reference estimated for every study ------------------------
# Each point's host memory is estimated before anything is built or read: the inputs, the
# output twice (a step's own and the fetched copy) and the reference values with their indices
# (harness/memory.hpp). The refusal names the point and each part. The binary runs under a
# 32 GiB address-space limit so that the answer does not depend on the machine (at most half
# of the smaller of that and its memory may be used), and must answer within 10 s: nothing is
# generated first.
#
# A TWED batch of 40,000 generated series: 1.6e9 float64 distances, 12.8 GB each copy (it was
# once a run error "out of host memory", exit 1, after the data had been generated).
ladder_bad(hg_twed_batch_40000      "outputs 25.6 GB" --match "reference 25.6 GB"
           --match "mode=batch" --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_twed_batch_40000.json --out out.json --quiet)
# Sampled validation keeps the reference small; the outputs alone still do not fit.
ladder_bad(hg_twed_batch_40000_sampled "outputs 25.6 GB" --reject "reference 25.6 GB"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_twed_batch_40000.json --validate sample:100 --out out.json --quiet)
# The triangle mode writes the whole matrix too; validation off leaves no reference.
ladder_bad(hg_twed_triangle_40000   "outputs 25.6 GB" --match "reference 0 B"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_twed_triangle_40000.json --out out.json --quiet)
# --dump-outputs writes each output from a third copy.
ladder_bad(hg_twed_triangle_40000_dump "outputs 38.4 GB" --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_twed_triangle_40000.json --dump-outputs dumps --out out.json --quiet)
# The same batch from a data file of 40,000 one-value series (160 kB, written here): the file
# is read (its size allows it), then the point is refused with the figure before any run (it
# once ended in "out of host memory while reading the input", a claim it did not know).
string(REPEAT "1\t0.5\n" 40000 forty_thousand_series)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/hg_40000_series.tsv "${forty_thousand_series}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/hg_twed_file_batch.json
     "{\"study\": \"twed\", \"data\": {\"file\": \"hg_40000_series.tsv\"}, \"params\": {\"mode\": \"batch\"}, \"repetitions\": 1, \"warmup\": 0}\n")
ladder_bad(hg_twed_file_batch_40000 "outputs 25.6 GB" --match "reference 25.6 GB"
           --time-limit 10 --as-limit 33554432
           -- run ${CMAKE_CURRENT_BINARY_DIR}/hg_twed_file_batch.json --out out.json --quiet)
# DTW, the file's series against themselves: 1.6e9 float32 distances.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/hg_dtw_file_all_pairs.json
     "{\"study\": \"dtw\", \"data\": {\"file\": \"hg_40000_series.tsv\"}, \"params\": {\"queries\": 40000}, \"repetitions\": 1, \"warmup\": 0}\n")
ladder_bad(hg_dtw_file_all_pairs    "outputs 12.8 GB" --match "reference 25.6 GB"
           --time-limit 10 --as-limit 33554432
           -- run ${CMAKE_CURRENT_BINARY_DIR}/hg_dtw_file_all_pairs.json --out out.json --quiet)
# The other studies, generated: DTW a set against itself, covariance at the most features, EED
# at the most pairs (the strings are staged twice for a GPU step), skyline at the most points.
ladder_bad(hg_dtw_all_pairs         "outputs 720 GB" --match "reference 1.44 TB"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/dtw_all_pairs_too_big.json --out out.json --quiet)
ladder_bad(hg_cov_features          "outputs 8.59 GB" --match "reference 17.2 GB"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/cov_max_features.json --out out.json --quiet)
ladder_bad(hg_eed_many_pairs        "inputs 18.3 GB" --match "outputs 537 MB"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_eed_many_pairs.json --out out.json --quiet)
ladder_bad(hg_skyline_max_points    "outputs 17.2 GB" --match "inputs 34.4 GB"
           --time-limit 10 --as-limit 33554432
           -- run ${FIX}/hg_skyline_max_points.json --out out.json --quiet)
# `ladder gen` builds the data and nothing more: its refusal counts the inputs alone.
ladder_bad(hg_gen_skyline_max_points "inputs 34.4 GB" --reject outputs
           --time-limit 10 --as-limit 33554432
           -- gen skyline --n 2147483647 --d 2 --out out.npy)

# --- generation time: refused beyond 10 minutes, progress while it lasts --------------------
# A pilot of the generator (at most a second) estimates the time on this machine's threads;
# beyond the 10-minute limit a request is refused, by `gen` and by `run` (before any data or
# file is made); the unit tests (test_skyline_data) hold it to that. Anticorrelated points at
# d = 64 once took tens of milliseconds each, so that 10^6 of them were refused as hours of
# work; they are now drawn by an exact sampler in microseconds (hostile3_gen.py runs them).

if(Python3_Interpreter_FOUND)
  # Data files estimated from their size before they are read (a sparse file of 64 GB); a
  # covariance .npy of one row and 32,768 features refused from the data read; a point refused
  # under full validation runs under sample:N; progress lines while data is generated (`gen`,
  # `run`) and none with `run --quiet`.
  foreach(case file_size_before_reading cov_npy_outputs sample_runs progress_gen progress_run
          progress_quiet)
    add_test(NAME cli.hg.${case}
             COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/hostile_generation.py ${LADDER} ${SCRATCH}
                     ${case})
    set_tests_properties(cli.hg.${case} PROPERTIES TIMEOUT 120 LABELS cli)
  endforeach()
else()
  message(WARNING "python3 not found: the cli.hg.* tests are not registered")
endif()
