# The fuzz targets (tests/fuzz/CMakeLists.txt) need clang and libFuzzer
# (Debian: clang, libclang-rt-14-dev; scripts/install-deps installs them).
# The ordinary build builds them as a project of their own in fuzz/ with
# clang, and CTest runs each for FUZZ_TEST_SECONDS, so that `make test`
# catches a reader that regressed; `make fuzz` runs them for longer.
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzzers.cmake)
find_program(HETSCALE_CLANG NAMES clang-14 clang)
find_program(HETSCALE_CLANGXX NAMES clang++-14 clang++)
set(FUZZ_TEST_SECONDS 15 CACHE STRING "How long CTest runs each fuzz target")
if(HETSCALE_SANITIZE)
  return()  # the fuzz targets have their sanitizers already; a sanitized build tests the rest
endif()
if(NOT HETSCALE_CLANG OR NOT HETSCALE_CLANGXX)
  message(WARNING "clang not found: the fuzz targets are not built and not tested (run scripts/install-deps)")
  return()
endif()
include(ExternalProject)
set(fuzz_build ${CMAKE_BINARY_DIR}/fuzz)
if(CMAKE_GENERATOR MATCHES "Makefiles")
  set(fuzz_build_command $(MAKE) fuzzers)  # under make's job server
else()
  set(fuzz_build_command ${CMAKE_COMMAND} --build <BINARY_DIR> --target fuzzers)
endif()
ExternalProject_Add(hetscale_fuzzers
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${fuzz_build}
  CMAKE_ARGS -DHETSCALE_FUZZ=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
             -DCMAKE_C_COMPILER=${HETSCALE_CLANG} -DCMAKE_CXX_COMPILER=${HETSCALE_CLANGXX}
             -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER}
             -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
  BUILD_COMMAND ${fuzz_build_command}
  BUILD_ALWAYS ON
  INSTALL_COMMAND "")
foreach(name ${HETSCALE_FUZZERS})
  # For scripts/fuzz: the seed folders, one a line.
  string(REPLACE ";" "\n" seeds "${HETSCALE_FUZZ_SEEDS_${name}}")
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz-seeds/${name}.txt "${seeds}\n")
  add_test(NAME fuzz.${name}
    COMMAND ${CMAKE_COMMAND} -DFUZZER=${fuzz_build}/tests/fuzz/fuzz_${name}
            -DCORPUS=${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus/${name} "-DSEEDS=${HETSCALE_FUZZ_SEEDS_${name}}"
            -DSECONDS=${FUZZ_TEST_SECONDS} -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzzer.cmake)
endforeach()
