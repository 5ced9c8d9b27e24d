# `hetscale bench speed` with emulated speeds 1, 0.5 and 0.25 on three ranks:
# the measured marked speeds fall in that order, the slowest well under half
# the fastest, and both platform files it writes are read back by analyze's
# platform reader (through `hetscale scale sweep --marked`, which needs one
# marked speed per rank).
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")
# The three ranks measure at once; a burst of other work on the machine can
# slow one of them out of place, so the measurement is made again, up to 3
# times in all, while the speeds are out of order or speed 0.25 is not well
# under half of speed 1 (compared as whole Mflop/s: CMake's math is integer).
foreach(attempt 1 2 3)
  execute_process(COMMAND ${run} 3 ${HETSCALE} bench speed --speeds 1,0.5,0.25 --seconds 0.1
                          --out ${WORK_DIR}/platform.json --text ${WORK_DIR}/platform.txt
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "bench speed failed (${code}):\n${stdout}\n${stderr}")
  endif()
  file(READ ${WORK_DIR}/platform.json platform)
  foreach(i 0 1 2)
    string(JSON speed_${i} GET "${platform}" nodes ${i} marked_speed)
  endforeach()
  string(REGEX REPLACE "\\..*" "" fastest "${speed_0}")
  string(REGEX REPLACE "\\..*" "" slowest "${speed_2}")
  math(EXPR twice_slowest "2 * ${slowest}")
  set(problem "")
  if(NOT (speed_0 GREATER speed_1 AND speed_1 GREATER speed_2))
    set(problem "marked speeds not in the order of the emulated speeds: ${speed_0} ${speed_1} ${speed_2}")
  elseif(NOT twice_slowest LESS fastest)
    set(problem "speed 0.25 measured ${speed_2} Mflop/s, not under half of speed 1's ${speed_0}")
  endif()
  if(NOT problem)
    break()
  endif()
  message(STATUS "attempt ${attempt}: ${problem}")
endforeach()
if(problem)
  message(FATAL_ERROR "${problem} (3 attempts)")
endif()
foreach(file platform.json platform.txt)
  execute_process(COMMAND ${run} 3 ${HETSCALE} kernel ge --size 40 --speeds 1,0.5,0.25 --marked ${WORK_DIR}/${file}
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "kernel ge with --marked ${file} failed (${code}):\n${stdout}\n${stderr}")
  endif()
endforeach()
