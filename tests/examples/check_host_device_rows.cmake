# A speed model of each rank's cores and device (bench fpm --device mm), then
# host_device_rows sharing 400 rows by it and evenly: every row computed once
# and right, the device's rows on the device, and each rank's two shares said.
# -DHETSCALE= -DPROGRAM= -DSHARE_BY_SPEED= -DMPIEXEC= -DMPIEXEC_FLAGS= -DWORK=
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
separate_arguments(flags UNIX_COMMAND "${MPIEXEC_FLAGS}")
execute_process(
  COMMAND ${MPIEXEC} -np 2 ${flags} ${HETSCALE} bench fpm --kernel mm --order 200 --sizes 10,50,100,200
          --device mm --precision 0.2 --max-seconds 1 --out ${WORK}/model.json
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "bench fpm --device exited with ${code}:\n${out}\n${err}")
endif()
file(READ ${WORK}/model.json model)
string(JSON nodes LENGTH "${model}" nodes)
string(JSON device GET "${model}" nodes 1 device)
string(JSON second GET "${model}" nodes 3 device)
if(NOT nodes EQUAL 4 OR NOT device STREQUAL "openmp:0" OR NOT second STREQUAL "openmp:1")
  message(FATAL_ERROR "the model should have 4 nodes (cores, device per rank), devices openmp:0 and openmp:1; got "
                      "${nodes}, ${device}, ${second}")
endif()
foreach(split numerical even)
  execute_process(COMMAND ${MPIEXEC} -np 2 ${flags} ${PROGRAM} ${WORK}/model.json 400 200 ${split}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}")
  if(NOT code EQUAL 0 OR NOT out MATCHES "400 rows \\(order 200\\), ${split} split: makespan [0-9.]+ s \\(predicted"
     OR NOT out MATCHES "every row once: yes; rows right, on the device: yes")
    message(FATAL_ERROR "host_device_rows (${split}) exited with ${code}:\n${out}\n${err}")
  endif()
  foreach(rank 0 1)
    if(NOT out MATCHES "rank ${rank}: cores [0-9]+ rows in [0-9.]+ s \\(predicted [0-9.]+ s\\), device [0-9]+ rows")
      message(FATAL_ERROR "host_device_rows (${split}): no line for rank ${rank}:\n${out}")
    endif()
  endforeach()
endforeach()
# The model given to the call that shares among ranks alone: one line, exit 2.
execute_process(COMMAND ${MPIEXEC} -np 2 ${flags} ${SHARE_BY_SPEED} ${WORK}/model.json 400
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "model.json: has 2 device nodes: share with hetscale_share_with_device")
  message(FATAL_ERROR "share_by_speed with a model of devices should exit 2 with one line, got ${code}:\n${err}")
endif()
