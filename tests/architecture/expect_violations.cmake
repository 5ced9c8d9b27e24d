# The include checker refuses a tree that breaks the house plan. Called as
#   cmake -DPYTHON=... -DCHECKER=... -DRULES=... -DROOT=... -P expect_violations.cmake
execute_process(COMMAND ${PYTHON} ${CHECKER} --rules ${RULES} --root ${ROOT}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "expected exit code 1, got ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
foreach(expected "src/model/speedup.cpp:3: model/ includes \"hetscale/report/table.hpp\""
                 "folder 'gadget' (src/ or include/hetscale/) has no row in the table")
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stderr does not say: ${expected}\nstderr:\n${err}")
  endif()
endforeach()
