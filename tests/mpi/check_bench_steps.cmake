# `hetscale bench steps` on three ranks (emulated speeds 1, 0.5, 0.25), ge's
# steps and mm's products: one cost per size asked, each step's time its
# computation plus its overhead, the kernel and settings written beside them;
# the file reads back (`scale predict --step-costs` names it when its rank
# count is not the sweep's). A speed above 1 or an unknown kernel is bad
# input on every rank. How long a step takes depends on what
# else the machine runs: not checked here.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")

# KERNEL's steps at sizes FIRST and SECOND into OUT, checked.
function(check_steps kernel first second out)
  execute_process(COMMAND ${run} 3 ${HETSCALE} bench steps --kernel ${kernel} --sizes ${first},${second} ${ARGN}
                          --speeds 1,0.5,0.25 --marked-speeds 1000,500,250 --out ${out}
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "bench steps --kernel ${kernel} failed (${code}):\n${stdout}\n${stderr}")
  endif()
  file(READ ${out} costs)
  string(JSON schema GET "${costs}" schema)
  string(JSON written_kernel GET "${costs}" kernel)
  string(JSON ranks GET "${costs}" ranks)
  string(JSON count LENGTH "${costs}" costs)
  if(NOT schema STREQUAL "hetscale.step-costs/1" OR NOT written_kernel STREQUAL kernel OR NOT ranks EQUAL 3
     OR NOT count EQUAL 2)
    message(FATAL_ERROR "schema '${schema}', kernel '${written_kernel}', ${ranks} ranks, ${count} costs:\n${costs}")
  endif()
  foreach(i 0 1)
    string(JSON length GET "${costs}" costs ${i} length)
    string(JSON step GET "${costs}" costs ${i} step_seconds)
    string(JSON computation GET "${costs}" costs ${i} computation_seconds)
    string(JSON overhead GET "${costs}" costs ${i} overhead_seconds)
    if(i EQUAL 0 AND NOT length EQUAL first OR i EQUAL 1 AND NOT length EQUAL second)
      message(FATAL_ERROR "${kernel}: cost ${i} is at size ${length}")
    endif()
    if(NOT step GREATER 0 OR NOT computation GREATER 0)
      message(FATAL_ERROR "${kernel}: cost ${i}: step ${step} s, computation ${computation} s")
    endif()
    # step = computation + overhead (to the digits written)
    execute_process(COMMAND python3 -c "import sys; s, c, o = map(float, sys.argv[1:]); sys.exit(abs(s - c - o) > 1e-9 * max(s, 1e-9))"
                            ${step} ${computation} ${overhead} RESULT_VARIABLE sums)
    if(NOT sums EQUAL 0)
      message(FATAL_ERROR "${kernel}: cost ${i}: step ${step} is not computation ${computation} + overhead ${overhead}")
    endif()
  endforeach()
endfunction()

check_steps(ge 20 60 ${WORK_DIR}/steps.json --steps 30)
check_steps(mm 40 120 ${WORK_DIR}/steps-mm.json --steps 5)

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

execute_process(COMMAND ${run} 2 ${HETSCALE} bench steps --kernel lu --sizes 20
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 2 OR NOT stderr MATCHES "--kernel: unknown kernel 'lu'; allowed: ge, mm")
  message(FATAL_ERROR "bench steps --kernel lu: exit ${code}\n${stdout}\n${stderr}")
endif()
