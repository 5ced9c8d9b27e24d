# Bad input under mpiexec: exit code 2, exactly one line from hetscale on
# stderr (rank 0 speaks for all), nothing on stdout, nothing written to
# OUT_FILE (when given), and no rank left running (the test's time limit
# catches a hang). ARGS: the hetscale arguments separated by |; RANKS (default 4).
string(REPLACE "|" ";" arguments "${ARGS}")
if(NOT RANKS)
  set(RANKS 4)
endif()
if(OUT_FILE)
  file(REMOVE "${OUT_FILE}")
endif()
execute_process(
  COMMAND ${MPIEXEC} ${NP_FLAG} ${RANKS} ${FLAGS} ${HETSCALE} ${arguments}
  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 50)
if(NOT code EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got '${code}'\nstdout: ${stdout}\nstderr: ${stderr}")
endif()
string(REPLACE ";" "," stderr_text "${stderr}")  # CMake lists split at ;
string(REGEX MATCHALL "hetscale:[^\n]*" lines "${stderr_text}")
list(LENGTH lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one line from hetscale on stderr, got ${count}:\n${stderr}")
endif()
string(REPLACE ";" "," expected "${EXPECTED}")
string(FIND "${lines}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the line\n  ${lines}\ndoes not say\n  ${EXPECTED}")
endif()
if(NOT stdout STREQUAL "")
  message(FATAL_ERROR "expected nothing on stdout, got:\n${stdout}")
endif()
if(OUT_FILE AND EXISTS "${OUT_FILE}")
  message(FATAL_ERROR "bad input, yet ${OUT_FILE} was written")
endif()
