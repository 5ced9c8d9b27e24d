# A report of a 64-node run: node labels that do not overlap. The page is
# written with its figures (--figures-dir), every figure's tic labels are
# measured (check_label_spacing.py), and the page is opened in headless
# Chromium (every figure rendered; a screenshot of the page is left as
# SCREENSHOT).
#   cmake -DHETSCALE=... -DRUN=run-64-nodes.json -DWORK_DIR=... -DPYTHON=... -DLABELS=check_label_spacing.py
#         -DBROWSER_CHECK=check_report_in_browser.py -DCHROMIUM=... -DSCREENSHOT=... -P check_report_labels.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND ${HETSCALE} report ${RUN} --out ${WORK_DIR}/page.html --figures-dir ${WORK_DIR}/figures
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "hetscale report failed (${code}):\n${stdout}${stderr}")
endif()
file(GLOB figures ${WORK_DIR}/figures/*.svg)
list(LENGTH figures count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "expected 2 figures (time breakdown, work shares), found ${count}: ${figures}")
endif()
execute_process(COMMAND ${PYTHON} ${LABELS} ${figures} RESULT_VARIABLE code OUTPUT_VARIABLE stdout)
message(STATUS "${stdout}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "node labels overlap:\n${stdout}")
endif()
if(NOT stdout MATCHES "64 labels in 1 rows, none overlapping")
  message(FATAL_ERROR "the time breakdown should label all 64 nodes:\n${stdout}")
endif()
execute_process(COMMAND ${PYTHON} ${BROWSER_CHECK} ${WORK_DIR}/page.html --expected-figures 2 --chromium ${CHROMIUM}
                        --screenshot ${SCREENSHOT}
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the page did not render in the browser (${code}):\n${stdout}${stderr}")
endif()

# The same page described as JSON (--json): the summary first, then the run.
execute_process(COMMAND ${HETSCALE} report ${RUN} --out ${WORK_DIR}/page-again.html --json
                RESULT_VARIABLE code OUTPUT_VARIABLE json ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "hetscale report --json failed (${code}):\n${stderr}")
endif()
string(JSON schema GET "${json}" schema)
string(JSON sections LENGTH "${json}" sections)
string(JSON first GET "${json}" sections 0 title)
string(JSON rows LENGTH "${json}" sections 0 tables 0 rows)
if(NOT schema STREQUAL "hetscale.report/1" OR NOT sections EQUAL 2 OR NOT first STREQUAL "Summary" OR NOT rows EQUAL 1)
  message(FATAL_ERROR "report --json: schema ${schema}, ${sections} sections, the first '${first}' with ${rows} rows; "
                      "expected hetscale.report/1, 2, Summary, 1")
endif()
# The run's first screen: what was measured, the efficiency to read, the largest loss; the rest folded.
string(JSON first_lines LENGTH "${json}" sections 1 first_lines)
string(JSON folded GET "${json}" sections 1 folded)
string(JSON read_first GET "${json}" sections 1 first_lines 1)
if(first_lines LESS 3 OR folded STREQUAL "" OR NOT read_first MATCHES "^Read first: efficiency ")
  message(FATAL_ERROR "report --json: the run's first screen has ${first_lines} lines ('${read_first}'), folded "
                      "'${folded}'; expected 3 or more, the second 'Read first: efficiency ...', and a folded part")
endif()
