# `hetscale bench fpm` on three ranks (emulated speeds 1, 0.5, 0.25), one
# rank at a time and all at once, for a kernel and for a user's command: a
# node a rank, each with a point at every size asked, speeds above 0, the
# context saying how it was measured; the model reads back
# (`hetscale model fpm`) and partitions (`hetscale partition`). How fast
# each point is depends on what else the machine runs: not checked here.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
string(REPLACE ";" " " run_text "${RUN}")
separate_arguments(run UNIX_COMMAND "${run_text}")

function(check_model file sizes_count mode)
  file(READ ${file} model)
  string(JSON measured GET "${model}" context measured)
  if(NOT measured STREQUAL mode)
    message(FATAL_ERROR "${file}: context.measured is '${measured}', not '${mode}'")
  endif()
  string(JSON nodes LENGTH "${model}" nodes)
  if(NOT nodes EQUAL 3)
    message(FATAL_ERROR "${file}: ${nodes} nodes for 3 ranks:\n${model}")
  endif()
  math(EXPR last_node "${nodes} - 1")
  math(EXPR last_point "${sizes_count} - 1")
  foreach(i RANGE ${last_node})
    string(JSON points LENGTH "${model}" nodes ${i} points)
    if(NOT points EQUAL sizes_count)
      message(FATAL_ERROR "${file}: node ${i} has ${points} points for ${sizes_count} sizes")
    endif()
    foreach(k RANGE ${last_point})
      string(JSON speed GET "${model}" nodes ${i} points ${k} speed)
      string(JSON load GET "${model}" nodes ${i} points ${k} other_load)
      if(NOT speed GREATER 0 OR load LESS 0 OR load GREATER 1)
        message(FATAL_ERROR "${file}: node ${i} point ${k}: speed ${speed}, other load ${load}")
      endif()
    endforeach()
  endforeach()
  foreach(command "model;fpm;${file};--sizes;20,70" "partition;--model;${file};--units;100")
    execute_process(COMMAND ${HETSCALE} ${command} RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "${command} failed (${code}):\n${stdout}\n${stderr}")
    endif()
  endforeach()
endfunction()

execute_process(COMMAND ${run} 3 ${HETSCALE} bench fpm --kernel ge --order 200 --sizes 10:60:10
                        --speeds 1,0.5,0.25 --max-seconds 0.5 --out ${WORK_DIR}/ge.json
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench fpm ge failed (${code}):\n${stdout}\n${stderr}")
endif()
check_model(${WORK_DIR}/ge.json 6 "one rank at a time")

execute_process(COMMAND ${run} 3 ${HETSCALE} bench fpm --kernel mm --order 64 --sizes 8,16,32,64 --all-at-once
                        --max-seconds 0.5 --out ${WORK_DIR}/mm.json
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench fpm mm failed (${code}):\n${stdout}\n${stderr}")
endif()
check_model(${WORK_DIR}/mm.json 4 "all ranks at once")

# A user's command as the benchmark: hetscale times it
execute_process(COMMAND ${run} 3 ${HETSCALE} bench fpm "--kernel=command:seq 1 {size}00 > /dev/null"
                        --sizes 10,100 --max-repetitions 3 --max-seconds 0.5 --out ${WORK_DIR}/command.json
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench fpm command failed (${code}):\n${stdout}\n${stderr}")
endif()
check_model(${WORK_DIR}/command.json 2 "one rank at a time")

# The command's own CPU time is emulated too (its process's, which the rank
# waits for): the speed each rank achieved (the computations' CPU time against
# that time plus the time held back) is within 10 % of the asked 1 and 0.25.
# (Before, both ran at this machine's speed.) Not the ranks' wall-clock
# speeds: those move with the machine's other load.
execute_process(COMMAND ${run} 2 ${HETSCALE} bench fpm "--kernel=command:seq 1 {size}0000 > /dev/null"
                        --sizes 100 --speeds 1,0.25 --max-repetitions 3 --max-seconds 0.5
                        --out ${WORK_DIR}/command-emulated.json
                RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench fpm command --speeds 1,0.25 failed (${code}):\n${stdout}\n${stderr}")
endif()
file(READ ${WORK_DIR}/command-emulated.json emulated)
foreach(rank_and_speed "0;1" "1;0.25")
  list(GET rank_and_speed 0 r)
  list(GET rank_and_speed 1 asked)
  string(JSON achieved GET "${emulated}" context emulation achieved ${r})
  execute_process(COMMAND python3 -c "import sys; sys.exit(0 if abs(${achieved} / ${asked} - 1) <= 0.10 else 1)"
                  RESULT_VARIABLE off)
  if(NOT off EQUAL 0)
    message(FATAL_ERROR "command at speeds 1,0.25: rank ${r} achieved speed ${achieved}, asked ${asked}")
  endif()
  # The CPU time held back to the speed is the command's (seq's, about 10 ms
  # a call), not only the rank's waiting for it (well under 1 ms a call).
  string(JSON cpu GET "${emulated}" context emulation cpu_seconds ${r})
  execute_process(COMMAND python3 -c "import sys; sys.exit(0 if ${cpu} >= 0.005 else 1)" RESULT_VARIABLE off)
  if(NOT off EQUAL 0)
    message(FATAL_ERROR "command at speeds 1,0.25: rank ${r} counted ${cpu} s of CPU, not the command's")
  endif()
endforeach()

# The kernels share rows by the measured model (--distribution fpm:MODEL):
# the record says so, its shares are whole rows summing to N, the answer is
# checked as with the marked speeds.
foreach(kernel ge mm)
  execute_process(COMMAND ${run} 3 ${HETSCALE} kernel ${kernel} --size 60 --speeds 1,0.5,0.25
                          --distribution fpm:${WORK_DIR}/ge.json --out ${WORK_DIR}/${kernel}-fpm-run.json
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "kernel ${kernel} --distribution fpm failed (${code}):\n${stdout}\n${stderr}")
  endif()
  file(READ ${WORK_DIR}/${kernel}-fpm-run.json record)
  string(JSON distribution GET "${record}" context distribution)
  if(NOT distribution STREQUAL "fpm:${WORK_DIR}/ge.json")
    message(FATAL_ERROR "the record's distribution is '${distribution}'")
  endif()
  set(rows 0)
  foreach(i 0 1 2)
    string(JSON share GET "${record}" context distribution_shares ${i})
    if(NOT share MATCHES "^[0-9]+(\\.0)?$")
      message(FATAL_ERROR "share ${i} is not whole rows: ${share}")
    endif()
    string(REGEX REPLACE "\\.0$" "" share "${share}")
    math(EXPR rows "${rows} + ${share}")
  endforeach()
  if(NOT rows EQUAL 60)
    message(FATAL_ERROR "the fpm shares sum to ${rows} rows, not 60:\n${record}")
  endif()
endforeach()
