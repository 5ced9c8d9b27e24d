# `hetscale scale sweep` with a target on three heterogeneous ranks: the sweep
# record has every point checked, a trend line, an N for the target inside the
# swept range, and a verifying run there whose E_s is near the target.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")
execute_process(COMMAND ${run} 3 ${HETSCALE} scale sweep --kernel ge --sizes 40:240:40 --speeds 1,0.5,0.5
                        --marked-speeds 100,50,50 --target 0.02 --configuration C3 --out ${WORK_DIR}/sweep.json
                        --timings ${WORK_DIR}/timings.csv
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "sweep failed (${code}):\n${stdout}\n${stderr}")
endif()
file(READ ${WORK_DIR}/sweep.json sweep)
string(JSON points LENGTH "${sweep}" points)
if(NOT points EQUAL 6)
  message(FATAL_ERROR "expected 6 points, got ${points}")
endif()
string(JSON degree GET "${sweep}" trend degree)
string(JSON target_n GET "${sweep}" target N)
string(JSON verified_n GET "${sweep}" target verified N)
string(JSON verified_check GET "${sweep}" target verified check)
if(NOT degree EQUAL 2 OR target_n STREQUAL "null" OR NOT verified_check STREQUAL "passed")
  message(FATAL_ERROR "trend, target or verification missing:\n${sweep}")
endif()
file(STRINGS ${WORK_DIR}/timings.csv rows)
list(LENGTH rows count)
if(NOT count EQUAL 7)
  message(FATAL_ERROR "timings.csv should have a header and 6 rows:\n${rows}")
endif()
message(STATUS "target N ${target_n}, verified at ${verified_n}")
