# The MPI farm under mpiexec: several process counts (1, and more ranks than
# this machine has cores), every policy, the same GA result everywhere, and
# bad input that ends every rank with exit code 2.
# Many ranks on few cores; launcher flags and environment from mpi_tests.cmake.

foreach(ranks 2 5 9)
  add_test(NAME mpi_farm_same_result_np${ranks}
    COMMAND ${CMAKE_COMMAND}
      -DHETSCALE=$<TARGET_FILE:hetscale_cli>
      -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP_FLAG=${MPIEXEC_NUMPROC_FLAG} "-DFLAGS=${HETSCALE_MPIEXEC_FLAGS}"
      -DRANKS=${ranks} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/farm_np${ranks}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_farm.cmake)
  set_tests_properties(mpi_farm_same_result_np${ranks} PROPERTIES
    ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 300 RUN_SERIAL TRUE)
endforeach()

# name | expected fragment of the one line on stderr | arguments
set(farm_bad_inputs
  "speeds_count|--speeds: has 2 values for 3 clients|--speeds 1,0.5"
  "speed_zero|--speeds: item 2: must be > 0, got 0|--speeds 1,0,1"
  "speed_negative|--speeds: item 1: must be > 0, got -1|--speeds -1,1,1"
  "population_zero|--population: must be >= 1, got 0|--population 0"
  "unknown_policy|--policy: unknown policy 'fastest'|--policy fastest"
  "unknown_objective|--objective: unknown objective 'sphere'|--objective sphere"
)
foreach(case ${farm_bad_inputs})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 expected)
  list(GET parts 2 arguments)
  string(REPLACE " " "|" arguments "farm --time-scale 0.001 ${arguments}")
  mpi_bad_input_test(mpi_farm_bad_input_${name} 4 "${expected}" "${arguments}")
endforeach()
# A bad HETSCALE_PROGRESS (the progress line's setting) is bad input on every rank.
mpi_bad_input_test(mpi_farm_bad_input_progress_setting 4 "HETSCALE_PROGRESS: must be always or never"
                   "farm|--time-scale|0.001")
set_tests_properties(mpi_farm_bad_input_progress_setting PROPERTIES
  ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT};HETSCALE_PROGRESS=yes")

# APGA 2004 Section 6.2 at its own size (33 ranks on this machine's cores),
# each policy once: what holds however loaded the machine is (farm_experiments
# --protocol): every client in the record, accounted for its whole run, the
# generations within the run, every task evaluated once, lost duplicates only
# under adaptive+, and the even split's 44 tasks a client. The efficiencies
# against the Eq 17 bound and the earliest-finish ceiling are goals of `make
# bench` (farm_experiments policies --check). Not timed; alone for its 33 ranks.
add_test(NAME mpi_farm_heterogeneous_comparison COMMAND farm_experiments policies --protocol)
set_tests_properties(mpi_farm_heterogeneous_comparison PROPERTIES
  ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600 RUN_SERIAL TRUE)

# The same 8-client scenario on real MPI processes and in the
# simulator (SimGrid, on a platform of the declared speeds and the message cost
# measured on this machine), each policy once: both records hold to the
# protocol, and under the even and proportional splits every client does the
# same tasks on MPI as in the simulator. That the efficiencies agree within
# 5 % is a goal of `make bench` (farm_experiments crossvalidate --check).
add_test(NAME mpi_farm_simulator_crossvalidation COMMAND farm_experiments crossvalidate --protocol)
set_tests_properties(mpi_farm_simulator_crossvalidation PROPERTIES
  ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600 RUN_SERIAL TRUE)

# A real objective on the farm: the Lennard-Jones global minima.
foreach(case "7|-16.505384" "13|-44.326801")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 atoms)
  list(GET parts 1 expected)
  add_test(NAME mpi_farm_lennard_jones_${atoms}
    COMMAND ${CMAKE_COMMAND}
      -DHETSCALE=$<TARGET_FILE:hetscale_cli>
      -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP_FLAG=${MPIEXEC_NUMPROC_FLAG} "-DFLAGS=${HETSCALE_MPIEXEC_FLAGS}"
      -DATOMS=${atoms} -DEXPECTED=${expected}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_farm_lennard_jones.cmake)
  set_tests_properties(mpi_farm_lennard_jones_${atoms} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 120)
endforeach()

# No silent surprise: started without mpiexec, the farm says it runs serially.
add_test(NAME mpi_farm_without_launcher
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli>
          "-DRUN=${MPIEXEC_EXECUTABLE};${HETSCALE_MPIEXEC_FLAGS};${MPIEXEC_NUMPROC_FLAG}"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_farm_without_launcher.cmake)
set_tests_properties(mpi_farm_without_launcher PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 60)

# Your own objective: Rastrigin as a program and as a library, built
# here, find the built-in Rastrigin's optimum on the same seed on 1, 2 and 5
# ranks; a program that prints no number is a failed evaluation, not a crash.
add_executable(rastrigin_command ${PROJECT_SOURCE_DIR}/tests/programs/user_objectives/rastrigin_command.c)
target_link_libraries(rastrigin_command PRIVATE m)
add_library(rastrigin_objective MODULE ${PROJECT_SOURCE_DIR}/tests/programs/user_objectives/rastrigin_objective.c)
target_include_directories(rastrigin_objective PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(rastrigin_objective PRIVATE m)
add_library(no_domain_objective MODULE ${PROJECT_SOURCE_DIR}/tests/programs/user_objectives/no_domain_objective.c)
add_test(NAME mpi_farm_user_objectives
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/programs/user_objectives/check_user_objectives.py
          $<TARGET_FILE:hetscale_cli> ${MPIEXEC_EXECUTABLE} "${HETSCALE_MPIEXEC_FLAGS}"
          $<TARGET_FILE:rastrigin_command> $<TARGET_FILE:rastrigin_objective>)
set_tests_properties(mpi_farm_user_objectives PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600)

set(farm_user_objective_bad_inputs
  "objective_kind|--objective: unknown objective 'python:f.py'|--objective|python:f.py"
  "library_without_symbol|has no function hetscale_domain|--objective|library:$<TARGET_FILE:no_domain_objective>"
  "library_missing|cannot be loaded|--objective|library:/nonexistent/libnothing.so"
  "command_without_bounds|--bounds: is required with the objective command|--objective|command:true"
  "bounds_reversed|lower < upper|--objective|command:true|--bounds|1:-1"
  "bounds_not_a_pair|--bounds: must be LOWER:UPPER|--objective|command:true|--bounds|5"
  "bounds_for_synthetic|--bounds: is for the objective command|--bounds|-1:1"
)
mpi_bad_input_cases(PREFIX mpi_farm_bad_input LEADING "farm|--time-scale|0.001" CASES ${farm_user_objective_bad_inputs})
