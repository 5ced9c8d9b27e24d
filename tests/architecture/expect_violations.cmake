# A checker of the house plan refuses a tree that breaks it. Called as
#   cmake -DPYTHON=... -DCHECKER=... -DRULES=... -DROOT=... [-DEXPECTED=a|b] [-DFINDINGS=N] -P expect_violations.cmake
# EXPECTED: what stderr must say, |-separated (default: the include checker's
# findings in fixtures/upward); FINDINGS: how many lines it has, if given.
execute_process(COMMAND ${PYTHON} ${CHECKER} --rules ${RULES} --root ${ROOT}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "expected exit code 1, got ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT DEFINED EXPECTED)
  set(EXPECTED "src/model/speedup.cpp:3: model/ includes \"hetscale/report/table.hpp\"|folder 'gadget' (src/ or include/hetscale/) has no row in the table")
endif()
string(REPLACE "|" ";" expected_lines "${EXPECTED}")
foreach(expected ${expected_lines})
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stderr does not say: ${expected}\nstderr:\n${err}")
  endif()
endforeach()
if(DEFINED FINDINGS)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines count)
  if(NOT count EQUAL FINDINGS)
    message(FATAL_ERROR "expected ${FINDINGS} findings, got ${count}\nstderr:\n${err}")
  endif()
endif()
