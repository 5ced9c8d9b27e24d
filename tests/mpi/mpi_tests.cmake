# What every test under mpiexec shares: the launcher's flags (many ranks on
# few cores), the environment (Open MPI as root; one BLAS thread per rank, as
# one process per processor wants), and the bad-input test.
include(${PROJECT_SOURCE_DIR}/cmake/mpiexec_flags.cmake)
set(HETSCALE_MPI_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1)

# mpi_bad_input_test(NAME RANKS EXPECTED ARGUMENTS [OUT_FILE]): hetscale run
# under mpiexec on RANKS ranks with ARGUMENTS (separated by |) must exit with
# code 2 and one line on stderr containing EXPECTED (no ; or ]: CMake lists),
# nothing on stdout, OUT_FILE not written, and no rank left running.
function(mpi_bad_input_test name ranks expected arguments)
  set(out_file_definition "")
  if(ARGC GREATER 4)
    set(out_file_definition -DOUT_FILE=${ARGV4})
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND}
      -DHETSCALE=$<TARGET_FILE:hetscale_cli>
      -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP_FLAG=${MPIEXEC_NUMPROC_FLAG} "-DFLAGS=${HETSCALE_MPIEXEC_FLAGS}"
      -DRANKS=${ranks} "-DARGS=${arguments}" "-DEXPECTED=${expected}" ${out_file_definition}
      -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/check_mpi_bad_input.cmake)
  # No hang: every rank must exit well within the limit.
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 60)
endfunction()

# mpi_bad_input_cases(PREFIX P LEADING "A|B" [WORKING_DIRECTORY D] CASES
# "name|expected|argument|argument..." ...): one mpi_bad_input_test named
# P_name per case, on 4 ranks: hetscale A B --out OUT and the case's
# arguments, where OUT (in the build folder) must not be written.
function(mpi_bad_input_cases)
  cmake_parse_arguments(PARSE_ARGV 0 bad "" "PREFIX;LEADING;WORKING_DIRECTORY" "CASES")
  foreach(case ${bad_CASES})
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 expected)
    list(SUBLIST parts 2 -1 arguments)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${bad_PREFIX}_${name}.json)
    string(REPLACE ";" "|" arguments "--out;${out};${arguments}")
    mpi_bad_input_test(${bad_PREFIX}_${name} 4 "${expected}" "${bad_LEADING}|${arguments}" ${out})
    if(bad_WORKING_DIRECTORY)
      set_tests_properties(${bad_PREFIX}_${name} PROPERTIES WORKING_DIRECTORY ${bad_WORKING_DIRECTORY})
    endif()
  endforeach()
endfunction()
