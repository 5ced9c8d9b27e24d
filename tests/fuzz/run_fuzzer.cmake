# Runs one fuzz target for SECONDS from a fresh corpus folder CORPUS (where
# libFuzzer keeps what it finds), seeded from SEEDS (folders, read only; the
# target's regressions among them). Fails on any finding.
#   cmake -DFUZZER=... -DCORPUS=... "-DSEEDS=a;b" -DSECONDS=20 -P run_fuzzer.cmake
file(REMOVE_RECURSE ${CORPUS})
file(MAKE_DIRECTORY ${CORPUS})
set(seeds)
foreach(folder ${SEEDS})
  if(IS_DIRECTORY ${folder})  # a target without regressions has no folder for them
    list(APPEND seeds ${folder})
  endif()
endforeach()
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=60 -rss_limit_mb=4096 -max_len=65536
          -print_final_stats=1 ${CORPUS} ${seeds}
  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${output}")
message("${FUZZER}: ${runs}")
file(REMOVE_RECURSE ${CORPUS})
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${code}):\n${output}")
endif()
