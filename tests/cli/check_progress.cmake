# A long command shows its progress line on a terminal and nothing when stderr
# is not one. Called by CTest as
#   cmake -DHETSCALE=... -DWORKDIR=... -DOUTPUT_DIR=... -DSCRIPT=... -DARGS=a;b;c
#         -DLINE=text -DSTDOUT_TEXT=text [-DLAUNCHER=mpiexec;-n;2] -P check_progress.cmake
# The command (after LAUNCHER, if given) runs under a pseudo-terminal
# (util-linux `script`), as a person would run it: the output must hold the
# progress line (LINE, after "\r", ended by clear-to-end-of-line) and stdout's
# STDOUT_TEXT. Then the same with stderr to a file: no progress anywhere, the
# file empty. Then HETSCALE_PROGRESS never, always (stderr to a file gets the
# lines) and, without a launcher, a bad value (exit code 2, one line).
if(NOT SCRIPT)
  message(FATAL_ERROR "util-linux `script` was not found (Debian package bsdutils); it gives the command a terminal")
endif()
file(REMOVE_RECURSE "${OUTPUT_DIR}")
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
set(command "")
foreach(word IN LISTS LAUNCHER)
  string(APPEND command "'${word}' ")
endforeach()
string(APPEND command "'${HETSCALE}'")
foreach(argument IN LISTS ARGS)
  string(APPEND command " '${argument}'")
endforeach()
string(ASCII 13 carriage_return)
string(ASCII 27 escape)
set(clear_line "${escape}[K")

# Runs `shell_command` under a terminal; its exit code and everything it showed.
function(on_terminal shell_command)
  execute_process(COMMAND ${SCRIPT} -qec "${shell_command}" /dev/null
                  WORKING_DIRECTORY ${WORKDIR} INPUT_FILE /dev/null
                  RESULT_VARIABLE code OUTPUT_VARIABLE shown ERROR_VARIABLE script_error TIMEOUT 120)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "`${shell_command}` under a terminal: exit code ${code}\n${shown}\n${script_error}")
  endif()
  if(NOT shown MATCHES "${STDOUT_TEXT}")
    message(FATAL_ERROR "`${shell_command}` under a terminal did not print '${STDOUT_TEXT}':\n${shown}")
  endif()
  set(shown "${shown}" PARENT_SCOPE)
endfunction()

function(require_progress text where)
  string(FIND "${text}" "${carriage_return}${LINE}" at)
  string(FIND "${text}" "${clear_line}" cleared)
  if(at EQUAL -1 OR cleared EQUAL -1)
    message(FATAL_ERROR "${where}: no progress line '${LINE}' (after \\r, with \\e[K):\n${text}")
  endif()
endfunction()

function(forbid_progress text where)
  string(FIND "${text}" "${clear_line}" cleared)
  string(FIND "${text}" "elapsed " elapsed)
  if(NOT cleared EQUAL -1 OR NOT elapsed EQUAL -1)
    message(FATAL_ERROR "${where}: progress shown where none was wanted:\n${text}")
  endif()
endfunction()

# On a terminal: the progress line.
on_terminal("env -u HETSCALE_PROGRESS ${command}")
require_progress("${shown}" "on a terminal")

# stderr to a file: nothing on the terminal, nothing in the file.
on_terminal("env -u HETSCALE_PROGRESS ${command} 2>'${OUTPUT_DIR}/stderr.txt'")
forbid_progress("${shown}" "stderr to a file (terminal)")
file(READ "${OUTPUT_DIR}/stderr.txt" stderr_text)
if(NOT stderr_text STREQUAL "")
  message(FATAL_ERROR "stderr to a file: the file is not empty:\n${stderr_text}")
endif()

# HETSCALE_PROGRESS=never on a terminal: nothing.
on_terminal("HETSCALE_PROGRESS=never ${command}")
forbid_progress("${shown}" "HETSCALE_PROGRESS=never")

# HETSCALE_PROGRESS=always with stderr to a file: the lines, in the file only.
on_terminal("HETSCALE_PROGRESS=always ${command} 2>'${OUTPUT_DIR}/stderr.txt'")
forbid_progress("${shown}" "HETSCALE_PROGRESS=always, stderr to a file (terminal)")
file(READ "${OUTPUT_DIR}/stderr.txt" stderr_text)
require_progress("${stderr_text}" "HETSCALE_PROGRESS=always, stderr to a file")

# A bad HETSCALE_PROGRESS is bad input: exit code 2, one line, nothing on stdout.
# (Under mpiexec: tests/mpi, mpi_progress_bad_setting.)
if(LAUNCHER)
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env HETSCALE_PROGRESS=yes ${HETSCALE} ${ARGS}
                WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(expected "hetscale: HETSCALE_PROGRESS: must be always or never (or unset: on a terminal only), got 'yes'\n")
if(NOT code EQUAL 2 OR NOT out STREQUAL "" OR NOT err STREQUAL expected)
  message(FATAL_ERROR "HETSCALE_PROGRESS=yes: exit code ${code} (expected 2)\nstdout:\n${out}\nstderr:\n${err}")
endif()
