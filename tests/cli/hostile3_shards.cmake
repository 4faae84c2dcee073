# Third hostile set (hostile3.cmake): cases of this area: merge, shard folders, costs.

# --- what merge reads: shards of one plan, each file for what it is -----------------------------
# A results file is refused naming the field amiss (cause 10: every one was "not a ladder
# results file (schema_version 1)"), by merge and by --costs alike.
ladder_bad(h3_results_run_lacks_study "runs[0] has no 'study'"
           -- merge out.json ${FIX}/h3_run_fields.json)
ladder_bad(h3_results_schema_2 "schema_version is 2" -- merge out.json ${FIX}/h3_schema_2.json)
ladder_bad(h3_costs_schema_2 "schema_version is 2"
           -- run ${FIX}/ok.json --shard 0/2 --costs ${FIX}/h3_schema_2.json --out out.json)
ladder_bad(h3_results_timing_median "runs[0]'s 'timing' has no numeric median"
           -- merge out.json ${FIX}/h3_timing_median.json)
