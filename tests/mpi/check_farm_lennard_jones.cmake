# The farm with a real objective: Lennard-Jones clusters relaxed by GSL on the
# clients. The GA must find the Cambridge Cluster Database minimum (to 1e-4).
execute_process(
  COMMAND ${MPIEXEC} ${NP_FLAG} 4 ${FLAGS} ${HETSCALE} farm --objective lennard-jones --atoms ${ATOMS}
          --population 16 --generations 10 --mutation-rate 0.1 --seed 3 --speeds 1,0.5,0.25 --json
  RESULT_VARIABLE code OUTPUT_VARIABLE record ERROR_VARIABLE stderr TIMEOUT 120)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "farm failed (${code}):\n${stderr}")
endif()
string(JSON best GET "${record}" context best_fitness)
string(REGEX MATCH "^-?[0-9]+\\.[0-9][0-9][0-9][0-9]" best_4 "${best}")
string(REGEX MATCH "^-?[0-9]+\\.[0-9][0-9][0-9][0-9]" expected_4 "${EXPECTED}")
if(NOT best_4 STREQUAL expected_4)
  message(FATAL_ERROR "LJ${ATOMS}: best energy ${best}, expected ${EXPECTED}")
endif()
message(STATUS "LJ${ATOMS}: ${best} (Cambridge Cluster Database: ${EXPECTED})")
