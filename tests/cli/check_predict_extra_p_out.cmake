# hetscale predict --extra-p-out writes the measurements as JSON Lines that
# predict (and Extra-P) reads back: the same models from the written file as
# from the run records. Called with HETSCALE, WORKDIR, OUT and P.
set(runs ${P}/farm-c2.json ${P}/farm-c3.json ${P}/farm-c4.json ${P}/farm-c6.json ${P}/farm-c8.json)
file(REMOVE ${OUT})
execute_process(COMMAND ${HETSCALE} predict ${runs} --at 32 --json --extra-p-out ${OUT}
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE code OUTPUT_VARIABLE from_runs ERROR_VARIABLE error)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "predict of the runs: exit ${code}: ${error}")
endif()
execute_process(COMMAND ${HETSCALE} predict ${OUT} --at 32 --json
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE code OUTPUT_VARIABLE from_file ERROR_VARIABLE error)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "predict of ${OUT}: exit ${code}: ${error}")
endif()
file(STRINGS ${OUT} lines)
list(LENGTH lines count)
if(NOT count EQUAL 40)  # 8 parts at 5 scales
  message(FATAL_ERROR "${OUT} has ${count} lines, expected 40")
endif()
foreach(part t_par t_comp_max t_comp_mean t_imbalance t_comm+t_idle t_other t_setup t_ideal)
  string(JSON expected GET "${from_runs}" predictions ${part} model)
  string(JSON actual GET "${from_file}" predictions ${part} model)
  if(NOT expected STREQUAL actual)
    message(FATAL_ERROR "${part}: ${expected} from the runs, ${actual} from ${OUT}")
  endif()
endforeach()
