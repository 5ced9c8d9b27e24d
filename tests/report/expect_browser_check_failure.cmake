# The browser check must reject a report for the intended reason. Called by CTest as
#   cmake -DPYTHON=... -DCHECK=check_report_in_browser.py -DCHROMIUM=...
#         -DREPORT=file.html -DEXPECTED=N -DPROBLEMS=P -DMESSAGE=regex
#         -P expect_browser_check_failure.cmake
# Passes when the check exits with code 1, reports P problems (no other reason
# to fail than the fixture's), and its output matches MESSAGE.
execute_process(
  COMMAND ${PYTHON} ${CHECK} ${REPORT} --expected-figures ${EXPECTED} --chromium ${CHROMIUM}
  RESULT_VARIABLE code
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 110)
if(NOT code STREQUAL "1" OR NOT out MATCHES "FAILED \\(${PROBLEMS} problems" OR NOT out MATCHES "${MESSAGE}")
  message(FATAL_ERROR "expected exit code 1, ${PROBLEMS} problems and '${MESSAGE}'; "
                      "got exit code ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "rejected as intended:\n${out}")
