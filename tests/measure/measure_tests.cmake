# hetscale measure and libhetscale_measure.so on programs hetscale did not
# write (docs/measure.md): a C program with known answers under mpiexec, its
# exit code and output passed on, MPI_Abort leaving no record, and bad input
# refused on every rank before the program starts. Included from
# tests/CMakeLists.txt.
# measure_missing(NAME WHAT): a test that fails saying WHAT is not found, where
# a program no one here wrote (LAMMPS, MPICH, PETSc) is missing: not skipped in silence.
function(measure_missing name what)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "${what} not found: run scripts/install-deps")
  set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE)
endfunction()

add_executable(known_wait measure/programs/known_wait.c)
target_link_libraries(known_wait PRIVATE MPI::MPI_C)
# A 1-D stencil that times its own computation, with one thread, two threads
# in MPI at once, or an OpenMP loop (also bench/measure_accuracy's program).
find_package(OpenMP REQUIRED COMPONENTS C)
find_package(Threads REQUIRED)
add_executable(stencil measure/programs/stencil.c)
target_link_libraries(stencil PRIVATE MPI::MPI_C OpenMP::OpenMP_C Threads::Threads)

add_test(NAME measure_known_wait_c
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
          $<TARGET_FILE:known_wait> ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait)
set_tests_properties(measure_known_wait_c PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 400
  RUN_SERIAL TRUE)

# The same known answers from a Fortran program (use mpi, MPI_Allreduce): Open
# MPI's Fortran bindings bypass the C wrappers, so this checks the Fortran ones;
# and the transfer model taken from a communication profile (Chen et al. 2008
# Section 4.5's costs).
# The Fortran programs' CPU work, one module built once.
add_library(cpu_busy_fortran OBJECT measure/programs/cpu_busy.f90)
set_target_properties(cpu_busy_fortran PROPERTIES Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/cpu_busy_module)
target_include_directories(cpu_busy_fortran INTERFACE ${CMAKE_CURRENT_BINARY_DIR}/cpu_busy_module)
add_executable(known_wait_fortran measure/programs/known_wait.f90)
target_link_libraries(known_wait_fortran PRIVATE cpu_busy_fortran MPI::MPI_Fortran)
add_test(NAME measure_known_wait_fortran
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
          $<TARGET_FILE:known_wait_fortran> ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait_fortran
          --functions MPI_Init,MPI_Allreduce --known-only --comm-profile ${PROJECT_SOURCE_DIR}/data/papers/seed001-section45.json)
set_tests_properties(measure_known_wait_fortran PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}"
  TIMEOUT 400 RUN_SERIAL TRUE)

# --emulate-speeds 1,0.5 (held back): rank 1 computes its 0.2 s of
# CPU a step in 0.4 s, so rank 0 waits 0.3 s a step (1.5 s in all), and the
# load balance is (0.5 + 2.0) / 2 / 2.0 = 0.625.
add_test(NAME measure_known_wait_emulated
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
          $<TARGET_FILE:known_wait> ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait_emulated
          --known-only --emulate-speeds 1,0.5 --balance 0.625 --wait 1.5)
set_tests_properties(measure_known_wait_emulated PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}"
  TIMEOUT 400 RUN_SERIAL TRUE)

# measure_check(NAME SCRIPT TIMEOUT [RUN_SERIAL] ARGS...): python3 SCRIPT
# HETSCALE ARGS... DIR, DIR the build's folder NAME, with the MPI tests'
# environment.
function(measure_check name script timeout)
  cmake_parse_arguments(PARSE_ARGV 3 check "RUN_SERIAL" "" "")
  add_test(NAME ${name}
    COMMAND python3 ${script} $<TARGET_FILE:hetscale_cli> ${check_UNPARSED_ARGUMENTS} ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT ${timeout})
  if(check_RUN_SERIAL)
    set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# --emulate-speeds 0.04,0.04: hetscale's own ping-pong at MPI_Init (the
# transfer model) runs at full speed and is t_setup, not computation; slowed
# to 4 % of a CPU it would add seconds (tests/measure/check_small_speed.py).
measure_check(measure_small_speed ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_small_speed.py 200 RUN_SERIAL
  $<TARGET_FILE:known_wait>)

# LAMMPS from Debian, unmodified: the Lennard-Jones melt at 1, 2 and 4 ranks
# and at 2 ranks emulated at speeds 1 and 0.5 (tests/measure/check_lammps.py).
# Not skipped in silence where lmp is missing: a test says so.
find_program(HETSCALE_LMP lmp)
if(HETSCALE_LMP)
  add_test(NAME measure_lammps
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_lammps.py $<TARGET_FILE:hetscale_cli> ${HETSCALE_LMP}
            ${CMAKE_CURRENT_SOURCE_DIR}/measure/data/lj-melt.in ${CMAKE_CURRENT_BINARY_DIR}/measure_lammps)
  set_tests_properties(measure_lammps PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 900
    RUN_SERIAL TRUE)
else()
  measure_missing(measure_lammps_needs_lmp "lmp")
endif()

# --platform: the ranks' speeds by host name, and the platform's network as
# the transfer model (a platform of this host at speed 0.5, written by the test).
add_test(NAME measure_known_wait_platform
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
          $<TARGET_FILE:known_wait> ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait_platform --known-only
          --platform-speed 0.5)
set_tests_properties(measure_known_wait_platform PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}"
  TIMEOUT 400 RUN_SERIAL TRUE)

# Bad input: one line from rank 0, exit 2 on every rank, the program never started.
function(measure_bad_input name regex)
  add_test(NAME measure_bad_input_${name}
    COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}
            "-DARGS=${ARGN}" -DEXPECT_CODE=2 "-DSTDERR_REGEX=${regex}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.cmake)
  set_tests_properties(measure_bad_input_${name} PROPERTIES TIMEOUT 60)
endfunction()
measure_bad_input(no_program "^hetscale: PROGRAM: missing: hetscale measure \\[options\\] -- PROGRAM \\[ARGS...\\]\n$"
  measure)
measure_bad_input(program_not_found "^hetscale: PROGRAM: no-such-program: is not found in PATH"
  measure -- no-such-program)
measure_bad_input(program_not_executable "^hetscale: PROGRAM: .*known_wait.c: is not an executable file\n$"
  measure -- ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/known_wait.c)
measure_bad_input(out_unwritable "^hetscale: --out: /no-such-folder/r.json: cannot be written: the folder /no-such-folder does not exist\n$"
  measure --out /no-such-folder/r.json -- $<TARGET_FILE:known_wait>)
measure_bad_input(bad_speed "^hetscale: --speeds: item 2: must be > 0, got 0\n$"
  measure --speeds 1,0 -- $<TARGET_FILE:known_wait>)
measure_bad_input(host_not_in_platform
  "^hetscale: ${PROJECT_SOURCE_DIR}/examples/platform-hetero.json: node '[^']+': is the host of a rank but not in the platform; every host that runs a rank must be listed\n$"
  measure --platform ${PROJECT_SOURCE_DIR}/examples/platform-hetero.json -- $<TARGET_FILE:known_wait>)
measure_bad_input(platform_and_speeds "^hetscale: --platform: give --platform or --speeds, not both\n$"
  measure --platform ${PROJECT_SOURCE_DIR}/examples/platform-hetero.json --speeds 1 -- $<TARGET_FILE:known_wait>)
measure_bad_input(comm_profile_without_bandwidth
  "^hetscale: .*comm-profile-flat.json: costs.send.per_element: must be > 0 for a transfer model \\(bandwidth = 8 bytes / seconds per double\\)\n$"
  measure --comm-profile ${CMAKE_CURRENT_SOURCE_DIR}/measure/data/comm-profile-flat.json -- $<TARGET_FILE:known_wait>)
measure_bad_input(trace_is_a_file "^hetscale: --trace: .*known_wait.c: is a file, not a folder\n$"
  measure --trace ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/known_wait.c -- $<TARGET_FILE:known_wait>)
measure_bad_input(emulated_speed_over_one
  "^hetscale: --emulate-speeds: item 2: must be in \\(0, 1\\] \\(relative to this machine\\), got 2\n$"
  measure --emulate-speeds 1,2 -- $<TARGET_FILE:known_wait>)

# The same under mpiexec on 2 ranks: one line, exit 2, no record, no rank left running.
mpi_bad_input_test(measure_mpi_bad_speed_count 2 "hetscale: --speeds: gives 3 speeds for 2 ranks: one per rank"
  "measure|--speeds|1,0.5,0.25|--out|${CMAKE_CURRENT_BINARY_DIR}/measure-bad.json|--|$<TARGET_FILE:known_wait>"
  ${CMAKE_CURRENT_BINARY_DIR}/measure-bad.json)
mpi_bad_input_test(measure_mpi_program_not_found 2 "hetscale: PROGRAM: no-such-program: is not found in PATH"
  "measure|--|no-such-program")
mpi_bad_input_test(measure_mpi_no_program 2 "hetscale: PROGRAM: missing: hetscale measure [options] -- PROGRAM [ARGS...]"
  "measure")
mpi_bad_input_test(measure_mpi_program_not_executable 2 "is not an executable file"
  "measure|--|${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/known_wait.c")
mpi_bad_input_test(measure_mpi_out_unwritable 2
  "hetscale: --out: /no-such-folder/r.json: cannot be written: the folder /no-such-folder does not exist"
  "measure|--out|/no-such-folder/r.json|--|$<TARGET_FILE:known_wait>")
mpi_bad_input_test(measure_mpi_bad_platform 2 "hetscale: ${CMAKE_CURRENT_SOURCE_DIR}/measure/data/lj-melt.in:"
  "measure|--platform|${CMAKE_CURRENT_SOURCE_DIR}/measure/data/lj-melt.in|--out|${CMAKE_CURRENT_BINARY_DIR}/measure-bad-platform.json|--|$<TARGET_FILE:known_wait>"
  ${CMAKE_CURRENT_BINARY_DIR}/measure-bad-platform.json)
mpi_bad_input_test(measure_mpi_emulated_speed_over_one 2
  "hetscale: --emulate-speeds: item 2: must be in (0, 1] (relative to this machine), got 2"
  "measure|--emulate-speeds|1,2|--out|${CMAKE_CURRENT_BINARY_DIR}/measure-bad-emulated.json|--|$<TARGET_FILE:known_wait>"
  ${CMAKE_CURRENT_BINARY_DIR}/measure-bad-emulated.json)

# Regions (hetscale/measure.h) and MPI_Pcontrol, in C and in Fortran: each
# region's known answers through `analyze --region`, the time measured off
# left out, the TALP JSON's regions, and the program run without the library.
add_executable(regions measure/programs/regions.c)
target_include_directories(regions PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(regions PRIVATE MPI::MPI_C)
add_executable(pcontrol_fortran measure/programs/pcontrol.f90)
target_link_libraries(pcontrol_fortran PRIVATE cpu_busy_fortran MPI::MPI_Fortran)
measure_check(measure_regions ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_regions.py 400 RUN_SERIAL
  $<TARGET_FILE:regions> $<TARGET_FILE:pcontrol_fortran>)

# MPI functions of every kind beyond the basics (neighbourhood and non-blocking
# collectives, persistent requests, matched probes, communicators with info,
# v collectives, in C and through the Fortran bindings): each named in the
# record with its calls and bytes.
add_executable(many_calls measure/programs/many_calls.c)
target_link_libraries(many_calls PRIVATE MPI::MPI_C)
add_executable(many_calls_fortran measure/programs/many_calls.f90)
target_link_libraries(many_calls_fortran PRIVATE MPI::MPI_Fortran)
add_executable(bytes_moved measure/programs/bytes_moved.c)
target_link_libraries(bytes_moved PRIVATE MPI::MPI_C)
measure_check(measure_many_calls ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_many_calls.py 120
  $<TARGET_FILE:many_calls> $<TARGET_FILE:many_calls_fortran> $<TARGET_FILE:bytes_moved>)

# The run-queue delay of every thread of a rank: a worker thread computes while
# the main thread sleeps, on a CPU shared with a busy loop (taskset).
add_executable(worker_thread measure/programs/worker_thread.c)
target_link_libraries(worker_thread PRIVATE MPI::MPI_C Threads::Threads)
measure_check(measure_worker_thread ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_worker_thread.py 120 RUN_SERIAL
  $<TARGET_FILE:worker_thread>)

# Shared cores and threads: 4 ranks on this machine (more ranks than cores
# here), one thread, two threads in MPI at once and an OpenMP loop, as is and
# emulated at 1,0.5: each rank's t_comp within 10 % of its own CPU time (over
# its emulated speed), its parts adding up to t_par, the record read
# (bench/measure_accuracy.py --test).
add_test(NAME measure_accuracy
  COMMAND python3 ${PROJECT_SOURCE_DIR}/bench/measure_accuracy.py --test --check $<TARGET_FILE:hetscale_cli>
          $<TARGET_FILE:stencil> ${CMAKE_CURRENT_BINARY_DIR}/measure_accuracy)
set_tests_properties(measure_accuracy PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 400
  RUN_SERIAL TRUE)

# An OpenMP team under emulated speeds: the pool's threads held back too
# (tests/measure/check_openmp_emulated.py).
measure_check(measure_openmp_emulated ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_openmp_emulated.py 200
  $<TARGET_FILE:stencil>)

# A polling loop (MPI_Testany, timed one call in 16): every call counted, its
# time booked as waiting (tests/measure/check_polling.py).
measure_check(measure_polling ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_polling.py 200 RUN_SERIAL
  $<TARGET_FILE:testany_loop>)

# MPICH (Debian's mpich and libmpich-dev, beside Open MPI): the known-wait
# programs in C and Fortran built with MPICH's compilers and run by its
# mpiexec get hetscale's MPICH library (hetscale measure picks it by the
# library the program links) and the same known answers.
find_program(HETSCALE_MPICC_MPICH mpicc.mpich)
find_program(HETSCALE_MPIFORT_MPICH mpifort.mpich)
find_program(HETSCALE_MPIEXEC_MPICH mpiexec.mpich)
if(TARGET hetscale_measure_mpich AND HETSCALE_MPICC_MPICH AND HETSCALE_MPIFORT_MPICH AND HETSCALE_MPIEXEC_MPICH)
  set(mpich_programs ${CMAKE_CURRENT_BINARY_DIR}/mpich)
  add_custom_command(OUTPUT ${mpich_programs}/known_wait ${mpich_programs}/known_wait_fortran
    COMMAND ${CMAKE_COMMAND} -E make_directory ${mpich_programs}
    COMMAND ${HETSCALE_MPICC_MPICH} -O2 -I${CMAKE_CURRENT_SOURCE_DIR}/measure/programs
            ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/known_wait.c -o ${mpich_programs}/known_wait
    COMMAND ${HETSCALE_MPIFORT_MPICH} -O2 -J${mpich_programs} ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/cpu_busy.f90
            ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/known_wait.f90 -o ${mpich_programs}/known_wait_fortran
    DEPENDS measure/programs/known_wait.c measure/programs/cpu_busy.h measure/programs/cpu_busy.f90
            measure/programs/known_wait.f90
    COMMENT "Building the known-wait programs with MPICH")
  add_custom_target(known_wait_mpich ALL DEPENDS ${mpich_programs}/known_wait ${mpich_programs}/known_wait_fortran)
  add_dependencies(known_wait_mpich hetscale_measure_mpich)
  add_test(NAME measure_known_wait_mpich_c
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
            ${mpich_programs}/known_wait ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait_mpich_c --known-only
            --mpiexec ${HETSCALE_MPIEXEC_MPICH})
  add_test(NAME measure_known_wait_mpich_fortran
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_known_wait.py $<TARGET_FILE:hetscale_cli>
            ${mpich_programs}/known_wait_fortran ${CMAKE_CURRENT_BINARY_DIR}/measure_known_wait_mpich_fortran
            --known-only --functions MPI_Init,MPI_Allreduce --mpiexec ${HETSCALE_MPIEXEC_MPICH})
  set_tests_properties(measure_known_wait_mpich_c measure_known_wait_mpich_fortran PROPERTIES TIMEOUT 400
    RUN_SERIAL TRUE)
  # --library -- PROGRAM: the library for the program's MPI, for the expert form.
  add_test(NAME measure_library_for_mpich
    COMMAND $<TARGET_FILE:hetscale_cli> measure --library -- ${mpich_programs}/known_wait)
  add_test(NAME measure_library_for_open_mpi
    COMMAND $<TARGET_FILE:hetscale_cli> measure --library -- $<TARGET_FILE:known_wait>)
  set_tests_properties(measure_library_for_mpich PROPERTIES PASS_REGULAR_EXPRESSION "/libhetscale_measure_mpich\\.so\n$")
  set_tests_properties(measure_library_for_open_mpi PROPERTIES PASS_REGULAR_EXPRESSION "/libhetscale_measure\\.so\n$")
else()
  measure_missing(measure_mpich_needs_mpich "MPICH (mpicc.mpich, mpifort.mpich, mpiexec.mpich, libmpich-dev)")
endif()

# NWChem (Debian's nwchem-openmpi, Global Arrays over ARMCI-MPI): its output
# and exit code its own, and at 1 rank hetscale's one-sided bytes equal to
# GA's own statistics (tests/measure/check_nwchem.py).
find_program(HETSCALE_NWCHEM nwchem.openmpi)
if(HETSCALE_NWCHEM)
  add_test(NAME measure_nwchem
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_nwchem.py $<TARGET_FILE:hetscale_cli>
            ${HETSCALE_NWCHEM} ${CMAKE_CURRENT_SOURCE_DIR}/measure/data/h2o-scf.nw
            ${CMAKE_CURRENT_BINARY_DIR}/measure_nwchem)
  set_tests_properties(measure_nwchem PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 300)
else()
  measure_missing(measure_nwchem_needs_nwchem "nwchem.openmpi (nwchem-openmpi)")
endif()

# PETSc's ksp/tutorials/ex2.c, built from Debian's examples: its messages and
# bytes per rank within 2 % of its own -log_view (tests/measure/check_petsc.py).
find_file(HETSCALE_PETSC_EX2 ex2.c PATHS /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials
          NO_DEFAULT_PATH)
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(HETSCALE_PETSC IMPORTED_TARGET petsc)
endif()
if(HETSCALE_PETSC_EX2 AND HETSCALE_PETSC_FOUND)
  add_executable(petsc_ex2 ${HETSCALE_PETSC_EX2})
  target_link_libraries(petsc_ex2 PRIVATE PkgConfig::HETSCALE_PETSC MPI::MPI_C)
  add_test(NAME measure_petsc_bytes
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_petsc.py $<TARGET_FILE:hetscale_cli>
            $<TARGET_FILE:petsc_ex2> ${CMAKE_CURRENT_BINARY_DIR}/measure_petsc)
  set_tests_properties(measure_petsc_bytes PROPERTIES ENVIRONMENT "${HETSCALE_MPI_TEST_ENVIRONMENT}" TIMEOUT 600
    RUN_SERIAL TRUE)
else()
  measure_missing(measure_petsc_needs_petsc "PETSc 3.18 and its examples")
endif()

# `hetscale measure --trace` on the stencil (4 ranks on this machine), the
# Fortran known-wait program, MPI patterns that take any source, and under
# emulated speeds; each trace replayed by SimGrid on one node of two cores
# (tests/measure/check_trace.py).
add_executable(trace_patterns measure/programs/trace_patterns.c)
# The Fortran heat equation of bench/replay_accuracy.py.
add_executable(heat measure/programs/heat.f90)
target_link_libraries(heat PRIVATE MPI::MPI_Fortran)
target_link_libraries(trace_patterns PRIVATE MPI::MPI_C)
measure_check(measure_trace ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_trace.py 300
  $<TARGET_FILE:stencil> $<TARGET_FILE:known_wait_fortran> $<TARGET_FILE:trace_patterns>
  ${PROJECT_SOURCE_DIR}/examples/platform-this-machine.json)

# Runs of short calls (one in 32 timed, the others counted): every call
# counted, each rank's computation its own CPU clock's within what the record
# says it could not split, the parts adding up; --time-every-call times all
# (tests/measure/check_short_calls.py); a second thread's counted calls all in
# the record.
add_executable(short_calls measure/programs/short_calls.c)
target_link_libraries(short_calls PRIVATE MPI::MPI_C Threads::Threads)
measure_check(measure_short_calls ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_short_calls.py 200 RUN_SERIAL
  $<TARGET_FILE:short_calls>)

# POP's OpenMP states through OMPT: a program of known serialization and
# imbalance, built with GCC (measured with --openmp on LLVM's runtime) and with
# clang (tests/measure/check_openmp_states.py).
add_executable(openmp_known measure/programs/openmp_known.c)
target_link_libraries(openmp_known PRIVATE MPI::MPI_C OpenMP::OpenMP_C)
add_executable(openmp_chunks measure/programs/openmp_chunks.c)
target_link_libraries(openmp_chunks PRIVATE MPI::MPI_C OpenMP::OpenMP_C)
find_program(HETSCALE_CLANG NAMES clang-14 clang)
find_program(HETSCALE_MPICC mpicc)
if(HETSCALE_CLANG AND HETSCALE_MPICC)
  set(openmp_known_clang ${CMAKE_CURRENT_BINARY_DIR}/openmp_known_clang)
  add_custom_command(OUTPUT ${openmp_known_clang}
    COMMAND ${CMAKE_COMMAND} -E env OMPI_CC=${HETSCALE_CLANG} ${HETSCALE_MPICC} -O2 -fopenmp
            ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/openmp_known.c -o ${openmp_known_clang}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/openmp_known.c ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/cpu_busy.h
    COMMENT "Building openmp_known with clang")
  add_custom_target(openmp_known_clang ALL DEPENDS ${openmp_known_clang})
else()
  set(openmp_known_clang -)
endif()
measure_check(measure_openmp_states ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_openmp_states.py 300
  $<TARGET_FILE:openmp_known> ${openmp_known_clang})

# OpenMP target offload to LLVM's host device plugin: a program of known
# kernels and mapped bytes built with clang; the record's devices against
# what it knows (tests/measure/check_offload.py).
if(HETSCALE_CLANG AND HETSCALE_MPICC AND TARGET hetscale_offload_host_plugin)
  set(offload_known ${CMAKE_CURRENT_BINARY_DIR}/offload_known)
  add_custom_command(OUTPUT ${offload_known}
    COMMAND ${CMAKE_COMMAND} -E env OMPI_CC=${HETSCALE_CLANG} ${HETSCALE_MPICC} -O2 -fopenmp
            -fopenmp-targets=x86_64-pc-linux-gnu ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/offload_known.c
            -o ${offload_known}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/offload_known.c
            ${CMAKE_CURRENT_SOURCE_DIR}/measure/programs/cpu_busy.h
    COMMENT "Building offload_known with clang for the host offload device")
  add_custom_target(offload_known ALL DEPENDS ${offload_known})
  measure_check(measure_offload ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_offload.py 300 ${offload_known})
else()
  measure_missing(measure_offload_needs_clang_and_libomptarget "clang and LLVM's offload host plugin (libomp-14-dev)")
endif()

# The CUDA backend (CUPTI's activity records) against a stand-in libcupti.so
# whose records are known, in a program linked with it
# (tests/measure/check_cuda_stub.py).
add_library(cupti_stub SHARED measure/programs/cupti_stub.c)
set_target_properties(cupti_stub PROPERTIES OUTPUT_NAME cupti LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/cupti-stub)
add_executable(cuda_stub_program measure/programs/cuda_stub_program.c)
target_link_libraries(cuda_stub_program PRIVATE cupti_stub MPI::MPI_C)
target_link_options(cuda_stub_program PRIVATE -Wl,--no-as-needed)  # it calls none of CUPTI's functions: loaded all the same
measure_check(measure_cuda_stub ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_cuda_stub.py 200
  $<TARGET_FILE:cuda_stub_program>)

# Threads of different speeds (--emulate-thread-speeds 1,0.5): a static
# schedule's threads' efficiency 2/3, and the shares in proportion to speed
# run again against the time predicted for them
# (tests/measure/check_openmp_thread_speeds.py).
measure_check(measure_openmp_thread_speeds ${CMAKE_CURRENT_SOURCE_DIR}/measure/check_openmp_thread_speeds.py 300
  $<TARGET_FILE:openmp_chunks>)
mpi_bad_input_test(measure_mpi_emulated_thread_speed_over_one 2
  "hetscale: --emulate-thread-speeds: item 2: must be in (0, 1] (relative to this machine), got 2"
  "measure|--emulate-thread-speeds|1,2|--out|${CMAKE_CURRENT_BINARY_DIR}/measure-bad-thread-speeds.json|--|$<TARGET_FILE:openmp_chunks>"
  ${CMAKE_CURRENT_BINARY_DIR}/measure-bad-thread-speeds.json)
mpi_bad_input_test(measure_mpi_emulated_threads_and_ranks 2
  "hetscale: --emulate-thread-speeds: 1,0.5: cannot be combined with emulate-speeds"
  "measure|--emulate-speeds|1,1|--emulate-thread-speeds|1,0.5|--|$<TARGET_FILE:openmp_chunks>")
