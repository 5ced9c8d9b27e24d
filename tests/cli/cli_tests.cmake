# Command-line tests: golden outputs on the shipped examples, and one test per
# kind of bad input (exit code 2, one line on stderr, nothing on stdout).
set(CLI_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
set(GOLDEN_DIR ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden)

function(cli_golden name)
  add_test(NAME cli.golden.${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${ARGN}" -DEXPECT_CODE=0 -DGOLDEN=${GOLDEN_DIR}/${name}.txt -P ${CLI_CHECK})
endfunction()

function(cli_bad_input name regex)
  add_test(NAME cli.bad.${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${ARGN}" -DEXPECT_CODE=2 "-DSTDERR_REGEX=${regex}" -P ${CLI_CHECK})
endfunction()

function(cli_exit name code)
  add_test(NAME cli.exit.${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${ARGN}" -DEXPECT_CODE=${code} -P ${CLI_CHECK})
endfunction()

# Every command has --json, as the README says.
add_test(NAME cli.every_command_has_json
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_every_command_has_json.py $<TARGET_FILE:hetscale_cli>)

# Golden outputs.
cli_golden(analyze_hetero analyze examples/run-hetero.json --platform examples/platform-hetero.json)
cli_golden(analyze_hetero_json analyze examples/run-hetero.json --platform examples/platform-hetero.json --json)
cli_golden(analyze_measured analyze examples/run-measured.json)
cli_golden(analyze_measured_json analyze examples/run-measured.json --json)
# A run hetscale measure recorded: LAMMPS emulated at speeds 1 and 0.5, its MPI functions listed.
cli_golden(analyze_lammps_emulated analyze examples/run-lammps-emulated.json)
# A run with no computation: read, its times and MPI functions shown, no efficiencies.
cli_golden(analyze_no_computation analyze tests/cli/analyze/run-no-computation.json)
cli_golden(analyze_no_computation_json analyze tests/cli/analyze/run-no-computation.json --json)
cli_golden(analyze_lammps_emulated_json analyze examples/run-lammps-emulated.json --json)
# A measured run with regions (tests/measure/programs/regions.c): the whole, and each region alone.
cli_golden(analyze_measured_regions analyze examples/run-measured-regions.json)
cli_golden(analyze_region_exchange analyze examples/run-measured-regions.json --region exchange)
cli_golden(analyze_region_compute_json analyze examples/run-measured-regions.json --region compute --json)
cli_golden(analyze_marked_platform analyze examples/run-sunwulf.json --platform examples/platform-sunwulf.txt)
cli_golden(model_hetero model hetero --speeds 1,2 --shares 1,2)
cli_golden(model_hetero_json model hetero --speeds 1,2 --shares 0.5,0.5 --work 100 --json)
cli_golden(model_ewf model ewf --speeds 0.4,0.6,0.8,1.2,1.4,1.6 --R 0.5)
cli_golden(model_ewf_json model ewf --speeds @examples/speeds-table1-h043.txt --R 0.5 --json)
cli_golden(model_farm model farm --speeds @examples/speeds-hetero-8.txt --tasks 32 --generations 6 --eval-time 1)
cli_golden(model_farm_json model farm --speeds 1,0.5,0.25 --tasks 7 --generations 2 --latency 0.01 --json)
cli_golden(fit_serial fit serial --timings examples/timings.csv)
cli_golden(fit_serial_json fit serial --timings examples/timings.csv --json)
cli_golden(demo demo)
cli_golden(demo_json demo --json)

# Every command's --help, and `hetscale` alone, as goldens (golden/help/;
# after a help text changed on purpose: check_help.py HETSCALE DIR --write).
add_test(NAME cli.golden.help
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_help.py $<TARGET_FILE:hetscale_cli> ${GOLDEN_DIR}/help)
# No output speaks of the papers by number (seed 000 ...): every golden, and a report page.
add_test(NAME cli.no_paper_numbers
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_no_jargon.py $<TARGET_FILE:hetscale_cli> ${PROJECT_SOURCE_DIR})

# Bad input.
cli_bad_input(missing_file "^hetscale: tests/cli/bad_input/no-such-run.json: cannot be opened: No such file or directory\n$"
  analyze tests/cli/bad_input/no-such-run.json)
cli_bad_input(broken_json "^hetscale: tests/cli/bad_input/broken.json: not valid JSON: parse error at line 4"
  analyze tests/cli/bad_input/broken.json)
cli_bad_input(json_nan_literal "^hetscale: tests/cli/bad_input/nan-literal.json: not valid JSON: parse error at line 3, column 12: syntax error while parsing value - invalid literal"
  analyze tests/cli/bad_input/nan-literal.json)
cli_bad_input(platform_negative_speed
  "^hetscale: tests/cli/bad_input/platform-negative-speed.json: nodes\\[1\\].speed: must be > 0, got -2\n$"
  analyze examples/run-hetero.json --platform tests/cli/bad_input/platform-negative-speed.json)
cli_bad_input(platform_zero_marked_speed
  "^hetscale: tests/cli/bad_input/platform-zero.txt: line 3: marked speed '0' must be a finite number > 0 \\(Mflop/s\\)\n$"
  analyze examples/run-sunwulf.json --platform tests/cli/bad_input/platform-zero.txt)
cli_bad_input(zero_speed_option "^hetscale: --speeds: item 2: must be > 0, got 0\n$"
  model hetero --speeds 1,0 --shares 1,1)
cli_bad_input(negative_speed_option "^hetscale: --speeds: item 1: must be > 0, got -1\n$"
  model ewf --speeds -1,2 --R 0.1)
cli_bad_input(shares_sum_to_zero "^hetscale: --shares: sum to zero; at least one share must be > 0\n$"
  model hetero --speeds 1,2 --shares 0,0)
cli_bad_input(shares_length "^hetscale: --shares: has 3 values for 2 speeds; give one share per processor"
  model hetero --speeds 1,2 --shares 1,1,1)
cli_bad_input(nan_option "^hetscale: --speeds: item 2: 'nan' is not a finite number\n$"
  model hetero --speeds 1,nan --shares 1,1)
cli_bad_input(nan_ratio "^hetscale: --R: item 1: 'NaN' is not a finite number\n$"
  model ewf --speeds 1,2 --R NaN)
cli_bad_input(nan_timings "^hetscale: tests/cli/bad_input/timings-nan.csv: line 3, seconds: 'nan' must be a finite number > 0\n$"
  fit serial --timings tests/cli/bad_input/timings-nan.csv)
# A number no double can hold (1e999), in every reader of outside input: one
# line naming the file and the field, exit 2.
set(OVERFLOW "a number outside the range of a double \\(magnitude at most about 1\\.8e308\\): number overflow parsing")
cli_bad_input(overflow_run "^hetscale: tests/cli/bad_input/run-overflow\\.json: nodes\\[1\\]\\.t_comm: ${OVERFLOW} '1e999'\n$"
  analyze tests/cli/bad_input/run-overflow.json)
cli_bad_input(overflow_platform_json
  "^hetscale: tests/cli/bad_input/platform-overflow\\.json: nodes\\[1\\]\\.speed: ${OVERFLOW} '1e999'\n$"
  analyze examples/run-hetero.json --platform tests/cli/bad_input/platform-overflow.json)
cli_bad_input(overflow_platform_text
  "^hetscale: tests/cli/bad_input/platform-overflow\\.txt: line 3: marked speed '1e999' must be a finite number > 0 \\(Mflop/s\\)\n$"
  analyze examples/run-sunwulf.json --platform tests/cli/bad_input/platform-overflow.txt)
cli_bad_input(overflow_sweep "^hetscale: tests/cli/bad_input/sweep-overflow\\.json: points\\[0\\]\\.T_s: ${OVERFLOW} '1e999'\n$"
  scale fit --sweep tests/cli/bad_input/sweep-overflow.json)
cli_bad_input(overflow_comm_profile
  "^hetscale: tests/cli/bad_input/comm-profile-overflow\\.json: costs\\.send\\.per_element: ${OVERFLOW} '-1\\.28e\\+400'\n$"
  optimize examples/programs/hessenberg.c --machine tests/cli/bad_input/comm-profile-overflow.json)
cli_bad_input(overflow_optimize_record
  "^hetscale: tests/cli/bad_input/optimize-record-overflow\\.json: plan\\[2\\]\\.t_comp: ${OVERFLOW} '1e999'\n$"
  report tests/cli/bad_input/optimize-record-overflow.json --out overflow-report.html)
cli_bad_input(overflow_timings "^hetscale: tests/cli/bad_input/timings-overflow\\.csv: line 3, size: '2e400' must be a finite number > 0\n$"
  fit serial --timings tests/cli/bad_input/timings-overflow.csv)
cli_bad_input(overflow_option "^hetscale: --speeds: item 2: '1e999' is not a finite number\n$"
  model hetero --speeds 1,1e999 --shares 1,1)
cli_bad_input(unknown_field
  "^hetscale: tests/cli/bad_input/run-unknown-field.json: nodes\\[0\\].t_compute: unknown field; allowed here: name, work, t_comp, t_comm, t_setup, t_idle, t_other, t_blocked\n$"
  analyze tests/cli/bad_input/run-unknown-field.json)
cli_bad_input(empty_nodes "^hetscale: tests/cli/bad_input/run-empty-nodes.json: nodes: must not be empty\n$"
  analyze tests/cli/bad_input/run-empty-nodes.json)
cli_bad_input(times_exceed_t_par
  "^hetscale: tests/cli/bad_input/run-times-exceed.json: nodes\\[1\\]: t_comp \\+ t_comm \\+ t_setup \\+ t_idle \\+ t_other \\+ t_blocked = 10.5 s exceeds t_par = 10 s by more than 1 %"
  analyze tests/cli/bad_input/run-times-exceed.json)
cli_bad_input(wrong_schema "^hetscale: tests/cli/bad_input/run-wrong-schema.json: schema: this is a platform \\(hetscale.platform/1\\), not a run record: give it as `--platform FILE`\n$"
  analyze tests/cli/bad_input/run-wrong-schema.json)
# Another of hetscale's files where one kind is read: the reader says which
# it got and what reads it, before any field it does not know.
cli_bad_input(speed_model_to_analyze "^hetscale: tests/cli/partition/model-small.json: schema: this is a speed model \\(hetscale.fpm/1\\), not a run record: read it with `hetscale model fpm` or `hetscale partition`, or give it to `hetscale kernel` as `--distribution fpm:FILE`\n$"
  analyze tests/cli/partition/model-small.json)
cli_bad_input(run_record_as_platform "^hetscale: examples/run-hetero.json: schema: this is a run record \\(hetscale.run/1\\), not a platform: read it with `hetscale analyze` or `hetscale report`, or give several to `hetscale predict`\n$"
  analyze examples/run-hetero.json --platform examples/run-hetero.json)
cli_bad_input(run_record_as_speed_model "^hetscale: examples/run-hetero.json: context.openmp.threads: this run record \\(hetscale.run/1\\) has no rank of two threads or more that worked in parallel regions: give a speed model \\(hetscale.fpm/1, from `hetscale bench fpm`\\), or a run record measured with --openmp "
  partition --model examples/run-hetero.json --units 100)
cli_bad_input(run_record_as_sweep "^hetscale: examples/run-hetero.json: schema: this is a run record \\(hetscale.run/1\\), not a scalability sweep "
  scale fit --sweep examples/run-hetero.json)
cli_bad_input(analysis_output_to_analyze "^hetscale: tests/cli/bad_input/analysis-output.json: schema: this is the output of `hetscale analyze --json` \\(hetscale.analysis/1\\), not a run record: no command reads it back: give the run record itself\n$"
  analyze tests/cli/bad_input/analysis-output.json)
cli_bad_input(node_not_in_platform
  "^hetscale: tests/cli/bad_input/platform-missing-node.json: node 'node8': is in run examples/run-hetero.json but not in the platform"
  analyze examples/run-hetero.json --platform tests/cli/bad_input/platform-missing-node.json)
cli_bad_input(one_size_only "^hetscale: tests/cli/bad_input/timings-one-size.csv: procs: needs single-processor rows"
  fit serial --timings tests/cli/bad_input/timings-one-size.csv)
cli_bad_input(unknown_option "^hetscale: .*--bogus"
  analyze examples/run-hetero.json --bogus)
# `hetscale` alone prints the first commands (golden/help/no-arguments.txt);
# a group alone is an error.
cli_bad_input(no_command "^hetscale: A subcommand is required"
  model)

# model farm: what-if on the farm policies.
cli_bad_input(model_farm_zero_speed "^hetscale: --speeds: item 2: must be > 0, got 0\n$"
              model farm --speeds 1,0,1)
cli_bad_input(model_farm_zero_tasks "^hetscale: --tasks: must be a whole number >= 1, got 0\n$"
              model farm --speeds 1,1 --tasks 0)
cli_bad_input(model_farm_negative_latency "^hetscale: --latency: must be >= 0, got -1\n$"
              model farm --speeds 1,1 --latency -1)

# The list of commands: bad lines stop the build with one line, nothing written.
add_test(NAME cli.commands_list_refuses_bad_lines
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_commands_list.py
          ${PROJECT_SOURCE_DIR}/scripts/generate-cli-commands ${PROJECT_SOURCE_DIR}/apps/hetscale/commands.list)
