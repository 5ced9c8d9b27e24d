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

# The task farm's C++ API: a user's own tasks farmed out on MPI.
add_executable(example_task_farm ${HETSCALE_EXAMPLES}/task_farm.cpp)
target_link_libraries(example_task_farm PRIVATE hetscale::mpi)
foreach(ranks 1 4)
  add_test(NAME example.task_farm_np${ranks}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${HETSCALE_MPIEXEC_FLAGS} $<TARGET_FILE:example_task_farm>)
  set_tests_properties(example.task_farm_np${ranks} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "task_farm: 64 tasks on [0-9]+ clients: 33860 primes below 400000 \\(the serial count\\)")
endforeach()

# Sharing a user's rows by a functional performance model, from C.
add_executable(example_share_by_speed ${HETSCALE_EXAMPLES}/share_by_speed.c)
target_link_libraries(example_share_by_speed PRIVATE hetscale::mpi MPI::MPI_C)
add_test(NAME example.share_by_speed
  COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3 ${HETSCALE_MPIEXEC_FLAGS} $<TARGET_FILE:example_share_by_speed>
          ${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json 1500)
set_tests_properties(example.share_by_speed PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "share_by_speed: 1500 rows on 3 ranks: 792 444 264; predicted makespan 0.377143 s; every row once: yes")
add_test(NAME example.share_by_speed_bad_model
  COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${HETSCALE_MPIEXEC_FLAGS} $<TARGET_FILE:example_share_by_speed>
          ${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json 1500)
set_tests_properties(example.share_by_speed_bad_model PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}"
  TIMEOUT 60 PASS_REGULAR_EXPRESSION "share_by_speed: [^\n]*model-small.json: has 3 nodes for a communicator of 2 ranks")

# Sharing rows between each rank's cores and its device, from C: a speed
# model of cores and device measured here (bench fpm --device), then the
# hybrid program run by it; each row once and right, computed on the device.
if(TARGET hetscale_device_kernels)
  add_executable(example_host_device_rows ${HETSCALE_EXAMPLES}/host_device_rows.c)
  target_link_libraries(example_host_device_rows PRIVATE hetscale::mpi MPI::MPI_C hetscale_device_kernels
                        PkgConfig::OPENBLAS Threads::Threads)
  add_test(NAME example.host_device_rows
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DPROGRAM=$<TARGET_FILE:example_host_device_rows>
            -DSHARE_BY_SPEED=$<TARGET_FILE:example_share_by_speed> -DMPIEXEC=${MPIEXEC_EXECUTABLE}
            "-DMPIEXEC_FLAGS=${HETSCALE_MPIEXEC_FLAGS}" -DWORK=${CMAKE_CURRENT_BINARY_DIR}/host_device_rows
            -P ${CMAKE_CURRENT_SOURCE_DIR}/examples/check_host_device_rows.cmake)
  set_tests_properties(example.host_device_rows PROPERTIES
    ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT};OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1" TIMEOUT 120)
  # The same program under hetscale measure: a helper thread's offload, exact.
  measure_check(measure_offload_thread ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_offload_thread.py 300
    $<TARGET_FILE:example_host_device_rows> ${PROJECT_SOURCE_DIR}/tests/cli/partition/model-device.json)
endif()
