# `hetscale farm` started without an MPI launcher runs serially and says so on
# one line of stderr, with how to start clients; with a launcher and one rank
# it says nothing. The summary names the synthetic objective's sleeping.
#   cmake -DHETSCALE=... "-DRUN=mpiexec;flags;-n" -P check_farm_without_launcher.cmake
set(arguments farm --time-scale 0.001 --population 4 --generations 1)
execute_process(COMMAND ${HETSCALE} ${arguments} RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "farm without a launcher exited ${code}:\n${stderr}")
endif()
if(NOT stderr MATCHES "^hetscale: farm: one process, no MPI launcher: the GA runs serially here, with no clients; for a farm start it as mpiexec -np N hetscale farm [^\n]*\n$")
  message(FATAL_ERROR "expected one line saying the farm runs serially, got:\n${stderr}")
endif()
if(NOT stdout MATCHES "^farm: policy adaptive\\+, 0 clients, objective synthetic \\(each evaluation sleeps 1 s x 0.001 / speed: no computation\\)")
  message(FATAL_ERROR "the summary should say the synthetic objective sleeps:\n${stdout}")
endif()
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")
execute_process(COMMAND ${run} 1 ${HETSCALE} ${arguments} RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0 OR NOT stderr STREQUAL "")
  message(FATAL_ERROR "farm under mpiexec on one rank: exit ${code}, stderr should be empty:\n${stderr}")
endif()
