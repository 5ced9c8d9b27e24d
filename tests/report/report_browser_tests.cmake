# The HTML report in a real browser: check_report_in_browser.py opens a report
# in headless Chromium and checks that every figure rendered (loaded, drawn
# non-blank, the expected count), with no console error and no network request.
# The tests are added only where python3 and chromium are found
# (scripts/install-deps installs both); HETSCALE_REPORT_BROWSER_TESTS tells.
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(HETSCALE_CHROMIUM NAMES chromium chromium-browser)
if(Python3_Interpreter_FOUND AND HETSCALE_CHROMIUM)
  set(HETSCALE_REPORT_BROWSER_TESTS ON)
else()
  # Not skipped in silence: a test says what is missing.
  set(HETSCALE_REPORT_BROWSER_TESTS OFF)
  message(WARNING "hetscale: python3 or chromium not found; scripts/install-deps installs them")
  add_test(NAME report_browser_needs_chromium
    COMMAND ${CMAKE_COMMAND} -E echo "python3 or chromium not found: run scripts/install-deps")
  set_tests_properties(report_browser_needs_chromium PROPERTIES WILL_FAIL TRUE)
endif()
set(HETSCALE_REPORT_BROWSER_CHECK ${CMAKE_CURRENT_LIST_DIR}/check_report_in_browser.py)

# hetscale_report_browser_test(NAME REPORT EXPECTED [FIXTURES_REQUIRED fixture...]):
# REPORT (an HTML file) must show EXPECTED figures, every one rendered; a
# screenshot of the whole page is left in the build tree as NAME.png.
function(hetscale_report_browser_test name report expected)
  cmake_parse_arguments(PARSE_ARGV 3 browser "" "" "FIXTURES_REQUIRED")
  if(NOT HETSCALE_REPORT_BROWSER_TESTS)
    return()
  endif()
  add_test(NAME ${name}
    COMMAND ${Python3_EXECUTABLE} ${HETSCALE_REPORT_BROWSER_CHECK} ${report}
      --expected-figures ${expected} --chromium ${HETSCALE_CHROMIUM}
      --screenshot ${CMAKE_CURRENT_BINARY_DIR}/${name}.png)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium)
  if(browser_FIXTURES_REQUIRED)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${browser_FIXTURES_REQUIRED}")
  endif()
endfunction()

# report_browser_failure_test(NAME FIXTURE EXPECTED PROBLEMS MESSAGE): the
# checker must reject tests/report/fixtures/FIXTURE (with --expected-figures
# EXPECTED) with exit code 1, PROBLEMS problems, one of them matching MESSAGE
# (a regular expression): the reason the fixture was written to fail for.
function(report_browser_failure_test name fixture expected problems message)
  if(NOT HETSCALE_REPORT_BROWSER_TESTS)
    return()
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND}
      -DPYTHON=${Python3_EXECUTABLE} -DCHECK=${HETSCALE_REPORT_BROWSER_CHECK}
      -DCHROMIUM=${HETSCALE_CHROMIUM} -DREPORT=${CMAKE_CURRENT_FUNCTION_LIST_DIR}/fixtures/${fixture}
      -DEXPECTED=${expected} -DPROBLEMS=${problems} "-DMESSAGE=${message}"
      -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/expect_browser_check_failure.cmake)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium)
endfunction()

set(report_fixtures ${CMAKE_CURRENT_LIST_DIR}/fixtures)
hetscale_report_browser_test(report_browser_good ${report_fixtures}/good.html 2)
report_browser_failure_test(report_browser_rejects_blank blank.html 2 1
  "FAIL: figure 2 \\(Figure 2: an all-white SVG\\) is blank")
report_browser_failure_test(report_browser_rejects_broken broken.html 2 1
  "FAIL: figure 2 \\(Figure 2: not an SVG\\) did not load")
report_browser_failure_test(report_browser_rejects_console_error console-error.html 1 1
  "FAIL: console error: console.error: deliberate console error")
report_browser_failure_test(report_browser_rejects_exception exception.html 1 1
  "FAIL: console error: uncaught exception: Error: deliberate uncaught exception")
# The refused request is also logged as an error: two problems.
report_browser_failure_test(report_browser_rejects_network network.html 1 2
  "FAIL: network request: http://127.0.0.1:9/x")
report_browser_failure_test(report_browser_rejects_wrong_count good.html 3 1
  "FAIL: 2 figures, expected 3")

# The report of `make demo`: the demo's scripts run into this build tree
# (MPI farm runs, sweeps, optimizer and simulated runs: about half a minute),
# then its page is opened in the browser. 23 figures: 3 heterogeneous farm
# runs and 3 simulated ones (a time breakdown and a work share each: 12), the
# homogeneous series over 0-8 clients (speed-up, efficiency: 2), GE's E_s
# and psi (2), 4 optimizer runs (4), APGA 2004 Fig 1 (2) and Clematis-Corana 1999 Fig 2 (1);
# 22 when a sweep did not reach its target E_s (a machine busy with other
# work), as check_demo_report.cmake reads from the sweeps.
add_test(NAME demo_scripts
  COMMAND bash -c "set -e; for part in demo-farm demo-scale demo-optimize demo-simulate demo-report; do BUILD_DIR='${CMAKE_BINARY_DIR}' '${PROJECT_SOURCE_DIR}/scripts/'$part; done")
set_tests_properties(demo_scripts PROPERTIES FIXTURES_SETUP demo_outputs TIMEOUT 600 RUN_SERIAL TRUE
  ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}")
if(HETSCALE_REPORT_BROWSER_TESTS)
  add_test(NAME demo_report_in_browser
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DPYTHON=${Python3_EXECUTABLE}
      -DCHECK=${HETSCALE_REPORT_BROWSER_CHECK} -DCHROMIUM=${HETSCALE_CHROMIUM}
      -DSCREENSHOT=${CMAKE_CURRENT_BINARY_DIR}/demo_report_in_browser.png
      -P ${CMAKE_CURRENT_LIST_DIR}/check_demo_report.cmake)
  set_tests_properties(demo_report_in_browser PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium
    FIXTURES_REQUIRED demo_outputs)
endif()

# Node labels at 64 nodes: the report of a constructed 64-node run,
# its figures' tic labels measured for overlaps and the page shown in the
# browser (screenshot: report_64_nodes.png); and the label check itself must
# reject labels that do overlap.
if(HETSCALE_REPORT_BROWSER_TESTS)
  add_test(NAME report_64_nodes
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli>
      -DRUN=${CMAKE_CURRENT_LIST_DIR}/../cli/report/run-64-nodes.json -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/report_64_nodes
      -DPYTHON=${Python3_EXECUTABLE} -DLABELS=${CMAKE_CURRENT_LIST_DIR}/check_label_spacing.py
      -DBROWSER_CHECK=${HETSCALE_REPORT_BROWSER_CHECK} -DCHROMIUM=${HETSCALE_CHROMIUM}
      -DSCREENSHOT=${CMAKE_CURRENT_BINARY_DIR}/report_64_nodes.png
      -P ${CMAKE_CURRENT_LIST_DIR}/check_report_labels.cmake)
  set_tests_properties(report_64_nodes PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium)
endif()
# Runs hetscale measure recorded (LAMMPS emulated, a program with regions)
# drawn like any other run: a time breakdown and a work share each.
if(HETSCALE_REPORT_BROWSER_TESTS)
  add_test(NAME report_measured_runs
    COMMAND bash -c "set -e; '$<TARGET_FILE:hetscale_cli>' report '${PROJECT_SOURCE_DIR}/examples/run-lammps-emulated.json' '${PROJECT_SOURCE_DIR}/examples/run-measured-regions.json' --out '${CMAKE_CURRENT_BINARY_DIR}/report_measured_runs.html'; '${Python3_EXECUTABLE}' '${HETSCALE_REPORT_BROWSER_CHECK}' '${CMAKE_CURRENT_BINARY_DIR}/report_measured_runs.html' --expected-figures 4 --chromium '${HETSCALE_CHROMIUM}' --screenshot '${CMAKE_CURRENT_BINARY_DIR}/report_measured_runs.png'")
  set_tests_properties(report_measured_runs PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium)
endif()
add_test(NAME report_labels_reject_overlap
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_label_spacing.py ${report_fixtures}/overlapping-labels.svg)
set_tests_properties(report_labels_reject_overlap PROPERTIES PASS_REGULAR_EXPRESSION
  "FAIL [^\n]*overlapping-labels.svg: .node-01. at x = 69.11 and .node-02. at x = 76.83 overlap")

# A series of measured runs (1, 2, 4 ranks of one program, and one emulated):
# the strong-scaling speed-up against the 1-rank run, MPI function tables and
# headings that tell the runs apart, read from the page's DOM in the browser
# (tests/report/check_measured_series_report.py; the page and its screenshot
# stay in the build tree, report_measured_series/).
if(HETSCALE_REPORT_BROWSER_TESTS)
  add_test(NAME report_measured_series_in_browser
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_measured_series_report.py
      --hetscale $<TARGET_FILE:hetscale_cli> --mpiexec ${MPIEXEC_EXECUTABLE} "--flags=${HETSCALE_MPIEXEC_FLAGS}"
      --program $<TARGET_FILE:stencil> --chromium ${HETSCALE_CHROMIUM}
      --out-dir ${CMAKE_CURRENT_BINARY_DIR}/report_measured_series)
  set_tests_properties(report_measured_series_in_browser PROPERTIES TIMEOUT 300 RESOURCE_LOCK chromium
    ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}")
endif()
