# `hetscale bench steps` on three ranks (emulated speeds 1, 0.5, 0.25): one
# cost per length asked, each step's time its computation plus its overhead,
# the settings written beside them; the file reads back (`scale predict
# --step-costs` names it when its rank count is not the sweep's). A speed
# above 1 is bad input on every rank. How long a step takes depends on what
# else the machine runs: not checked here.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")

execute_process(COMMAND ${run} 3 ${HETSCALE} bench steps --lengths 20,60 --steps 30 --speeds 1,0.5,0.25
                        --marked-speeds 1000,500,250 --out ${WORK_DIR}/steps.json
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench steps failed (${code}):\n${stdout}\n${stderr}")
endif()
file(READ ${WORK_DIR}/steps.json costs)
string(JSON schema GET "${costs}" schema)
string(JSON ranks GET "${costs}" ranks)
string(JSON count LENGTH "${costs}" costs)
if(NOT schema STREQUAL "hetscale.step-costs/1" OR NOT ranks EQUAL 3 OR NOT count EQUAL 2)
  message(FATAL_ERROR "schema '${schema}', ${ranks} ranks, ${count} costs:\n${costs}")
endif()
foreach(i 0 1)
  string(JSON length GET "${costs}" costs ${i} length)
  string(JSON step GET "${costs}" costs ${i} step_seconds)
  string(JSON computation GET "${costs}" costs ${i} computation_seconds)
  string(JSON overhead GET "${costs}" costs ${i} overhead_seconds)
  if(i EQUAL 0 AND NOT length EQUAL 20 OR i EQUAL 1 AND NOT length EQUAL 60)
    message(FATAL_ERROR "cost ${i} is at length ${length}")
  endif()
  if(NOT step GREATER 0 OR NOT computation GREATER 0)
    message(FATAL_ERROR "cost ${i}: step ${step} s, computation ${computation} s")
  endif()
  # step = computation + overhead (to the digits written)
  execute_process(COMMAND python3 -c "import sys; s, c, o = map(float, sys.argv[1:]); sys.exit(abs(s - c - o) > 1e-9 * max(s, 1e-9))"
                          ${step} ${computation} ${overhead} RESULT_VARIABLE sums)
  if(NOT sums EQUAL 0)
    message(FATAL_ERROR "cost ${i}: step ${step} is not computation ${computation} + overhead ${overhead}")
  endif()
endforeach()

execute_process(COMMAND ${HETSCALE} scale predict tests/cli/scale/emulated/sweep-ge-C2.json
                        tests/cli/scale/emulated/sweep-ge-C4.json
                        --step-costs tests/cli/scale/emulated/steps-C2.json,${WORK_DIR}/steps.json
                WORKING_DIRECTORY ${SOURCE_DIR}
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 2 OR NOT stderr MATCHES "steps.json: ranks: is 3 but tests/cli/scale/emulated/sweep-ge-C4.json ran on 4 processes")
  message(FATAL_ERROR "scale predict with 3-rank steps for a 4-rank sweep: exit ${code}\n${stdout}\n${stderr}")
endif()

execute_process(COMMAND ${run} 2 ${HETSCALE} bench steps --lengths 20 --speeds 1,1.5
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 2 OR NOT stderr MATCHES "--speeds: must be in \\(0, 1\\], got 1.5")
  message(FATAL_ERROR "bench steps --speeds 1,1.5: exit ${code}\n${stdout}\n${stderr}")
endif()
