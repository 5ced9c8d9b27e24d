# Your own tasks on the farm (hetscale farm --tasks | --command):
# every task once, inputs that reach the command whole, retries, the timeout,
# a run killed and resumed from its job log (tests/run/check_task_farm.py),
# and bad input that ends every rank with exit code 2 and starts nothing.
# Launcher flags and environment from tests/mpi/mpi_tests.cmake.

function(task_farm_test name scenario ranks)
  add_test(NAME ${name}
    COMMAND python3 ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/check_task_farm.py --hetscale $<TARGET_FILE:hetscale_cli>
            --mpiexec ${MPIEXEC_EXECUTABLE} "--flags=${HETSCALE_MPIEXEC_FLAGS}" --ranks ${ranks} ${ARGN} ${scenario})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600)
endfunction()

task_farm_test(mpi_task_farm_once_np1 once 1)
task_farm_test(mpi_task_farm_once_np4 once 4)
task_farm_test(mpi_task_farm_once_np9 once 9)
task_farm_test(mpi_task_farm_template template 3)
task_farm_test(mpi_task_farm_failures failures 4)
task_farm_test(mpi_task_farm_failures_adaptive failures 4 --policy adaptive)
task_farm_test(mpi_task_farm_resume resume 4)
task_farm_test(mpi_task_farm_interrupt interrupt 4)
task_farm_test(mpi_task_farm_terminate terminate 4)
task_farm_test(mpi_task_farm_interrupt_alone interrupt 1)

# Bad input: name | expected fragment of the one line on stderr | arguments.
# Each runs in tests/run/bad_input (the files it names).
set(task_farm_bad_inputs
  "empty_task_file|has no task|--tasks|only_comments.txt"
  "missing_task_file|missing.txt|--tasks|missing.txt"
  "command_without_braces|has no {}|--command|echo x|--inputs|inputs.txt"
  "command_without_inputs|--command: needs --inputs|--command|echo {}"
  "inputs_without_command|--inputs: is for a run of your tasks|--inputs|inputs.txt"
  "tasks_and_command|--tasks: and --command are two ways|--tasks|tasks.txt|--command|echo {}|--inputs|inputs.txt"
  "resume_without_results|--resume: needs --results|--tasks|tasks.txt|--resume"
  "resume_other_list|the log belongs to another task list|--tasks|tasks.txt|--results|other_list.jsonl|--resume"
  "resume_other_count|but the task list has 3 tasks|--tasks|tasks.txt|--results|other_count.jsonl|--resume"
  "results_for_ga|--results: is for a run of your tasks|--results|log.jsonl"
  "ga_option_with_tasks|--population: is an option of the GA farm|--tasks|tasks.txt|--population|8"
  "speed_above_one|--speeds: item 2: must be in (0, 1|--tasks|tasks.txt|--speeds|1,1.5,1"
  "speeds_count|--speeds: 2 values for 3 clients|--tasks|tasks.txt|--speeds|1,1"
  "unknown_policy|--policy: unknown policy 'fastest'|--tasks|tasks.txt|--policy|fastest"
  "negative_timeout|--timeout: must be a number of seconds > 0|--tasks|tasks.txt|--timeout|-1"
  "output_dir_in_a_file|--output-dir: cannot make the folder tasks.txt/out|--tasks|tasks.txt|--output-dir|tasks.txt/out"
)
mpi_bad_input_cases(PREFIX mpi_task_farm_bad_input LEADING "farm" WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/bad_input
                    CASES ${task_farm_bad_inputs})
