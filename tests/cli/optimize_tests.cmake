# hetscale optimize (Stage-GA): golden outputs on the paper's programs H1, H2
# (examples/programs/hessenberg.c, N = 1024 and -D N=10240) and D1
# (examples/programs/dongarra.c) on the derived machine, and one test per kind
# of bad input. Included after cli_tests.cmake (its functions).
set(BAD tests/cli/bad_input)
set(H1 examples/programs/hessenberg.c)
set(D1 examples/programs/dongarra.c)
set(MACHINE --machine data/machines/seed004-ethernet16.json)

# Another run of a command whose stdout must equal the golden file of test
# `golden` (same output with other settings, e.g. another thread count). It
# runs after that test, so UPDATE_GOLDEN=1 never has both write the file at once.
function(optimize_same_golden name golden)
  add_test(NAME cli.golden.${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${ARGN}" -DEXPECT_CODE=0 -DGOLDEN=${GOLDEN_DIR}/${golden}.txt -P ${CLI_CHECK})
  set_tests_properties(cli.golden.${name} PROPERTIES DEPENDS cli.golden.${golden})
endfunction()

# The exact dynamic program: H1 (every level on one processor, 243 plans tie),
# D1 (11 levels, 3^22 plans), H1 in JSON, and H1 on other processor choices.
cli_golden(optimize_h1_exact optimize ${H1} ${MACHINE} --solver exact)
cli_golden(optimize_d1_exact optimize ${D1} ${MACHINE} --solver exact)
cli_golden(optimize_h1_exact_json optimize ${H1} ${MACHINE} --solver exact --json)
cli_golden(optimize_h1_exact_procs_1_2_4 optimize ${H1} ${MACHINE} --solver exact --procs 1,2,4)

# Exhaustive search with the count of optimal plans: the result must not depend
# on the thread count (how the plans are split among the threads).
cli_golden(optimize_h2_exhaustive optimize ${H1} ${MACHINE} -D N=10240 --solver exhaustive --threads 2)
optimize_same_golden(optimize_h2_exhaustive_1_thread optimize_h2_exhaustive
                     optimize ${H1} ${MACHINE} -D N=10240 --solver exhaustive --threads 1)
cli_golden(optimize_h1_exhaustive optimize ${H1} ${MACHINE} --solver exhaustive --threads 3)
optimize_same_golden(optimize_h1_exhaustive_1_thread optimize_h1_exhaustive
                     optimize ${H1} ${MACHINE} --solver exhaustive --threads 1)

# The GA: one run (its own random numbers, the same with any standard library),
# and Table IV's statistics over repeated runs (seeds S, S+1, ...).
cli_golden(optimize_h2_ga_tgga_two_point optimize ${H1} ${MACHINE} -D N=10240
           --solver ga --scheme tgga --crossover two-point --seed 3)
cli_golden(optimize_h1_ga_runs5 optimize ${H1} ${MACHINE} --solver ga --runs 5 --seed 1)
cli_golden(optimize_h2_ga_memetic_runs5_json optimize ${H1} ${MACHINE} -D N=10240
           --solver ga --scheme memetic --runs 5 --json)

# The defaults: the exact solver where it applies; the GA (memetic) where it
# does not, saying so; the GA's default scheme finds the optimum of H1, H2 and
# D1 in at least 99 of 100 seeded runs.
cli_golden(optimize_default_falls_back_to_ga optimize tests/cli/optimize/many-carried-arrays.c ${MACHINE})
foreach(instance "h1;${H1}" "h2;${H1};-D;N=10240" "d1;${D1}")
  list(POP_FRONT instance name)
  add_test(NAME cli.optimize_default_ga_finds_optimum_${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${instance};${MACHINE}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_optimize_success.cmake)
endforeach()


# Bad input: the program.
cli_bad_input(optimize_syntax_error
  "^hetscale: ${BAD}/optimize-syntax-error\\.c: 3:17: expected a number, a name or '\\(', got ';'\n$"
  optimize ${BAD}/optimize-syntax-error.c ${MACHINE})
cli_bad_input(optimize_inconsistent_rank
  "^hetscale: ${BAD}/optimize-inconsistent-rank\\.c: 7:10: 'a' is used with 1 subscript here but with 2 subscripts at 5:5; an array keeps one rank\n$"
  optimize ${BAD}/optimize-inconsistent-rank.c ${MACHINE})
cli_bad_input(optimize_define_without_value "^hetscale: -D: expects NAME=VALUE with a C name, got 'N'\n$"
  optimize ${H1} ${MACHINE} -D N)
cli_bad_input(optimize_define_not_a_number "^hetscale: -D: N: expects a whole number, got 'abc'\n$"
  optimize ${H1} ${MACHINE} -D N=abc)

# The machine.
cli_bad_input(optimize_machine_without_gather
  "^hetscale: ${BAD}/optimize-machine-no-gather\\.json: structures\\.gather: missing; the optimizer needs all five structures: multiphase, shift, broadcast, scatter, gather \\(measure them with mpiexec -n P hetscale bench comm\\)\n$"
  optimize ${H1} --machine ${BAD}/optimize-machine-no-gather.json)
cli_bad_input(optimize_machine_missing
  "^hetscale: ${BAD}/optimize-no-such-machine\\.json: cannot be opened: No such file or directory\n$"
  optimize ${H1} --machine ${BAD}/optimize-no-such-machine.json)

# The processor choices.
cli_bad_input(optimize_procs_zero "^hetscale: --procs: item 2: must be > 0, got 0\n$"
  optimize ${H1} ${MACHINE} --procs 1,0,4)
cli_bad_input(optimize_procs_duplicate "^hetscale: --procs: processor count 4 is listed twice\n$"
  optimize ${H1} ${MACHINE} --procs 1,4,4)

# The solver and its settings.
cli_bad_input(optimize_unknown_solver "^hetscale: --solver: unknown solver 'foo'; allowed: ga, exhaustive, exact\n$"
  optimize ${H1} ${MACHINE} --solver foo)
cli_bad_input(optimize_unknown_scheme "^hetscale: --scheme: unknown GA scheme 'foo'; allowed: ssga, tgga, memetic\n$"
  optimize ${H1} ${MACHINE} --solver ga --scheme foo)
cli_bad_input(optimize_unknown_crossover
  "^hetscale: --crossover: unknown crossover 'foo'; allowed: one-point, two-point, uniform\n$"
  optimize ${H1} ${MACHINE} --solver ga --crossover foo)
cli_bad_input(optimize_runs_with_exact "^hetscale: --runs: is for --solver ga only, got --solver exact\n$"
  optimize ${H1} ${MACHINE} --solver exact --runs 5)
cli_bad_input(optimize_runs_zero "^hetscale: --runs: must be a whole number >= 1, got 0\n$"
  optimize ${H1} ${MACHINE} --solver ga --runs 0)
cli_bad_input(optimize_mutation_rate_above_one "^hetscale: --mutation-rate: must be in \\(0, 1\\], got 2\n$"
  optimize ${H1} ${MACHINE} --solver ga --mutation-rate 2)
cli_bad_input(optimize_exhaustive_too_many_plans
  "^hetscale: --solver: exhaustive: 10460353203 plans is more than the limit of 200000000; use the solver exact or ga\n$"
  optimize ${D1} ${MACHINE} --solver exhaustive)
cli_bad_input(optimize_scheme_with_exact "^hetscale: --scheme: is for --solver ga only, got --solver exact\n$"
  optimize ${H1} ${MACHINE} --scheme tgga)
cli_bad_input(optimize_seed_negative "^hetscale: --seed: must be a whole number from 0 to 2\\^53, got -1\n$"
  optimize ${H1} ${MACHINE} --solver ga --seed -1)
cli_bad_input(optimize_threads_too_many "^hetscale: --threads: must be a whole number from 1 to 1024, got 5000\n$"
  optimize ${H1} ${MACHINE} --solver exhaustive --threads 5000)

# Progress: GA runs show a progress line on a terminal (util-linux
# `script` gives one), nothing when stderr is a file; HETSCALE_PROGRESS
# overrides. stdout is the same either way.
find_program(HETSCALE_SCRIPT_PROGRAM script)
add_test(NAME cli.progress.optimize_runs
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
          -DOUTPUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/progress -DSCRIPT=${HETSCALE_SCRIPT_PROGRAM}
          "-DARGS=optimize;${H1};${MACHINE};-D;N=1024;--solver;ga;--scheme;ssga;--runs;5"
          "-DLINE=optimize  [####################]  5/5  elapsed "
          "-DSTDOUT_TEXT=Stage-GA, Table IV: 5 runs" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_progress.cmake)
