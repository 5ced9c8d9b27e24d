# The scalability kernels under mpiexec: every kernel's numerical check
# against its serial reference (the exit code is 0 only if it passes), at
# several sizes and process counts (5 ranks: more than this machine's cores),
# with heterogeneous emulated speeds and marked speeds; sizes smaller than the
# process count leave some processes without rows. Then the sweep, the speed
# benchmark, and bad input ending every rank with exit code 2.
set(kernel_run ${MPIEXEC_EXECUTABLE} ${HETSCALE_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG})

# ranks | emulated speeds | marked speeds (Mflop/s)
set(kernel_configurations
  "1|1|1000"
  "3|1,0.5,0.25|1000,500,250"
  "5|0.5,0.25,0.5,0.125,0.25|400,250,500,100,300"
)
foreach(kernel ge mm conv mc)
  if(kernel STREQUAL "mc")
    set(sizes 7 5000)
  elseif(kernel STREQUAL "conv")
    set(sizes 3 30 64)
  else()
    set(sizes 3 37 120)
  endif()
  foreach(configuration ${kernel_configurations})
    string(REPLACE "|" ";" parts "${configuration}")
    list(GET parts 0 ranks)
    list(GET parts 1 speeds)
    list(GET parts 2 marked)
    foreach(size ${sizes})
      add_test(NAME mpi_kernel_${kernel}_np${ranks}_n${size}
        COMMAND ${kernel_run} ${ranks} $<TARGET_FILE:hetscale_cli> kernel ${kernel} --size ${size}
                --speeds ${speeds} --marked-speeds ${marked} --seed ${size})
      set_tests_properties(mpi_kernel_${kernel}_np${ranks}_n${size} PROPERTIES
        ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)
    endforeach()
  endforeach()
endforeach()

# A functional partition that leaves ranks without rows (the shipped models
# at N = 4): the ranks of 0 rows take part, the check passes, the record says 0.
foreach(kernel ge mm conv)
  if(kernel STREQUAL "ge")
    set(model ${PROJECT_SOURCE_DIR}/data/fpm/ge-order2000-emulated-1-0.5-0.25.json)
  else()
    set(model ${PROJECT_SOURCE_DIR}/data/fpm/mm-order500-emulated-1-0.5-0.25.json)
  endif()
  add_test(NAME mpi_kernel_${kernel}_fpm_rank_without_rows
    COMMAND ${kernel_run} 3 $<TARGET_FILE:hetscale_cli> kernel ${kernel} --size 4 --distribution fpm:${model}
            --speeds 1,0.5,0.25 --marked-speeds 1000,500,250)
  set_tests_properties(mpi_kernel_${kernel}_fpm_rank_without_rows PROPERTIES
    ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "check passed.*\\(rows\\): [0-9, ]*0(,|\n)")
endforeach()

# Marked speeds measured on the spot (no --marked-speeds), more ranks than cores.
add_test(NAME mpi_kernel_ge_measured_marked_speeds
  COMMAND ${kernel_run} 4 $<TARGET_FILE:hetscale_cli> kernel ge --size 90 --speeds 1,0.5,0.5,0.25
          --speed-seconds 0.05)
set_tests_properties(mpi_kernel_ge_measured_marked_speeds PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)

# bench speed with emulated speeds: a marked speed for every rank, and the
# platform files it writes read back (the speeds themselves: bench/emulated_speed).
add_test(NAME mpi_bench_speed_emulated
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> "-DRUN=${kernel_run}"
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/bench_speed -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_bench_speed.cmake)
set_tests_properties(mpi_bench_speed_emulated PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)

# bench fpm: a functional performance model per rank, read back and used.
add_test(NAME mpi_bench_fpm
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> "-DRUN=${kernel_run}"
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/bench_fpm -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_bench_fpm.cmake)
set_tests_properties(mpi_bench_fpm PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 300)

# bench steps: ge's per-step costs beyond computation, written and read back.
add_test(NAME mpi_bench_steps
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> "-DRUN=${kernel_run}" -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/bench_steps -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_bench_steps.cmake)
set_tests_properties(mpi_bench_steps PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)

# A sweep with a target: the trend line, N read off it, the verifying run.
add_test(NAME mpi_sweep_ge_target
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> "-DRUN=${kernel_run}"
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/sweep_ge -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_sweep.cmake)
set_tests_properties(mpi_sweep_ge_target PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 300)

# Several runs per size: every run's time kept, the fastest or the median the point.
add_test(NAME mpi_sweep_repetitions
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> "-DRUN=${kernel_run}"
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/sweep_repetitions
          -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_sweep_repetitions.cmake)
set_tests_properties(mpi_sweep_repetitions PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 300)

# Progress under mpiexec: rank 0's line shows when mpiexec's stderr is a
# terminal (util-linux `script` gives one), not when it is a file.
find_program(HETSCALE_SCRIPT_PROGRAM script)
add_test(NAME mpi_progress_sweep
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
          -DOUTPUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/progress_sweep -DSCRIPT=${HETSCALE_SCRIPT_PROGRAM}
          "-DLAUNCHER=${kernel_run};2"
          "-DARGS=scale;sweep;--kernel;ge;--sizes;40:200:40;--speeds;1,0.5;--marked-speeds;100,50"
          "-DLINE=sweep  [####################]  5/5  elapsed " "-DSTDOUT_TEXT=sweep of ge on configuration C"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_progress.cmake)
set_tests_properties(mpi_progress_sweep PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)

# name | expected fragment of the one line on stderr (no ; or ]: CMake lists) | arguments (| separated) | ranks
set(kernel_bad_inputs
  "sweep_sizes_unparsable|--sizes: item 2: 'two' is not a number|scale|sweep|--sizes|100,two|--marked-speeds|1,1,1|3"
  "sweep_sizes_range|--sizes: '100:800' is not a range first:last:step|scale|sweep|--sizes|100:800|--marked-speeds|1,1,1|3"
  "sweep_target_above_one|--target: must be in (0, 1|scale|sweep|--sizes|10:50:10|--target|1.5|--marked-speeds|1,1,1|3"
  "sweep_target_zero|--target: must be in (0, 1|scale|sweep|--sizes|10:50:10|--target|0|--marked-speeds|1,1,1|3"
  "sweep_too_few_points|--sizes: points: a degree-2 trend line needs at least 4 sizes, got 3|scale|sweep|--sizes|10,20,30|--target|0.3|--marked-speeds|1,1,1|3"
  "sweep_point_unknown|--point: unknown choice 'slowest'|scale|sweep|--sizes|10:50:10|--point|slowest|--marked-speeds|1,1,1|3"
  "sweep_marked_without_marked_speeds|examples/platform-hetero.json: nodes: declares relative speeds|scale|sweep|--sizes|10:50:10|--marked|${PROJECT_SOURCE_DIR}/examples/platform-hetero.json|3"
  "kernel_unknown|KERNEL: unknown kernel 'lu'|kernel|lu|--size|10|3"
  "kernel_speed_above_one|--speeds: item 2: must be in (0, 1|kernel|ge|--size|10|--speeds|1,2,1|3"
  "kernel_marked_count|--marked-speeds: has 2 marked speeds for 3 MPI ranks|kernel|mm|--size|10|--marked-speeds|1,2|3"
  "bench_speed_count|--speeds: has 2 values for 4 MPI ranks|bench|speed|--speeds|1,0.5|4"
  "bench_fpm_kernel_unknown|--kernel: unknown kernel 'lu'|bench|fpm|--kernel|lu|--sizes|10,20|--order|10|3"
  "bench_fpm_no_order|--order: the kernels need N|bench|fpm|--kernel|ge|--sizes|10,20|3"
  "bench_fpm_command_without_size|--kernel: command:true: has no {size}|bench|fpm|--kernel|command:true|--sizes|10,20|3"
  "bench_fpm_speeds_count|--speeds: 2 speeds for 3 ranks|bench|fpm|--kernel|ge|--order|10|--sizes|10,20|--speeds|1,0.5|3"
  "bench_fpm_sizes_decrease|--sizes|bench|fpm|--kernel|ge|--order|10|--sizes|20,10|3"
  "kernel_distribution_unknown|--distribution: must be marked or fpm:MODEL, got 'even'|kernel|ge|--size|10|--distribution|even|3"
  "kernel_distribution_fpm_nodes|--distribution: fpm:${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json: has 3 nodes for 2 MPI ranks|kernel|ge|--size|10|--distribution|fpm:${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json|2"
  "kernel_distribution_fpm_mc|--distribution: mc shares histories by marked speeds only|kernel|mc|--size|10|--distribution|fpm:${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json|3"
  "bench_fpm_both_modes|--all-at-once: and --one-at-a-time are two ways|bench|fpm|--kernel|ge|--order|10|--sizes|10,20|--all-at-once|--one-at-a-time|3"
)
foreach(case ${kernel_bad_inputs})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 expected)
  list(GET parts -1 ranks)
  list(REMOVE_AT parts 0 1 -1)
  string(REPLACE ";" "|" arguments "${parts}")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/bad_${name}.json)
  mpi_bad_input_test(mpi_kernel_bad_input_${name} ${ranks} "${expected}" "${arguments}|--out|${out}" ${out})
endforeach()

# Every record written under mpiexec reads back: five runs of each
# record-writing command, each analysed.
add_test(NAME mpi_records_read_back
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWRITERS=mpi "-DRUN=${kernel_run}" -DREPEATS=5
          -DCHECK_DIAGNOSIS=${CMAKE_CURRENT_SOURCE_DIR}/support/check_diagnosis.py
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/records_read_back -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_records_read_back.cmake)
set_tests_properties(mpi_records_read_back PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600)
