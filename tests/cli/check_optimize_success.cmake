# The GA with its defaults (the memetic scheme) finds the exact optimum in at
# least 99 of 100 seeded runs: `optimize ... --solver ga --runs 100
# --json`, its success_rate read back. Seeded, so the same on any machine.
#   cmake -DHETSCALE=... -DWORKDIR=... "-DARGS=..." -P check_optimize_success.cmake
execute_process(COMMAND ${HETSCALE} optimize ${ARGS} --solver ga --runs 100 --json
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE code OUTPUT_VARIABLE json ERROR_VARIABLE errors)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "optimize exited ${code}: ${errors}")
endif()
string(JSON scheme GET "${json}" ga scheme)
string(JSON runs GET "${json}" runs)
string(JSON rate GET "${json}" success_rate)
string(JSON evaluations GET "${json}" evaluations_mean)
message("scheme ${scheme}: ${runs} runs, success rate ${rate}, ${evaluations} evaluations a run on average")
if(NOT scheme STREQUAL "memetic" OR NOT runs EQUAL 100 OR rate LESS 0.99)
  message(FATAL_ERROR "expected the memetic scheme to find the optimum in >= 99 of 100 runs")
endif()
