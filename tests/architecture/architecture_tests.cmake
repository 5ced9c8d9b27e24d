# The house plan (docs/architecture.md): no include runs back up the folders.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(HETSCALE_INCLUDE_CHECKER ${CMAKE_CURRENT_SOURCE_DIR}/architecture/check_includes.py)
add_test(NAME architecture.includes
  COMMAND ${Python3_EXECUTABLE} ${HETSCALE_INCLUDE_CHECKER} --rules ${PROJECT_SOURCE_DIR}/docs/architecture.md
          --root ${PROJECT_SOURCE_DIR})
add_test(NAME architecture.includes_refuses_an_upward_include
  COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE} -DCHECKER=${HETSCALE_INCLUDE_CHECKER}
          -DRULES=${PROJECT_SOURCE_DIR}/docs/architecture.md
          -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/architecture/fixtures/upward
          -P ${CMAKE_CURRENT_SOURCE_DIR}/architecture/expect_violations.cmake)
# The command line's budget (docs/architecture.md): it parses, calls and prints.
add_test(NAME architecture.cli_budget
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/architecture/check_cli_budget.py
          --rules ${PROJECT_SOURCE_DIR}/docs/architecture.md --root ${PROJECT_SOURCE_DIR})
# No option of the command line spelled in the library (docs/architecture.md):
# settings by their words, said as options by the command line.
set(HETSCALE_FLAG_NAME_CHECKER ${CMAKE_CURRENT_SOURCE_DIR}/architecture/check_no_flag_names.py)
add_test(NAME architecture.no_flag_names_in_library
  COMMAND ${Python3_EXECUTABLE} ${HETSCALE_FLAG_NAME_CHECKER} --rules ${PROJECT_SOURCE_DIR}/docs/architecture.md
          --root ${PROJECT_SOURCE_DIR})
add_test(NAME architecture.no_flag_names_refuses_an_option
  COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE} -DCHECKER=${HETSCALE_FLAG_NAME_CHECKER}
          -DRULES=${PROJECT_SOURCE_DIR}/docs/architecture.md
          -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/architecture/fixtures/flag_names
          "-DEXPECTED=src/mpi/options.cpp:5: the string \"--speeds\"|src/mpi/options.cpp:8: the string \"--raw-option\"|src/mpi/options.cpp:10: the string \"--cfg=|src/mpi/options.cpp:11: a comment quotes \"--eval-time\"|include/hetscale/mpi/options.hpp:3: a comment quotes \"--marked-speeds\""
          -DFINDINGS=5
          -P ${CMAKE_CURRENT_SOURCE_DIR}/architecture/expect_violations.cmake)
