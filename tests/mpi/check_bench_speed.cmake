# `hetscale bench speed` with emulated speeds 1, 0.5 and 0.25 on three ranks:
# one node a rank in the platform file, each with a marked speed above 0, and
# both platform files it writes are read back by analyze's platform reader
# (through `hetscale kernel ge --marked`, which needs one marked speed per
# rank). How the emulated speeds show in the marked speeds depends on what
# else the machine runs: bench/emulated_speed measures it (`make bench`).
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")
execute_process(COMMAND ${run} 3 ${HETSCALE} bench speed --speeds 1,0.5,0.25 --seconds 0.1
                        --out ${WORK_DIR}/platform.json --text ${WORK_DIR}/platform.txt
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench speed failed (${code}):\n${stdout}\n${stderr}")
endif()
file(READ ${WORK_DIR}/platform.json platform)
# One node a rank (nodes[3] is one too many), each measured.
foreach(i 0 1 2 3)
  string(JSON speed ERROR_VARIABLE missing GET "${platform}" nodes ${i} marked_speed)
  if(i EQUAL 3 AND missing)
    break()
  elseif(missing OR NOT speed GREATER 0)
    message(FATAL_ERROR "nodes[${i}]: marked speed '${speed}' (${missing}): not one node above 0 a rank:\n${platform}")
  endif()
endforeach()
foreach(file platform.json platform.txt)
  execute_process(COMMAND ${run} 3 ${HETSCALE} kernel ge --size 40 --speeds 1,0.5,0.25 --marked ${WORK_DIR}/${file}
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "kernel ge with --marked ${file} failed (${code}):\n${stdout}\n${stderr}")
  endif()
endforeach()
