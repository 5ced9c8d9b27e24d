# Runs one hetscale command and checks what it did. Called by CTest as
#   cmake -DHETSCALE=... -DWORKDIR=... -DARGS=a;b;c -DEXPECT_CODE=N
#         [-DGOLDEN=file] [-DSTDERR_REGEX=re] -P check_cli.cmake
# GOLDEN: stdout must equal the file, its numbers within a relative 1e-9
# (tests/support/compare_golden.py: BLAS, GSL and libm may differ in the last
# bits from one processor to the next); UPDATE_GOLDEN=1 in the environment
# rewrites it.
# STDERR_REGEX: stderr must be exactly one line matching it, and stdout empty;
# OUT_FILE (if given) must not have been written.
# ARGS may also be separated by | (for arguments that hold a ;).
string(REPLACE "|" ";" ARGS "${ARGS}")
if(OUT_FILE)
  file(REMOVE "${OUT_FILE}")
endif()
execute_process(
  COMMAND ${HETSCALE} ${ARGS}
  WORKING_DIRECTORY ${WORKDIR}
  RESULT_VARIABLE code
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 120)

if(NOT code STREQUAL EXPECT_CODE)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()

if(DEFINED GOLDEN)
  if(DEFINED ENV{UPDATE_GOLDEN})
    file(WRITE ${GOLDEN} "${out}")
  endif()
  file(READ ${GOLDEN} expected)
  if(NOT out STREQUAL expected)
    file(WRITE ${GOLDEN}.actual "${out}")
    find_program(PYTHON3 python3 REQUIRED)
    execute_process(COMMAND ${PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/../support/compare_golden.py ${GOLDEN} ${GOLDEN}.actual
                    RESULT_VARIABLE compared ERROR_VARIABLE difference)
    if(NOT compared EQUAL 0)
      message(FATAL_ERROR "stdout differs from ${GOLDEN}; see ${GOLDEN}.actual\n${difference}"
                          "(diff ${GOLDEN} ${GOLDEN}.actual; UPDATE_GOLDEN=1 ctest rewrites it)")
    endif()
    file(REMOVE ${GOLDEN}.actual)
  endif()
endif()

if(DEFINED STDERR_REGEX)
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "bad input must print nothing on stdout, got:\n${out}")
  endif()
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1)
    message(FATAL_ERROR "stderr must be exactly one line, got ${lines}:\n${err}")
  endif()
  if(NOT err MATCHES "${STDERR_REGEX}")
    message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
  endif()
  if(OUT_FILE AND EXISTS "${OUT_FILE}")
    message(FATAL_ERROR "bad input, yet ${OUT_FILE} was written")
  endif()
endif()
