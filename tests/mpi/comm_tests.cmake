# hetscale bench comm under mpiexec: 3 ranks and 5 (more than this machine's
# cores) write a profile that reads back with positive costs, the same on
# stdout with --json; bad input ends every rank with exit code 2, one line on
# stderr and no file written (check_mpi_bad_input.cmake).
set(comm_mpiexec
  -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DEXAMPLES=${PROJECT_SOURCE_DIR}/examples
  -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP_FLAG=${MPIEXEC_NUMPROC_FLAG} "-DFLAGS=${HETSCALE_MPIEXEC_FLAGS}")

foreach(ranks 3 5)
  add_test(NAME mpi_comm_profile_np${ranks}
    COMMAND ${CMAKE_COMMAND} ${comm_mpiexec}
      -DRANKS=${ranks} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/comm_np${ranks}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_comm.cmake)
  set_tests_properties(mpi_comm_profile_np${ranks} PROPERTIES
    ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 360 RUN_SERIAL TRUE)
endforeach()

# name | ranks | expected fragment of the one line on stderr | arguments
set(comm_bad_inputs
  "one_rank|1|mpiexec: bench comm needs at least 2 MPI ranks, got 1|"
  "sizes_not_numbers|3|--sizes: item 2: 'x' is not a number|--sizes 1,x"
  "sizes_fraction|3|--sizes: item 2: must be a whole number of doubles from 1 to 100000000, got 2.5|--sizes 1,2.5"
  "sizes_zero|3|--sizes: item 1: must be a whole number of doubles from 1 to 100000000, got 0|--sizes 0,10"
  "sizes_one|3|--sizes: needs two or more different message sizes to fit T_send = a + b N, got 1|--sizes 8,8"
  "repetitions_zero|3|--repetitions: must be a whole number >= 1, got 0|--repetitions 0"
  "min_seconds_negative|3|--min-seconds: must be >= 0, got -1|--min-seconds -1"
  "timing_unknown|3|--timing: unknown timing 'awake'|--timing awake"
  "platform_out_in_no_folder|2|/no-such-folder/platform.json: cannot be written: /no-such-folder|--platform-out /no-such-folder/platform.json"
)
foreach(case ${comm_bad_inputs})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 ranks)
  list(GET parts 2 expected)
  list(LENGTH parts fields)
  set(arguments "")
  if(fields GREATER 3)
    list(GET parts 3 arguments)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/comm_bad_${name}.json)
  string(REPLACE " " "|" arguments "bench comm ${arguments} --out ${out}")
  mpi_bad_input_test(mpi_comm_bad_input_${name} ${ranks} "${expected}" "${arguments}" ${out})
endforeach()
