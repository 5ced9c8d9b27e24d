# hetscale report: the summary it prints (golden), the page it writes (one
# embedded SVG per figure, NAME.svg and NAME.gp with --figures-dir), and one
# test per kind of bad input (exit code 2, one line on stderr, no page written
# and an earlier page left as it was). The inputs ship in the repository:
# examples/run-*.json, tests/cli/report/ (farm runs over 0, 1, 2, 4 clients,
# sweeps of `hetscale scale fit` on Chen et al. 2008 Tables 3 and 4, a GA run of
# `hetscale optimize`) and Chen et al. 2008's communication profile. Included after
# cli_tests.cmake (its variables).
set(REPORT_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_report.cmake)
set(REPORT_OUT ${CMAKE_CURRENT_BINARY_DIR}/report_cli)
file(MAKE_DIRECTORY ${REPORT_OUT})

# report_golden(NAME FIGURES [FIGURES_DIR] ARGUMENTS... [HOLDS TEXT...]): run in
# ${REPORT_OUT} with --out NAME.html (so the summary is the same in any build
# tree); stdout must equal golden/report_NAME.txt, the page show FIGURES
# figures and hold each TEXT.
function(report_golden name figures)
  cmake_parse_arguments(PARSE_ARGV 2 report "FIGURES_DIR" "" "HOLDS")
  set(definitions -DPAGE=${REPORT_OUT}/${name}.html -DFIGURES=${figures})
  if(report_HOLDS)
    string(REPLACE ";" "|" holds "${report_HOLDS}")
    list(APPEND definitions "-DPAGE_HOLDS=${holds}")
  endif()
  set(arguments report ${report_UNPARSED_ARGUMENTS} --out ${name}.html)
  if(report_FIGURES_DIR)
    list(APPEND definitions -DFIGURES_DIR=${REPORT_OUT}/${name}-figures)
    list(APPEND arguments --figures-dir ${name}-figures)
  endif()
  string(REPLACE ";" "|" arguments "${arguments}")
  add_test(NAME cli.golden.report_${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${REPORT_OUT}
            "-DARGS=${arguments}" -DEXPECT_CODE=0 -DGOLDEN=${GOLDEN_DIR}/report_${name}.txt ${definitions}
            -P ${REPORT_CHECK})
endfunction()

set(report_inputs ${PROJECT_SOURCE_DIR}/tests/cli/report)
report_golden(all 16 FIGURES_DIR
  ${PROJECT_SOURCE_DIR}/examples/run-hetero.json ${PROJECT_SOURCE_DIR}/examples/run-measured.json
  ${PROJECT_SOURCE_DIR}/examples/run-simulated-seed000.json ${PROJECT_SOURCE_DIR}/examples/run-sunwulf.json
  ${report_inputs}/farm-adaptive-0.json ${report_inputs}/farm-adaptive-1.json
  ${report_inputs}/farm-adaptive-2.json ${report_inputs}/farm-adaptive-4.json
  ${report_inputs}/sweep-ge-c4.json ${report_inputs}/sweep-ge-c2.json
  ${PROJECT_SOURCE_DIR}/data/papers/seed001-section45.json ${report_inputs}/optimize-h1-ga.json
  --model two-processors,ewf-heterogeneity --title "hetscale report: every kind of input")
report_golden(model 3 --model two-processors,ewf-heterogeneity)
# Any program's runs at several rank counts (context.program, t_seq_ref): a
# summary first, then each run, then speed-up and efficiency over ranks.
report_golden(series 8 ${report_inputs}/series-my-stencil-2.json ${report_inputs}/series-my-stencil-8.json
  ${report_inputs}/series-my-stencil-4.json)
# A measured run with regions: its section holds a table of them, each
# analysed as a run of its own, beside the MPI functions.
report_golden(regions 2 ${PROJECT_SOURCE_DIR}/examples/run-measured-regions.json
  HOLDS "<caption>Regions (each analysed" "<td>compute</td>" "<td>exchange</td>" "<td>MPI_Allreduce</td>"
  "<caption>MPI functions that took most")
# A prediction (hetscale predict --json): each part's points, model and
# prediction with its interval (t_other, zero everywhere, not drawn).
report_golden(prediction 5 ${report_inputs}/predict-farm-over-c.json)
# A functional performance model (hetscale.fpm/1: speed against share size
# per node) and a kernel run whose rows it shared (the run's section says so).
report_golden(speed_model 3 ${PROJECT_SOURCE_DIR}/tests/cli/partition/model-small.json
  ${report_inputs}/kernel-ge-600-fpm.json)
# mm's sweeps with the steps measured on each configuration (bench steps,
# tests/cli/scale/emulated): psi and N' predicted as scale predict --step-costs.
set(emulated ${PROJECT_SOURCE_DIR}/tests/cli/scale/emulated)
report_golden(step_costs 2 ${emulated}/sweep-mm-C4.json ${emulated}/steps-mm-C8.json ${emulated}/sweep-mm-C2.json
  ${emulated}/steps-mm-C2.json ${emulated}/sweep-mm-C8.json ${emulated}/steps-mm-C4.json)

# report_bad_input(NAME REGEX ARGUMENTS...): run in the project folder with
# --out into the build tree; twice: with no page before (none may be
# written) and over an earlier page (left as it was).
function(report_bad_input name regex)
  set(page ${REPORT_OUT}/bad-${name}.html)
  set(arguments report ${ARGN} --out ${page})
  string(REPLACE ";" "|" arguments "${arguments}")
  add_test(NAME cli.bad.report_${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${arguments}" -DEXPECT_CODE=2 "-DSTDERR_REGEX=${regex}" -DOUT_FILE=${page} -P ${CLI_CHECK})
  set(kept ${REPORT_OUT}/bad-${name}-kept.html)
  set(arguments report ${ARGN} --out ${kept})
  string(REPLACE ";" "|" arguments "${arguments}")
  add_test(NAME cli.bad.report_${name}_keeps_page
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
            "-DARGS=${arguments}" -DEXPECT_CODE=2 "-DSTDERR_REGEX=${regex}" -DPAGE=${kept} -DEXISTING_PAGE=1
            -P ${REPORT_CHECK})
endfunction()

report_bad_input(missing_input
  "^hetscale: tests/cli/report/no-such-run.json: cannot be opened: No such file or directory\n$"
  examples/run-hetero.json tests/cli/report/no-such-run.json)
report_bad_input(not_json
  "^hetscale: tests/cli/bad_input/broken.json: not valid JSON: parse error at line 4, column 38: [^\n]*\n$"
  examples/run-hetero.json tests/cli/bad_input/broken.json)
report_bad_input(unknown_schema
  "^hetscale: examples/platform-hetero.json: schema: this is a platform \\(hetscale.platform/1\\), which is not one the report reads \\(hetscale.run/1, hetscale.sweep/1, hetscale.comm-profile/1, hetscale.step-costs/1, hetscale.optimize/1, hetscale.predict/1, hetscale.fpm/1\\): give it as `--platform FILE`\n$"
  examples/run-hetero.json examples/platform-hetero.json)
report_bad_input(run_record_refused
  "^hetscale: tests/cli/bad_input/run-unknown-field.json: nodes\\[0\\].t_compute: unknown field"
  tests/cli/bad_input/run-unknown-field.json)
report_bad_input(unknown_model
  "^hetscale: --model: unknown model figure 'seed999-fig9'; allowed: two-processors, ewf-heterogeneity\n$"
  examples/run-hetero.json --model two-processors,seed999-fig9)
report_bad_input(empty_model_name
  "^hetscale: --model: 'two-processors,' has an empty name; allowed: two-processors, ewf-heterogeneity\n$"
  examples/run-hetero.json --model two-processors,)
report_bad_input(no_inputs
  "^hetscale: INPUTS: nothing to report: give run records, sweeps, optimizer runs, predictions, speed models or --model\n$")
report_bad_input(profile_without_sweeps
  "^hetscale: data/papers/seed001-section45.json: schema: a communication profile serves sweeps \\(psi predicted\\); no sweep given\n$"
  examples/run-hetero.json data/papers/seed001-section45.json)
report_bad_input(two_profiles
  "^hetscale: data/papers/seed001-section45.json: schema: a second communication profile; give one\n$"
  tests/cli/report/sweep-ge-c2.json data/papers/seed001-section45.json data/papers/seed001-section45.json)
report_bad_input(step_costs_without_sweeps
  "^hetscale: tests/cli/scale/emulated/steps-mm-C2.json: kernel: the steps of mm serve its sweeps \\(psi predicted\\); no sweep of mm given\n$"
  tests/cli/report/sweep-ge-c2.json tests/cli/scale/emulated/steps-mm-C2.json)
cli_bad_input(report_without_out "^hetscale: --out is required" report examples/run-hetero.json)
cli_bad_input(report_out_in_missing_folder
  "^hetscale: [^\n]*/no-such-folder/page.html: cannot be written: No such file or directory\n$"
  report examples/run-hetero.json --out ${REPORT_OUT}/no-such-folder/page.html)

# A machine without gnuplot: one line saying so and how to install it (not
# "internal error": the machine lacks a program), exit code 3, no page.
add_test(NAME cli.report_without_gnuplot
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
          "-DARGS=report|examples/run-hetero.json|--out|${REPORT_OUT}/without-gnuplot.html" -DEXPECT_CODE=3
          "-DSTDERR_REGEX=^hetscale: gnuplot is not installed \\(Debian: apt-get install gnuplot-nox\\); figures need it\n$"
          -DOUT_FILE=${REPORT_OUT}/without-gnuplot.html -P ${CLI_CHECK})
set_tests_properties(cli.report_without_gnuplot PROPERTIES ENVIRONMENT "PATH=${CMAKE_CURRENT_BINARY_DIR}/no-programs")

# Every command writes its files atomically: a run killed half-way leaves the
# file it would have replaced as it was.
add_test(NAME cli.interrupted_write_keeps_the_old_file
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DHOME=${PROJECT_SOURCE_DIR}
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/interrupted_write -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_interrupted_write.cmake)
set_tests_properties(cli.interrupted_write_keeps_the_old_file PROPERTIES TIMEOUT 60)
report_bad_input(prediction_refused
  "^hetscale: tests/cli/bad_input/predict-missing-power.json: predictions.t_par.function.terms\\[0\\].power: is missing\n$"
  tests/cli/bad_input/predict-missing-power.json)
