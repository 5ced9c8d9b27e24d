# An interrupted run leaves the old file: a long command with --out is killed
# (SIGKILL, nothing can tidy up) half-way, and the file it would have
# replaced still holds the old content.
# -DHETSCALE=... -DHOME=... -DWORK_DIR=...
file(MAKE_DIRECTORY ${WORK_DIR})
set(out ${WORK_DIR}/optimize.json)
file(WRITE ${out} "old content\n")
execute_process(
  COMMAND timeout -s KILL 2 ${HETSCALE} optimize ${HOME}/examples/programs/hessenberg.c -D N=1024
    --machine ${HOME}/data/machines/seed004-ethernet16.json --solver ga --scheme ssga --runs 1000000 --out ${out}
  RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
# timeout signals its process group, itself included: CMake may see either.
if(NOT (code EQUAL 137 OR code MATCHES "killed"))
  message(FATAL_ERROR "the command was to be killed half-way (exit code 137), got '${code}'")
endif()
file(READ ${out} content)
if(NOT content STREQUAL "old content\n")
  message(FATAL_ERROR "${out} changed although its run was killed: '${content}'")
endif()
file(GLOB leftovers ${WORK_DIR}/optimize.json.tmp.*)
message(STATUS "killed half-way; ${out} kept its old content; temporaries: ${leftovers}")
