# HETSCALE_MPIEXEC_FLAGS: what mpiexec needs to run many ranks on few cores.
set(HETSCALE_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE hetscale_mpiexec_version ERROR_QUIET)
if(hetscale_mpiexec_version MATCHES "Open MPI|OpenRTE")
  list(APPEND HETSCALE_MPIEXEC_FLAGS --oversubscribe)
endif()
