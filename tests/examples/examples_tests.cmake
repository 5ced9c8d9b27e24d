# The library's examples (examples/library), built here as a user builds them
# against an installed hetscale (same target names, tests/install), and run.
set(HETSCALE_EXAMPLES ${PROJECT_SOURCE_DIR}/examples/library)
add_executable(example_heterogeneous_efficiency ${HETSCALE_EXAMPLES}/heterogeneous_efficiency.cpp)
target_link_libraries(example_heterogeneous_efficiency PRIVATE hetscale::hetscale)
add_executable(example_distributed_kernel ${HETSCALE_EXAMPLES}/distributed_kernel.cpp)
target_link_libraries(example_distributed_kernel PRIVATE hetscale::mpi)

add_test(NAME example.heterogeneous_efficiency
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:example_heterogeneous_efficiency> -DWORKDIR=${PROJECT_SOURCE_DIR}
          -DEXPECT_CODE=0 -DGOLDEN=${HETSCALE_EXAMPLES}/heterogeneous_efficiency.txt -P ${CLI_CHECK})
add_test(NAME example.heterogeneous_efficiency_bad_speed
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:example_heterogeneous_efficiency> -DWORKDIR=${PROJECT_SOURCE_DIR}
          -DARGS=1,-1 -DEXPECT_CODE=2 "-DSTDERR_REGEX=^heterogeneous_efficiency: SPEEDS: .*-1.*\n$" -P ${CLI_CHECK})
add_test(NAME example.distributed_kernel
  COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${HETSCALE_MPIEXEC_FLAGS}
          $<TARGET_FILE:example_distributed_kernel>)
set_tests_properties(example.distributed_kernel PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "mm, N 96, 2 ranks: check passed ")

# The task farm's C++ API (issue 20): a user's own tasks farmed out on MPI.
add_executable(example_task_farm ${HETSCALE_EXAMPLES}/task_farm.cpp)
target_link_libraries(example_task_farm PRIVATE hetscale::mpi)
foreach(ranks 1 4)
  add_test(NAME example.task_farm_np${ranks}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${HETSCALE_MPIEXEC_FLAGS} $<TARGET_FILE:example_task_farm>)
  set_tests_properties(example.task_farm_np${ranks} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "task_farm: 64 tasks on [0-9]+ clients: 33860 primes below 400000 \\(the serial count\\)")
endforeach()
