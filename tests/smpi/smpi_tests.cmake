# The kernels in the simulator (hetscale-smpi under smpirun, launched by
# `hetscale simulate kernel|sweep`): every kernel passes its numerical check
# on small heterogeneous platforms, a sweep's output is diffed against a
# golden file (the simulated times depend only on the platform and the flop
# counts), the sweeps read back like measured ones (`scale psi`), and bad
# input stops before the simulation with exit code 2 and one line on stderr.
set(SMPI_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
set(SMPI_GOLDEN_DIR ${CMAKE_CURRENT_SOURCE_DIR}/smpi/golden)
set(SMPI_PLATFORM tests/smpi/platform-tiny.json)
set(SMPI_OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/smpi)
file(MAKE_DIRECTORY ${SMPI_OUT_DIR})

# smpi_test(NAME CODE ARGUMENTS [GOLDEN file | STDERR_REGEX re OUT_FILE file] [WORKDIR dir]);
# ARGUMENTS are separated by |.
function(smpi_test name code arguments)
  cmake_parse_arguments(PARSE_ARGV 3 check "" "GOLDEN;STDERR_REGEX;OUT_FILE;WORKDIR" "")
  set(definitions "")
  if(check_GOLDEN)
    list(APPEND definitions -DGOLDEN=${SMPI_GOLDEN_DIR}/${check_GOLDEN})
  endif()
  if(check_STDERR_REGEX)
    list(APPEND definitions "-DSTDERR_REGEX=${check_STDERR_REGEX}")
  endif()
  if(check_OUT_FILE)
    list(APPEND definitions -DOUT_FILE=${check_OUT_FILE})
  endif()
  if(NOT check_WORKDIR)
    set(check_WORKDIR ${PROJECT_SOURCE_DIR})
  endif()
  add_test(NAME smpi.${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${check_WORKDIR}
            "-DARGS=${arguments}" -DEXPECT_CODE=${code} ${definitions} -P ${SMPI_CHECK})
  set_tests_properties(smpi.${name} PROPERTIES TIMEOUT 60)
endfunction()

# Every kernel passes its check (exit code 0): heterogeneous hosts, host
# lists in any order, fewer rows than ranks, relative speeds without a
# reference (1000 Mflop/s per unit).
# name | arguments after `simulate kernel`
set(smpi_kernel_runs
  "ge_3|ge|--size|37|--hosts|3"
  "ge_rows_fewer_than_ranks|ge|--size|2|--hosts|4"
  "mm_4|mm|--size|40|--hosts|slow-1,fast,mid,slow-2"
  "mm_rows_fewer_than_ranks|mm|--size|3|--hosts|4"
  "conv_3|conv|--size|30|--hosts|3"
  "conv_4|conv|--size|16|--hosts|4"
  "mc_3|mc|--size|2000|--hosts|3"
)
foreach(run ${smpi_kernel_runs})
  string(REPLACE "|" ";" parts "${run}")
  list(GET parts 0 name)
  list(REMOVE_AT parts 0)
  string(REPLACE ";" "|" arguments "${parts}")
  smpi_test(kernel.${name} 0 "simulate|kernel|${arguments}|--platform|${SMPI_PLATFORM}")
endforeach()
smpi_test(kernel.ge_relative_speeds 0 "simulate|kernel|ge|--size|50|--platform|tests/smpi/platform-relative.json")

# Rows shared by a functional performance model in the simulator too
# (--distribution reaches hetscale-smpi; the output says the rows).
smpi_test(golden.kernel_ge_fpm 0
  "simulate|kernel|ge|--size|60|--hosts|3|--platform|${SMPI_PLATFORM}|--distribution|fpm:tests/cli/partition/model-small.json"
  GOLDEN simulate_kernel_ge_fpm.txt)
smpi_test(golden.sweep_mm_fpm 0
  "simulate|sweep|--kernel|mm|--sizes|30,60|--hosts|3|--platform|${SMPI_PLATFORM}|--distribution|fpm:tests/cli/partition/model-small.json"
  GOLDEN simulate_sweep_mm_fpm.txt)

# Golden outputs: the simulated times are the same on every machine.
smpi_test(golden.sweep_ge 0
  "simulate|sweep|--platform|${SMPI_PLATFORM}|--hosts|3|--kernel|ge|--sizes|40:200:40|--target|0.3|--configuration|T3"
  GOLDEN simulate_sweep_ge.txt)
# A trend line through sizes far apart misses the target (E_s 0.395 at its N
# for 0.35): the verifying runs go on to the N that holds it (--refine), or
# stop there, as the paper reads N (--refine 0).
smpi_test(golden.sweep_ge_refined 0
  "simulate|sweep|--platform|${SMPI_PLATFORM}|--hosts|3|--kernel|ge|--sizes|40,100,600,900|--target|0.35|--configuration|T3"
  GOLDEN simulate_sweep_ge_refined.txt)
smpi_test(golden.sweep_ge_trend_line_only 0
  "simulate|sweep|--platform|${SMPI_PLATFORM}|--hosts|3|--kernel|ge|--sizes|40,100,600,900|--target|0.35|--configuration|T3|--refine|0"
  GOLDEN simulate_sweep_ge_trend_line_only.txt)
smpi_test(golden.sweep_conv 0
  "simulate|sweep|--platform|${SMPI_PLATFORM}|--hosts|fast,slow-1,mid|--kernel|conv|--sizes|16,32,64"
  GOLDEN simulate_sweep_conv.txt)

# Simulated sweeps read like measured ones: psi between two configurations.
smpi_test(sweep_T3 0
  "simulate|sweep|--platform|${PROJECT_SOURCE_DIR}/${SMPI_PLATFORM}|--hosts|3|--kernel|ge|--sizes|40:200:40|--target|0.3|--configuration|T3|--out|T3.json"
  WORKDIR ${SMPI_OUT_DIR})
smpi_test(sweep_T4 0
  "simulate|sweep|--platform|${PROJECT_SOURCE_DIR}/${SMPI_PLATFORM}|--kernel|ge|--sizes|40:280:40|--target|0.3|--configuration|T4|--out|T4.json"
  WORKDIR ${SMPI_OUT_DIR})
set_tests_properties(smpi.sweep_T3 smpi.sweep_T4 PROPERTIES FIXTURES_SETUP smpi_sweeps)
smpi_test(golden.psi 0 "scale|psi|T3.json|T4.json" GOLDEN scale_psi_simulated.txt WORKDIR ${SMPI_OUT_DIR})
set_tests_properties(smpi.golden.psi PROPERTIES FIXTURES_REQUIRED smpi_sweeps)

# Bad input: exit code 2, one line on stderr, nothing on stdout, no file written.
# name | regex of the line on stderr | arguments after `simulate`
set(smpi_bad_inputs
  "more_ranks_than_hosts|^hetscale: --hosts: asks for 5 ranks but tests/smpi/platform-tiny.json has 4 hosts. one rank per host: at most 4\n$|kernel|ge|--size|20|--hosts|5"
  "unknown_host|^hetscale: --hosts: item 2: no node 'nope' in tests/smpi/platform-tiny.json. its nodes: fast, mid, slow-1, slow-2\n$|kernel|ge|--size|20|--hosts|fast,nope"
  "host_twice|^hetscale: --hosts: item 3: node 'mid' is given twice. one rank per host\n$|sweep|--sizes|10:40:10|--hosts|mid,fast,mid"
  "zero_hosts|^hetscale: --hosts: must be a whole number >= 1, got 0\n$|kernel|ge|--size|20|--hosts|0"
  "emulated_speeds|^hetscale: The following arguments were not expected: .*--speeds|kernel|ge|--size|20|--speeds|1,1,1"
  "size_too_large|^hetscale: --size: must be a whole number in \\[1, 20000\\] for kernel ge, got 30000\n$|kernel|ge|--size|30000"
  "mc_target|^hetscale: --target: the Monte Carlo kernel's work is in histories, not flop: no E_s target\n$|sweep|--kernel|mc|--sizes|10:40:10|--target|0.3"
  "too_few_sizes|^hetscale: --sizes: points: a degree-2 trend line needs at least 4 sizes, got 3\n$|sweep|--sizes|10,20,30|--target|0.3"
)
foreach(case ${smpi_bad_inputs})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(REMOVE_AT parts 0 1)
  string(REPLACE ";" "|" arguments "${parts}")
  set(out ${SMPI_OUT_DIR}/bad_${name}.json)
  smpi_test(bad.${name} 2 "simulate|${arguments}|--platform|${SMPI_PLATFORM}|--out|${out}"
    STDERR_REGEX "${regex}" OUT_FILE ${out})
endforeach()
smpi_test(bad.missing_platform 2 "simulate|kernel|ge|--size|20|--platform|tests/smpi/no-such-platform.json"
  STDERR_REGEX "^hetscale: tests/smpi/no-such-platform.json: cannot be opened: No such file or directory\n$")
smpi_test(bad.no_program 2 "simulate|kernel|ge|--size|20|--platform|${SMPI_PLATFORM}|--out|${SMPI_OUT_DIR}/bad_no_program.json"
  STDERR_REGEX "^hetscale: HETSCALE_SMPI: '/nonexistent/hetscale-smpi' is not an executable program"
  OUT_FILE ${SMPI_OUT_DIR}/bad_no_program.json)
set_tests_properties(smpi.bad.no_program PROPERTIES ENVIRONMENT HETSCALE_SMPI=/nonexistent/hetscale-smpi)

# What the simulator writes reads back: the farm's and the kernels' run
# records analysed, a sweep fitted (once each: the simulated times are the
# same every time).
add_test(NAME smpi.records_read_back
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWRITERS=simulator -DREPEATS=1
          -DCHECK_DIAGNOSIS=${CMAKE_CURRENT_SOURCE_DIR}/support/check_diagnosis.py
          -DPLATFORMS=${CMAKE_CURRENT_SOURCE_DIR} -DWORK_DIR=${SMPI_OUT_DIR}/records_read_back
          -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_records_read_back.cmake)
set_tests_properties(smpi.records_read_back PROPERTIES TIMEOUT 120)

# Under AddressSanitizer (make test SANITIZE=...), smpirun cannot run the
# simulated ranks: it loads hetscale-smpi once per rank with dlopen's
# RTLD_DEEPBIND, which ASan's interposition of malloc and operator new does
# not support (bad-free reports in SimGrid's own contexts). Only the bad-input
# cases, which stop before the simulation, run there.
if(HETSCALE_SANITIZE)
  get_property(smpi_tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS smpi_tests)
    if(test MATCHES "^smpi\\." AND NOT test MATCHES "^smpi\\.bad\\.")
      set_tests_properties(${test} PROPERTIES DISABLED TRUE)
    endif()
  endforeach()
endif()
