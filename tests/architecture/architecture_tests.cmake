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
