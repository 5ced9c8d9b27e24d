# Every record hetscale writes, hetscale reads back: each record-writing
# command runs REPEATS times and its output is analysed (run records by
# `hetscale analyze`, sweeps by `hetscale scale fit`). analyze refuses a node
# whose time exceeds t_par, so a record passes only if its t_par is the
# longest rank's elapsed time. The analysis of every run record must also hold
# a sound headline and diagnosis (tests/support/check_diagnosis.py).
#   cmake -DHETSCALE=... -DWRITERS=mpi -DRUN=mpiexec;flags;-n -DWORK_DIR=... -DREPEATS=5 -P check_records_read_back.cmake
#   cmake -DHETSCALE=... -DWRITERS=simulator -DPLATFORMS=tests/... -DWORK_DIR=... -DREPEATS=1 -P ...
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")

# name | ranks (- for no launcher) | arguments | the command that reads the record back
set(mpi_writers
  "kernel_ge|3|kernel ge --size 120 --speeds 1,0.5,0.25 --seed 1|analyze"
  "kernel_mm|3|kernel mm --size 120 --speeds 1,0.5,0.25 --seed 1|analyze"
  "kernel_conv|3|kernel conv --size 256 --speeds 1,0.5,0.25 --seed 1|analyze"
  "kernel_mc|3|kernel mc --size 5000 --speeds 1,0.5,0.25 --seed 1|analyze"
  "farm|3|farm --objective synthetic --eval-time 4 --time-scale 0.001 --population 8 --generations 2 --speeds 1,0.5|analyze"
  "sweep|3|scale sweep --kernel conv --sizes 32:128:32 --speeds 1,0.5,0.25 --marked-speeds 100,50,25|scale fit --sweep"
)
set(simulator_writers
  "simulate_farm|-|simulate farm --platform ${PLATFORMS}/cli/simulate/platform-small.json --policy adaptive --tasks-per-generation 12 --generations 3 --eval-time 2|analyze"
  "simulate_kernel_ge|-|simulate kernel ge --size 37 --hosts 3 --platform ${PLATFORMS}/smpi/platform-tiny.json|analyze"
  "simulate_kernel_mm|-|simulate kernel mm --size 40 --hosts slow-1,fast,mid,slow-2 --platform ${PLATFORMS}/smpi/platform-tiny.json|analyze"
  "simulate_sweep|-|simulate sweep --kernel conv --sizes 16:64:16 --hosts 3 --platform ${PLATFORMS}/smpi/platform-tiny.json|scale fit --sweep"
)
set(writers ${${WRITERS}_writers})
foreach(writer ${writers})
  string(REPLACE "|" ";" parts "${writer}")
  list(GET parts 0 name)
  list(GET parts 1 ranks)
  list(GET parts 2 arguments)
  list(GET parts 3 reader)
  separate_arguments(arguments UNIX_COMMAND "${arguments}")
  separate_arguments(reader UNIX_COMMAND "${reader}")
  foreach(repeat RANGE 1 ${REPEATS})
    set(record ${WORK_DIR}/${name}-${repeat}.json)
    if(ranks STREQUAL "-")
      set(launcher "")
    else()
      set(launcher ${run} ${ranks})
    endif()
    execute_process(COMMAND ${launcher} ${HETSCALE} ${arguments} --out ${record}
                    RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "${name} run ${repeat} failed (${code}):\n${stdout}\n${stderr}")
    endif()
    execute_process(COMMAND ${HETSCALE} ${reader} ${record}
                    RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "hetscale ${reader} refused what ${name} wrote in run ${repeat} (${code}):\n${stderr}")
    endif()
    if(reader STREQUAL "analyze")
      # The headline and the diagnosis of a measured run hold what they must.
      execute_process(COMMAND ${HETSCALE} analyze ${record} --json OUTPUT_FILE ${record}.analysis
                      RESULT_VARIABLE code ERROR_VARIABLE stderr)
      execute_process(COMMAND python3 ${CHECK_DIAGNOSIS} ${record}.analysis
                      RESULT_VARIABLE check ERROR_VARIABLE problems)
      if(NOT code EQUAL 0 OR NOT check EQUAL 0)
        message(FATAL_ERROR "the analysis of ${name} run ${repeat}:\n${stderr}${problems}")
      endif()
    endif()
  endforeach()
  message(STATUS "${name}: ${REPEATS} records written and read back")
endforeach()
