# `cmake --install` into a fresh prefix in the build tree, then hetscale used
# from there by a project outside the tree, by pkg-config and by the installed
# command (tests/install/out_of_tree_example.sh says what is checked).
set(sanitized 0)
if(HETSCALE_SANITIZE)
  set(sanitized 1)
endif()
string(REPLACE ";" " " libraries "${HETSCALE_LIBRARIES};hetscale_run;hetscale_mpi")
add_test(NAME install.out_of_tree_example
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install/out_of_tree_example.sh
          ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_out_of_tree
          ${MPIEXEC_EXECUTABLE} ${HETSCALE_MPIEXEC_FLAGS})
set_tests_properties(install.out_of_tree_example PROPERTIES TIMEOUT 300
  ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT};CMAKE=${CMAKE_COMMAND};CC=${CMAKE_C_COMPILER};CXX=${CMAKE_CXX_COMPILER};BINDIR=${CMAKE_INSTALL_BINDIR};LIBDIR=${CMAKE_INSTALL_LIBDIR};INCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR};DATADIR=${CMAKE_INSTALL_DATADIR};LIBRARIES=${libraries};SANITIZED=${sanitized}")
